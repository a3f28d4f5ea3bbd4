import ArgumentParser
import CommandLineIO
import NDEF
import NDEFReport
import NFCObjects
import NFCScanKit
import NFCTags

/// `nfcscan write`: save a link, text or whole message to the object held near a reader.
struct WriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write",
        abstract: "Save a link, text or message to an object held near a reader.",
        discussion: """
            nfcscan asks for the object, and when it comes near replaces what it holds with the \
            new message, in an order that never leaves it half-written: taken away too soon, it \
            holds the old message, an empty one or the new one. The object written is the object \
            read (another one brought near mid-write is refused), and what was written is read \
            back and compared before nfcscan says it is saved.

            Nothing is written to an object the message does not fit, to a locked one, or to a \
            blank one unless --format is given. A link and a text may go together (two records, \
            the link first); --ndef writes a whole message as it is (checked first).

            Examples:
              nfcscan write --uri https://example.com/menu --object poster
              nfcscan write --text "Room 4.12" --object badge --count 20
              nfcscan write --ndef message.bin --format --json
              nfcscan write --uri https://example.com --password 1a2b3c4d

            Exit status: \(ExitStatus.writeSummary)
            """
    )

    @OptionGroup var options: ObjectCommandOptions

    @Option(help: ArgumentHelp("The link to save (https://…, mailto:…, tel:…).", valueName: "url"))
    var uri: String?

    @Option(help: ArgumentHelp("Text to save (after the link when both are given).", valueName: "text"))
    var text: String?

    @Option(name: .customLong("text-language"), help: ArgumentHelp("The language of --text (an IANA tag).", valueName: "tag"))
    var textLanguage = "en"

    @Option(help: ArgumentHelp("Write this message file as it is (- for standard input).", valueName: "file"))
    var ndef: String?

    @Flag(help: "Prepare a blank object first (never done without asking).")
    var format = false

    @OptionGroup var password: PasswordOption

    @Option(parsing: .unconditional, help: ArgumentHelp("Write this many objects, one after another.", valueName: "n"))
    var count = 1

    func validate() throws {
        if ndef != nil && (uri != nil || text != nil) { throw ValidationError("--ndef writes a whole message: give it alone, without --uri or --text") }
        if ndef == nil && uri == nil && text == nil { throw ValidationError("say what to write: --uri URL, --text TEXT or --ndef FILE") }
        if count < 1 { throw ValidationError("--count needs 1 or more") }
    }

    /// What to write, checked as nfcscand checks a write session's (``WriteInput``).
    func objectWrite() throws(CommandFailure) -> ObjectWrite {
        let options = WriteOptions(formatIfBlank: format, password: password.bytes)
        if let ndef {
            let bytes = try InputSource.read(path: ndef)
            do { return try WriteInput.message(bytes, options: options) } catch {
                let problem = switch error {
                case .empty: "is empty"
                case .tooLong(let limit): "is larger than any object holds (\(bytes.count) bytes; at most \(limit))"
                default: error.requirement
                }
                throw CommandFailure(message: "\(ndef) \(problem)", status: ExitStatus.dataError)
            }
        }
        let link = try Self.checked("--uri", uri, WriteInput.link)
        let text = try Self.checked("--text", text, WriteInput.text)
        let language = try Self.checked("--text-language", textLanguage, WriteInput.language) ?? textLanguage
        guard let write = ObjectWrite.records(link: link, text: text, language: language, options: options) else {
            throw CommandFailure(message: "say what to write: --uri URL, --text TEXT or --ndef FILE", status: ExitStatus.usage)
        }
        return write
    }

    /// One of ``WriteInput``'s checks on an option's value (nil when not given), its fault named by the option.
    private static func checked(_ option: String, _ value: String?, _ check: (String) throws(WriteInputFault) -> String) throws(CommandFailure) -> String? {
        guard let value else { return nil }
        do { return try check(value) } catch { throw CommandFailure(message: "\(option) \(error.requirement)", status: ExitStatus.usage) }
    }

    func run() async throws {
        let write: ObjectWrite
        do { write = try objectWrite() } catch {
            printError("nfcscan: \(error.message)")
            throw error.status
        }
        try await ObjectChange(options: options, job: .write(write), count: count).run()
    }
}

/// `nfcscan erase`: leave the object holding an empty message.
struct EraseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase",
        abstract: "Erase what an object held near a reader holds.",
        discussion: """
            The object keeps its layout and holds an empty message afterwards, so it can be \
            written again; a locked object is left as it is. Like `nfcscan write`, the erase \
            never leaves the object half-written and is read back before it is reported done.

            Example:
              nfcscan erase --object badge

            Exit status: \(ExitStatus.eraseSummary)
            """
    )

    @OptionGroup var options: ObjectCommandOptions

    @OptionGroup var password: PasswordOption

    func run() async throws {
        try await ObjectChange(options: options, job: .write(.erase(options: WriteOptions(password: password.bytes)))).run()
    }
}
