#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import NFCCopy
import NFCObjects
import NFCScanKit
import NFCTags

/// `nfcscan lock --permanent`: make the object read-only for good.
struct LockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Lock an object held near a reader so what it holds can never change.",
        discussion: """
            Locking cannot be undone: the object keeps what it holds now, for good. nfcscan \
            locks only an object whose message reads back whole, only with --permanent, and on a \
            terminal asks first (--yes skips the question; without a terminal --permanent is the \
            consent). Write and check the message first (`nfcscan write`, then `nfcscan`).

            Example:
              nfcscan write --uri https://example.com/exhibit/12 --object label && \\
                nfcscan lock --permanent --object label

            Exit status: 0 success, 1 the question was answered no; \(ExitStatus.lockSummary)
            """
    )

    @OptionGroup var options: ObjectCommandOptions

    @Flag(help: "Confirm that the lock is meant to last for good (required).")
    var permanent = false

    @Flag(help: "Do not ask on a terminal.")
    var yes = false

    @OptionGroup var password: PasswordOption

    func validate() throws {
        if !permanent { throw ValidationError("locking cannot be undone: add --permanent to lock the object for good") }
    }

    func run() async throws {
        let copy = ScanCopy.writeCatalog(for: .preferred(), object: options.object)
        if !yes, isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 {
            printError("\(copy.lockQuestion) [y/N]")
            guard let answer = readLine(strippingNewline: true)?.lowercased(), ["y", "yes"].contains(answer) else {
                printError(copy.writeEnded(.canceled, .lock))
                throw ExitCode.failure
            }
        }
        let lock = ObjectWrite(message: nil, options: WriteOptions(password: password.bytes), lock: true, action: .lock)
        try await ObjectChange(options: options, job: .write(lock)).run()
    }
}
