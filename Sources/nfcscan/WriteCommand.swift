import ArgumentParser
import CommandLineIO
import NDEF
import NDEFReport
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

    @Option(help: ArgumentHelp("The object's password, when one protects it.", valueName: "8 hex digits"))
    var password: ObjectPassword?

    @Option(help: ArgumentHelp("Write this many objects, one after another.", valueName: "n"))
    var count = 1

    /// Far more than any object holds; a larger message is refused before any reader opens.
    static let maxMessageBytes = 64 << 10

    func validate() throws {
        if ndef != nil && (uri != nil || text != nil) { throw ValidationError("--ndef writes a whole message: give it alone, without --uri or --text") }
        if ndef == nil && uri == nil && text == nil { throw ValidationError("say what to write: --uri URL, --text TEXT or --ndef FILE") }
        if let uri, uri.isEmpty || uri.utf8.count > Self.maxMessageBytes { throw ValidationError("--uri needs a link") }
        if let text, text.utf8.count > Self.maxMessageBytes { throw ValidationError("--text is longer than any object holds") }
        if textLanguage.isEmpty || textLanguage.utf8.count > 63 || !textLanguage.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }) {
            throw ValidationError("--text-language needs a language tag, such as en or zh-Hans")
        }
        if count < 1 { throw ValidationError("--count needs 1 or more") }
    }

    /// What to write, checked.
    func objectWrite() throws(CommandFailure) -> ObjectWrite {
        let options = WriteOptions(formatIfBlank: format, password: password?.bytes)
        if let ndef {
            let bytes = try InputSource.read(path: ndef)
            guard bytes.count <= Self.maxMessageBytes else {
                throw CommandFailure(message: "\(ndef) is larger than any object holds (\(bytes.count) bytes)", status: ExitStatus.dataError)
            }
            guard let write = ObjectWrite.message(bytes, options: options) else {
                throw CommandFailure(message: "\(ndef) is not a valid message\(Self.decodingProblem(bytes))", status: ExitStatus.dataError)
            }
            return write
        }
        guard let write = ObjectWrite.records(link: uri, text: text, language: textLanguage, options: options) else {
            throw CommandFailure(message: "the text cannot be saved with --text-language \(textLanguage)", status: ExitStatus.usage)
        }
        return write
    }

    /// The codec's explanation of why `bytes` do not decode (developer-facing, with the offset).
    static func decodingProblem(_ bytes: [UInt8]) -> String {
        do { _ = try NDEFMessage(decoding: bytes); return "" } catch { return ": \(error)" }
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

            Exit status: \(ExitStatus.writeSummary)
            """
    )

    @OptionGroup var options: ObjectCommandOptions

    @Option(help: ArgumentHelp("The object's password, when one protects it.", valueName: "8 hex digits"))
    var password: ObjectPassword?

    func run() async throws {
        try await ObjectChange(options: options, job: .write(.erase(options: WriteOptions(password: password?.bytes)))).run()
    }
}
