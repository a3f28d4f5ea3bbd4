import Foundation
import NDEF
import Testing
import TestSupport

/// Runs the built `nfcscan` binary as a user would (NFCSCAN_BIN overrides where it is), bounded
/// in time.
enum CLI {
    /// What it prints with --json follows its schema.
    static func run(_ arguments: [String], stdin: [UInt8] = []) throws -> RunResult {
        try JSONSchemaCheck.checked(BoundedProcess.run(Repository.nfcscan, arguments, input: stdin, timeout: 20), arguments: arguments)
    }

    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nfcscan-test-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        return url.path
    }
}

@Suite(.serialized) struct DecodeCommandTests {
    let uri = "d1010c55036578616d706c652e636f6d"

    @Test func jsonFromHexOnStandardInput() throws {
        let r = try CLI.run(["decode", "--hex", "--json"], stdin: Array(uri.utf8))
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == #"{"records":[{"tnf":"well-known","type":"U","id":"","payload":"036578616d706c652e636f6d","kind":"uri","uri":"http://example.com","prefix_code":3}]}"# + "\n")
    }

    @Test func summaryFromABinaryFile() throws {
        let message = try NDEFMessage(URIRecord(uri: "https://example.com/poster").record(), TextRecord(text: "Summer concert").record())
        let path = try CLI.temporaryFile(message.encoded())
        let r = try CLI.run(["decode", path])
        #expect(r.status == 0)
        #expect(r.stdout.contains("2 records"))
        #expect(r.stdout.contains("Link: https://example.com/poster"))
        #expect(r.stdout.contains("Text (en): Summer concert"))
    }

    @Test func malformedDataExits65WithOneLineNamingTheOffset() throws {
        let r = try CLI.run(["decode", "--hex"], stdin: Array("d1010c55036578".utf8))
        #expect(r.status == 65)
        #expect(r.stdout == "")
        #expect(r.stderr == "nfcscan: invalid message: payload of 12 bytes runs past the end of the input (3 left) at byte 4\n")
    }

    @Test func notHexExits65() throws {
        let r = try CLI.run(["decode", "--hex"], stdin: Array("d1 0g".utf8))
        #expect(r.status == 65)
        #expect(r.stderr.contains("not a hex digit at character 4"))
    }

    @Test func unreadableFileExits66() throws {
        let r = try CLI.run(["decode", "/nonexistent/poster.ndef"])
        #expect(r.status == 66)
        #expect(r.stderr.contains("cannot open /nonexistent/poster.ndef: No such file or directory"))
    }

    @Test func usageErrorExits64() throws {
        #expect(try CLI.run(["decode", "--no-such-flag"]).status == 64)
    }

    @Test func lenientRecoversAndWarns() throws {
        let r = try CLI.run(["decode", "--hex", "--lenient", "--json"], stdin: Array("91010c55036578616d706c652e636f6d 5101".utf8))
        #expect(r.status == 0)
        #expect(r.stdout.contains(#""uri":"http://example.com""#))
        #expect(r.stderr.contains("nfcscan: warning: input ends inside the payload length at byte 18"))
    }

    /// Issue 12: a vCard that is not UTF-8 hid the whole message (exit 65, nothing printed). It
    /// marks its own record, strict or lenient; the other records are printed.
    @Test(arguments: [[], ["--lenient"]])
    func aBadPayloadMarksItsRecordAndHidesNothing(mode: [String]) throws {
        let card = Array("BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Jos".utf8) + [0xE9] + Array("\r\nEND:VCARD\r\n".utf8)
        let message = try NDEFMessage(URIRecord(uri: "https://example.com/poster").record(),
                                      NDEFRecord(tnf: .media, type: "text/vcard", payload: card),
                                      TextRecord(text: "Summer concert").record())
        let json = try CLI.run(["decode", "--json"] + mode, stdin: message.encoded())
        #expect(json.status == 0)
        #expect(json.stderr == "")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let records = try #require(document["records"] as? [[String: Any]])
        #expect(records.count == 3)
        #expect(records[0]["uri"] as? String == "https://example.com/poster")
        #expect(records[1]["kind"] == nil)
        #expect(records[1]["mime_type"] as? String == "text/vcard")
        #expect((records[1]["error"] as? String)?.contains("UTF-8") == true)
        #expect(records[2]["text"] as? String == "Summer concert")

        let summary = try CLI.run(["decode"] + mode, stdin: message.encoded())
        #expect(summary.status == 0)
        #expect(summary.stdout.contains("Link: https://example.com/poster"))
        #expect(summary.stdout.contains("cannot be decoded"))
        #expect(summary.stdout.contains("Text (en): Summer concert"))
    }

    @Test func hostileTextCannotReachTheTerminal() throws {
        let text = try TextRecord(text: "hi\u{1B}]0;pwned\u{7}\u{1B}[2J\u{202E}gnp.exe").record()
        let bytes = NDEFMessage(text).encoded()
        for arguments in [["decode"], ["decode", "--json"]] {
            let r = try CLI.run(arguments, stdin: bytes)
            #expect(r.status == 0)
            #expect(!r.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\u{202E}" })
        }
        #expect(try CLI.run(["decode"], stdin: bytes).stdout.contains(#"hi\u{1b}]0;pwned\u{7}\u{1b}[2J\u{202e}gnp.exe"#))
    }

    @Test func helpTeachesWithExamplesAndExitStatuses() throws {
        let r = try CLI.run(["decode", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Examples:"))
        #expect(r.stdout.contains("65 invalid data"))
    }
}

/// Issue 23: decoding hex text given as bytes says to add --hex; an odd number of digits before
/// a trailing newline is called what it is.
extension Result {
    fileprivate var failure: Failure? { if case .failure(let error) = self { error } else { nil } }
}

@Suite struct DecodeHintTests {
    @Test func hexTextWithoutHexSuggestsIt() throws {
        let r = try CLI.run(["decode"], stdin: Array("d1010c55036578616d706c652e636f6d\n".utf8))
        #expect(r.status == 65)
        #expect(r.stderr.hasSuffix("(the input looks like hex text: add --hex)\n"), "\(r.stderr)")
        let binary = try CLI.run(["decode"], stdin: [0xD1, 0x01])
        #expect(!binary.stderr.contains("--hex"), "bytes that are not hex text get no such hint")
    }

    @Test func anOddNumberOfDigitsBeforeATrailingNewline() throws {
        let r = try CLI.run(["decode", "--hex"], stdin: Array("d1010c5503657\n".utf8))
        #expect(r.status == 65)
        #expect(r.stderr == "nfcscan: input is not hex: odd number of hex digits at character 13\n")
        #expect("\(try #require(Hex.decode("d1 0 1").failure))" == "separator inside a byte at character 4")
        #expect(Hex.decode("d1 01\r\n") == .success([0xD1, 0x01]))
    }
}
