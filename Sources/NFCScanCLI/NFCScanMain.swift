#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import CommandLineIO
import NFCCopy

/// nfcscan's command line, run by the executables that are nfcscan (Sources/nfcscan).
public enum NFCScanMain {
    public static func main() async {
        // The person's language's words now, before anything runs beside this thread: reading a
        // catalog sets LANGUAGE for a moment (NFCCopy's Gettext). English reads none.
        _ = CopyTranslations.of(ScanCopy.Language.preferred())
        let arguments = Array(CommandLine.arguments.dropFirst())
        if RootHelp.isRequested(by: arguments) {
            let help = RootHelp.text()
            writeLine(help.hasSuffix("\n") ? String(help.dropLast()) : help)
            exit(0)
        }
        // AsyncParsableCommand.main's steps, so a parse error can carry a suggestion.
        do {
            var command = try await NFCScanCommand.asyncParseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let names = NFCScanCommand.configuration.subcommands.map { $0._commandName }
            // The default command takes no word first: one close to a subcommand's name was meant as it.
            if NFCScanCommand.exitCode(for: error) == ExitCode.validationFailure,
               let (typed, meant) = CommandSuggestion.subcommand(for: arguments, among: names) {
                writeLine(CommandSuggestion.message(typed: typed, meant: meant, command: "nfcscan"), to: .error)
                exit(ExitCode.validationFailure.rawValue)
            }
            NFCScanCommand.exit(withError: error)
        }
    }
}
