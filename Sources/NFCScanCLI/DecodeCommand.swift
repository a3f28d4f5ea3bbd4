import ArgumentParser
import NDEF
import NDEFReport

struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode message bytes and show what they hold.",
        discussion: """
            Reads one NDEF message from FILE, or from standard input when FILE is omitted or `-`. \
            The bytes are raw binary unless --hex is given.

            Decoding is strict: a message whose framing breaks the NDEF specification is reported \
            with the byte offset where it was found, and nothing is printed. --lenient shows every \
            complete record it can recover instead, and warns about the rest. A record whose \
            payload does not fit its type (a vCard that is not UTF-8) never hides the others: it \
            is shown raw, marked "cannot be decoded" (`error` in --json), in either mode.

            Examples:
              nfcscan decode poster.ndef
              echo 'd1010c55036578616d706c652e636f6d' | nfcscan decode --hex
              nfcscan decode --json --hex dump.txt | jq '.records[].uri'

            --json prints the fields described in Docs/json-schema.md.

            Exit status: \(ExitStatus.summary)
            """
    )

    @Argument(help: ArgumentHelp("File holding the message bytes (default: standard input).", valueName: "file"))
    var file: String?

    @Flag(help: "The input is hex text (whitespace, ':' and '-' between bytes are ignored).")
    var hex = false

    @Flag(help: "Print one JSON document instead of a summary.")
    var json = false

    @Flag(help: "Recover what can be recovered from a malformed message, and warn about the rest.")
    var lenient = false

    func run() throws {
        do {
            try decode()
        } catch let failure {
            printError("nfcscan: \(failure.message)")
            throw failure.status
        }
    }

    private func decode() throws(CommandFailure) {
        var bytes = try InputSource.read(path: file)
        if hex {
            switch Hex.decode(String(decoding: bytes, as: UTF8.self)) {
            case .success(let decoded): bytes = decoded
            case .failure(let error): throw CommandFailure(message: "input is not hex: \(error)", status: ExitStatus.dataError)
            }
        }
        let parsed: NDEFParser.Result
        do {
            parsed = try NDEFParser(mode: lenient ? .lenient : .strict).parse(bytes)
        } catch {
            // Hex text given as bytes fails on its first character: say what was meant.
            let looksLikeHex = !hex && (try? Hex.decode(String(decoding: bytes, as: UTF8.self)).get())?.isEmpty == false
            throw CommandFailure(message: "invalid message: \(error)" + (looksLikeHex ? " (the input looks like hex text: add --hex)" : ""),
                                 status: ExitStatus.dataError)
        }
        let report = MessageReport().report(parsed.message, layouts: parsed.layouts)
        for issue in parsed.issues { printError("nfcscan: warning: \(issue)") }
        if json {
            print(JSONWriter.string(report))
        } else {
            print(MessageSummary.lines(for: report, byteCount: bytes.count).joined(separator: "\n"))
        }
    }
}
