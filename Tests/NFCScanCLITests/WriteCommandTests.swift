import Foundation
import NDEF
import NFCCopy
import NFCObjects
import NFCScanKit
import NFCSim
import NFCTags
import Testing
import TestSupport

/// `nfcscan write|erase|lock|info` through the real libnfc against the emulated PN532: what was
/// written is what a later `nfcscan --json` (a separate process) reads from the same object.
@Suite(.serialized) struct WriteCommandTests {
    static func records(_ run: RunResult) throws -> [[String: Any]] {
        let document = try ScanCommandTests.json(try #require(run.stdout.split(separator: "\n").first))
        return try #require(document["records"] as? [[String: Any]])
    }

    @Test func aLinkAndTextAreSavedVerifiedAndReadBack() throws {
        try ScanCommandTests.withEmulator(PN532Emulator(target: ScanCommandTests.poster().pn532Target)) { connstring in
            let write = try ScanCLI.run(["write", "--uri", "https://example.com/menu", "--text", "Lunch", "--object", "poster",
                                         "--timeout", "10"], connstring: connstring)
            #expect(write.status == 0, "\(write.stderr)")
            #expect(write.stdout == "Saved. You can take the poster away.\n")
            let prompts = write.stderr.split(separator: "\n").map(String.init)
            #expect(prompts.first == "Hold the poster near the reader to save it.")
            #expect(prompts.contains("Saving to the poster. Keep it still."))
            for line in prompts { #expect(CopyRules.problems(in: line).isEmpty, "\(line)") }

            let records = try Self.records(try ScanCLI.run(["--json", "--timeout", "10"], connstring: connstring))
            #expect(records.count == 2)
            #expect(records.first?["uri"] as? String == "https://example.com/menu")
            #expect(records.last?["text"] as? String == "Lunch")
        }
    }

    @Test func aMessageThatDoesNotFitIsRefusedAndTheOldOneStays() throws {
        let tag = try VirtualType2Tag(product: .ntag213, message: NDEFMessage(URIRecord(uri: "https://example.com/old").record()))
        try ScanCommandTests.withEmulator(PN532Emulator(target: tag.pn532Target)) { connstring in
            let long = "https://example.com/" + String(repeating: "a", count: 200)
            let write = try ScanCLI.run(["write", "--uri", long, "--json", "--timeout", "10"], connstring: connstring)
            #expect(write.status == 80, "\(write.stderr)")
            let report = try ScanCommandTests.json(try #require(write.stdout.split(separator: "\n").first))
            #expect(report["ending"] as? String == "too-large")
            #expect(write.stderr.contains("That's too much for the item to hold.\nThis needs 219 bytes; the item holds 144.\n"),
                    "says how much fits: \(write.stderr)")
            let records = try Self.records(try ScanCLI.run(["--json", "--timeout", "10"], connstring: connstring))
            #expect(records.first?["uri"] as? String == "https://example.com/old")
        }
    }

    /// The room a scan reports is the room `info` and a write find: after the TLVs the message
    /// must follow (here an NTAG203-style Lock Control TLV, 5 bytes), not the whole data area.
    @Test func aScanAndInfoAgreeOnRoomAfterAControlTLV() throws {
        let message = NDEFMessage(URIRecord(uri: "https://example.com/a").record()).encoded()
        let area = [0x01, 0x03, 0xA0, 0x10, 0x44, 0x03, UInt8(message.count)] + message + [0xFE]
        let tag = try VirtualType2Tag(product: .ntag213, dataArea: area)
        try ScanCommandTests.withEmulator(PN532Emulator(target: tag.pn532Target)) { connstring in
            let info = try ScanCLI.run(["info", "--json", "--timeout", "10"], connstring: connstring)
            let status = try ScanCommandTests.json(try #require(info.stdout.split(separator: "\n").first))
            // 144 data bytes, less the Lock Control TLV's 5 and the NDEF TLV's 2.
            #expect(status["capacity"] as? Int == 137, "\(info.stdout)\(info.stderr)")
            let read = try ScanCLI.run(["--json", "--timeout", "10"], connstring: connstring)
            let scanned = try ScanCommandTests.json(try #require(read.stdout.split(separator: "\n").first))
            #expect((scanned["object"] as? [String: Any])?["capacity"] as? Int == 137, "\(read.stdout)")
        }
    }

    @Test func eraseLeavesAnEmptyObjectAndInfoSaysHowMuchFits() throws {
        try ScanCommandTests.withEmulator(PN532Emulator(target: ScanCommandTests.poster().pn532Target)) { connstring in
            let before = try ScanCLI.run(["info", "--json", "--timeout", "10"], connstring: connstring)
            #expect(before.status == 0, "\(before.stderr)")
            let status = try ScanCommandTests.json(try #require(before.stdout.split(separator: "\n").first))
            #expect(status["formatted"] as? Bool == true)
            #expect(status["access"] as? String == "read-write")
            #expect(status["product"] as? String == "NTAG215")
            // NTAG215: 496 data bytes; the TLV takes 4 (3-byte length form).
            #expect(status["capacity"] as? Int == 492)
            #expect((status["used"] as? Int ?? 0) > 0)
            // The object as a scan's report names it (ObjectIdentity: one layout for every report).
            let object = try #require(status["object"] as? [String: Any])
            #expect(object["technology"] as? String == "iso14443a" && object["sak"] as? String == "00")
            #expect(object["platform"] as? String == "type2" && object["backend"] as? String == "libnfc")
            // A scan says the same capacity (it said the data area's 496).
            let read = try ScanCLI.run(["--json", "--timeout", "10"], connstring: connstring)
            let scanned = try ScanCommandTests.json(try #require(read.stdout.split(separator: "\n").first))
            #expect((scanned["object"] as? [String: Any])?["capacity"] as? Int == 492, "\(read.stdout)")

            let erase = try ScanCLI.run(["erase", "--object", "badge", "--timeout", "10"], connstring: connstring)
            #expect(erase.status == 0, "\(erase.stderr)")
            #expect(erase.stdout == "Erased. You can take the badge away.\n")
            let after = try ScanCLI.run(["info", "--object", "badge", "--timeout", "10"], connstring: connstring)
            // A made-up NTAG answers READ_SIG with zeros: not genuine, said last.
            #expect(after.stdout == "It holds 0 of 492 bytes.\nIt can be changed.\nThis badge's chip may not be genuine.\n", "\(after.stderr)")
            let scan = try ScanCLI.run(["--object", "badge", "--timeout", "10"], connstring: connstring)
            #expect(scan.status == 0)
            #expect(scan.stdout == "The badge holds nothing.\n")
        }
    }

    @Test func aBlankObjectIsNotWrittenWithoutFormat() throws {
        let blank = try VirtualType2Tag(product: .ntag213, image: Type2MemoryImage.make(product: .ntag213, uid: VirtualType2Tag.defaultUID,
                                                                                          dataArea: []).enumerated().map { $0.offset == 12 ? 0 : $0.element })
        try ScanCommandTests.withEmulator(PN532Emulator(target: blank.pn532Target)) { connstring in
            let info = try ScanCLI.run(["info", "--object", "label", "--timeout", "10"], connstring: connstring)
            #expect(info.stdout == "It is blank and needs preparing before saving.\nThis label's chip may not be genuine.\n", "\(info.stderr)")
            let write = try ScanCLI.run(["write", "--text", "Shelf 3", "--object", "label", "--timeout", "10"], connstring: connstring)
            #expect(write.status == 82, "\(write.stderr)")
            #expect(write.stderr.contains("The label is blank and needs preparing first.\nRun again with --format to prepare the label.\n"),
                    "says how: \(write.stderr)")
            // Issue 23: a blank object reads as holding nothing (before: exit 65).
            let scan = try ScanCLI.run(["--object", "label", "--timeout", "10"], connstring: connstring)
            #expect(scan.status == 0, "\(scan.stderr)")
            #expect(scan.stdout == "The label is blank: nothing was ever saved on it.\n")
            let json = try ScanCLI.run(["--json", "--timeout", "10"], connstring: connstring)
            #expect(json.status == 0, "\(json.stderr)")
            #expect(json.stdout.hasPrefix(#"{"records":[],"object":{"uid":"#), "\(json.stdout)")
            #expect(json.stdout.contains(#""platform":"type2","product":"NTAG213","capacity":0,"formatted":false,"#), "\(json.stdout)")
        }
    }

    /// `write --count 3` says which object it asks for.
    @Test func severalObjectsAreCountedInThePrompt() throws {
        let first = try ScanCommandTests.poster(uri: "https://example.com/one")
        let second = try ScanCommandTests.poster(uid: ScanCommandTests.otherUID, uri: "https://example.com/two")
        try ScanCommandTests.withEmulator(PN532Emulator(target: OneAfterAnother(first: first, second: second))) { connstring in
            let write = try ScanCLI.run(["write", "--uri", "https://example.com/new", "--object", "badge", "--count", "2",
                                         "--timeout", "10"], connstring: connstring)
            #expect(write.status == 0, "\(write.stderr)")
            let prompts = write.stderr.split(separator: "\n").map(String.init)
            #expect(prompts.first == "Hold the badge near the reader to save the link. (1 of 2)", "\(prompts)")
            #expect(prompts.contains("Now hold another badge near the reader. (2 of 2)"), "\(prompts)")
            #expect(write.stdout == "Saved. You can take the badge away.\nSaved. You can take the badge away.\n")
        }
    }

    @Test func usageMistakesAreCaughtBeforeAnyReaderOpens() throws {
        let environment = ["PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/nfcscan-tests/bus"]
        let nothing = try ScanCLI.run(["write"], environment: environment)
        #expect(nothing.status == 64)
        #expect(nothing.stderr.contains("say what to write"))
        let lock = try ScanCLI.run(["lock"], environment: environment)
        #expect(lock.status == 64)
        #expect(lock.stderr.contains("--permanent"))
        let password = try ScanCLI.run(["write", "--uri", "https://example.com", "--password", "12"], environment: environment)
        #expect(password.status == 64)
        // The same checks as a D-Bus write session's (WriteInput), named by the option.
        let escape = try ScanCLI.run(["write", "--uri", "https://example.com/\u{1B}[2J"], environment: environment)
        #expect(escape.status == 64)
        #expect(escape.stderr.contains("--uri must be one line without control characters"))
        let language = try ScanCLI.run(["write", "--text", "Hi", "--text-language", "en GB"], environment: environment)
        #expect(language.status == 64)
        #expect(language.stderr.contains("--text-language must be a language code"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nfcscan-write-\(getpid()).bin")
        try Data([0xD1, 0x01, 0x09, 0x55]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let broken = try ScanCLI.run(["write", "--ndef", file.path], environment: environment)
        #expect(broken.status == 65)
        #expect(broken.stderr.contains("is not a well-formed message"))
    }
}
