import Foundation
import NDEF
import NFCCopy
import NFCScanKit
import NFCSim
import NFCTags
import Synchronization
import Testing
import TestSupport

/// Runs the built `nfcscan` binary (NFCSCAN_BIN overrides where it is) with LIBNFC_DEVICE set,
/// bounded in time: a watchdog kills it by its PID. PC/SC finds no reader (PCSCLITE_CSOCK_NAME
/// names a socket where no pcscd listens) unless `environment` names one, so a pcscd on the
/// machine cannot change what these tests see.
enum ScanCLI {
    static var binary: String { Repository.nfcscan }

    static func run(_ arguments: [String], connstring: String, timeout: Double = 20, environment extra: [String: String] = [:]) throws -> RunResult {
        var environment = ProcessInfo.processInfo.environment
        environment["LIBNFC_DEVICE"] = connstring
        environment["LIBNFC_AUTO_SCAN"] = "false"
        environment.removeValue(forKey: "LIBNFC_LOG_LEVEL")
        environment["PCSCLITE_CSOCK_NAME"] = "/nonexistent/nfcscan-tests/pcscd.comm"
        // A direct scan: no nfcscand on a bus to scan through, whatever runs on this desktop.
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/nfcscan-tests/bus"
        environment.merge(extra) { $1 }
        return try run(arguments, environment: environment, timeout: timeout)
    }

    /// Runs nfcscan with exactly this environment; what it prints with --json follows its schema.
    static func run(_ arguments: [String], environment: [String: String], timeout: Double = 20) throws -> RunResult {
        try JSONSchemaCheck.checked(BoundedProcess.run(binary, arguments, environment: environment, timeout: timeout), arguments: arguments)
    }
}

/// Two objects, one after the other: the first leaves `stay` after it was first read, and the
/// second arrives `gap` later.
struct OneAfterAnother: PN532Target {
    var first: PN532VirtualObjectTarget<VirtualType2Tag>
    var second: PN532VirtualObjectTarget<VirtualType2Tag>
    var stay: Duration = .milliseconds(800)
    var gap: Duration = .milliseconds(500)
    private var firstRead: ContinuousClock.Instant?

    init(first: VirtualType2Tag, second: VirtualType2Tag) {
        self.first = first.pn532Target
        self.second = second.pn532Target
    }

    private enum Phase { case first, gap, second }
    private var phase: Phase {
        guard let firstRead else { return .first }
        let since = firstRead.duration(to: .now)
        return since < stay ? .first : since < stay + gap ? .gap : .second
    }

    var identity: PN532TargetIdentity { phase == .second ? second.identity : first.identity }
    var isPresent: Bool { phase != .gap }
    mutating func activate() -> Bool {
        switch phase {
        case .first: first.activate()
        case .gap: false
        case .second: second.activate()
        }
    }
    mutating func exchange(_ command: [UInt8]) -> PN532TargetReply {
        switch phase {
        case .first:
            if firstRead == nil { firstRead = .now }
            return first.exchange(command)
        case .gap: return .silence
        case .second: return second.exchange(command)
        }
    }
}

@Suite(.serialized) struct ScanCommandTests {
    static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
    static let otherUID: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]

    static func poster(uid: [UInt8] = uid, uri: String = "https://example.com/poster") throws -> VirtualType2Tag {
        try VirtualType2Tag(product: .ntag215, uid: uid,
                            message: NDEFMessage(URIRecord(uri: uri).record(), try TextRecord(text: "Summer concert").record()))
    }

    static func withEmulator<T>(_ emulator: PN532Emulator, _ body: (String) throws -> T) throws -> T {
        let emulated = try EmulatedPN532(emulator)
        defer { emulated.close() }
        return try body(emulated.connstring)
    }

    static func json(_ line: Substring) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func oneObjectIsDescribedForAPersonAndExits0() throws {
        let r = try Self.withEmulator(PN532Emulator(target: Self.poster().pn532Target)) {
            try ScanCLI.run(["--object", "poster", "--timeout", "10"], connstring: $0)
        }
        #expect(!r.timedOut)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "Link: https://example.com/poster\nText: Summer concert\n")
        let prompts = r.stderr.split(separator: "\n").map(String.init)
        #expect(prompts.first == "Hold the poster near the reader to learn more.")
        for line in prompts { #expect(CopyRules.problems(in: line).isEmpty, "\(line)") }
        for line in r.stdout.split(separator: "\n") { #expect(CopyRules.problems(in: String(line), isSentence: false).isEmpty, "\(line)") }
    }

    @Test func jsonHasTheDecodeSchemaAndTheObjectsIdentity() throws {
        let r = try Self.withEmulator(PN532Emulator(target: Self.poster().pn532Target)) {
            try ScanCLI.run(["--json", "--timeout", "10"], connstring: $0)
        }
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let document = try Self.json(try #require(lines.first))
        let records = try #require(document["records"] as? [[String: Any]])
        #expect(records.count == 2)
        #expect(records[0]["kind"] as? String == "uri")
        #expect(records[0]["uri"] as? String == "https://example.com/poster")
        #expect(records[0]["tnf"] as? String == "well-known")
        #expect(records[1]["text"] as? String == "Summer concert")
        let object = try #require(document["object"] as? [String: Any])
        #expect(object["uid"] as? String == "04a1b2c3d4e5f6")
        #expect(object["technology"] as? String == "iso14443a")
        #expect(object["platform"] as? String == "type2")
        #expect(object["product"] as? String == "NTAG215")
        #expect(object["backend"] as? String == "libnfc")
        #expect((object["reader"] as? String)?.contains("pn532_uart:") == true)
        // GET_VERSION, READ_SIG (an NTAG215 signs its UID), then the CC with the first 48 data
        // bytes, which hold the whole message.
        #expect(object["round_trips"] as? Int == 3)
        // The records are exactly what `nfcscan decode --json` prints for the same bytes.
        #expect(r.stdout.hasPrefix(#"{"records":[{"tnf":"well-known","type":"U","id":"","payload":"046578616d706c652e636f6d2f706f73746572","kind":"uri","uri":"https://example.com/poster","prefix_code":4},"#))
    }

    @Test func twoObjectsInSequenceWithTheLaterPrompt() throws {
        let target = OneAfterAnother(first: try Self.poster(), second: try Self.poster(uid: Self.otherUID, uri: "https://example.com/second"))
        let r = try Self.withEmulator(PN532Emulator(target: target)) {
            try ScanCLI.run(["--count", "2", "--object", "poster", "--json", "--timeout", "10"], connstring: $0, timeout: 30)
        }
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(r.stdout)")
        guard lines.count == 2 else { return }
        let uids = try lines.map { try (Self.json($0)["object"] as? [String: Any])?["uid"] as? String }
        #expect(uids == ["04a1b2c3d4e5f6", "04112233445566"])
        #expect(r.stderr.contains("Hold the poster near the reader to learn more.\n"))
        #expect(r.stderr.contains("Now hold another poster near the reader.\n"))
        #expect(r.stderr.range(of: "Hold the poster")!.lowerBound < r.stderr.range(of: "Now hold another")!.lowerBound)
    }

    @Test func anObjectLeftOnTheReaderIsReadOnce() throws {
        let r = try Self.withEmulator(PN532Emulator(target: Self.poster().pn532Target)) {
            try ScanCLI.run(["--count", "2", "--timeout", "2"], connstring: $0)
        }
        #expect(r.status == 75, "\(r.stderr)")
        #expect(r.stdout == "Link: https://example.com/poster\nText: Summer concert\n")
        #expect(r.stderr.contains("Now hold another item near the reader."))
    }

    @Test func noObjectBeforeTheTimeoutExits75() throws {
        let start = ContinuousClock.now
        let r = try Self.withEmulator(PN532Emulator(target: nil)) {
            try ScanCLI.run(["--object", "badge", "--timeout", "1.5"], connstring: $0)
        }
        #expect(r.status == 75)
        #expect(r.stdout == "")
        #expect(r.stderr == "Hold the badge near the reader to learn more.\nNo badge came near the reader in time. Try again.\n")
        #expect(start.duration(to: .now) < .seconds(6))
    }

    /// With --json a failed scan ends as `nfcscan write --json` does: an ending on standard output
    /// (Docs/schemas/ending.schema.json; ScanCLI checks it against scan.schema.json), not nothing.
    @Test func aFailedScanWithJSONPrintsItsEnding() throws {
        let r = try Self.withEmulator(PN532Emulator(target: nil)) {
            try ScanCLI.run(["--json", "--timeout", "1"], connstring: $0)
        }
        #expect(r.status == 75)
        let ending = try Self.json(try #require(r.stdout.split(separator: "\n").first))
        #expect(ending["ending"] as? String == "timeout" && ending["error"] as? String == "no object arrived in time", "\(r.stdout)")
    }

    @Test func noReaderExits69WithAPersonSentence() throws {
        let missing = "pn532_uart:/nonexistent/nfcscan-\(UUID().uuidString)"
        let r = try ScanCLI.run(["--timeout", "5"], connstring: missing)
        #expect(r.status == 69)
        // While waiting for a reader to appear it asks for one; when the time is up, it says none came.
        #expect(r.stderr == "Connect a reader to scan the item.\nNo reader was found. Connect one and try again.\n"
                + "To connect one, see “man nfcscan” (READERS).\n")
        for line in r.stderr.split(separator: "\n") { #expect(CopyRules.problems(in: String(line)).isEmpty) }
        let verbose = try ScanCLI.run(["--timeout", "5", "--verbose"], connstring: missing)
        #expect(verbose.status == 69)
        #expect(verbose.stderr.contains("LIBNFC_DEVICE"), "--verbose adds the technical cause")
        let readers = try ScanCLI.run(["readers"], connstring: missing)
        #expect(readers.status == 69)
    }

    /// Issue 23: a reader connected after the scan started is used (its device node followed),
    /// within a second of its node appearing.
    @Test func aReaderConnectedAfterTheStartIsUsed() throws {
        let directory = NSTemporaryDirectory() + "nfcscan-hotplug-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/pn532"
        let connected = Mutex<ContinuousClock.Instant?>(nil)
        let r = try Self.withEmulator(PN532Emulator(target: Self.poster().pn532Target)) { pty in
            // The reader "is plugged in": its node appears where libnfc's configuration names it.
            DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
                try? FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: String(pty.dropFirst("pn532_uart:".count)))
                connected.withLock { $0 = .now }
            }
            return try ScanCLI.run(["--object", "poster", "--timeout", "15"], connstring: "pn532_uart:\(link)")
        }
        let took = try #require(connected.withLock { $0 }).duration(to: .now)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("example.com/poster"), "\(r.stdout)")
        #expect(r.stderr.hasPrefix("Connect a reader to scan the poster.\nHold the poster near the reader"), "\(r.stderr)")
        // Picked up, read and ended: well under the 15 s it would otherwise wait.
        #expect(took < .seconds(2), "\(took) from the node appearing to the end")
    }

    @Test func anObjectMovedAwayMidReadExits74() throws {
        let long = try VirtualType2Tag(product: .ntag216, uid: Self.uid,
                                       message: NDEFMessage(try TextRecord(text: String(repeating: "Summer concert. ", count: 50)).record()))
        let r = try Self.withEmulator(PN532Emulator(target: LeavesAfter(inner: long.pn532Target, exchanges: 2))) {
            try ScanCLI.run(["--object", "poster", "--timeout", "10"], connstring: $0)
        }
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stdout == "", "never a partial message")
        #expect(r.stderr.hasSuffix("The poster moved away too soon. Hold it longer.\n"), "\(r.stderr)")
    }

    @Test func readersListsTheEmulatedReader() throws {
        let r = try Self.withEmulator(PN532Emulator(target: nil)) { try ScanCLI.run(["readers"], connstring: $0) }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("libnfc\tready\t"))
        #expect(r.stdout.contains("pn532_uart:"))
    }

    @Test func hostileTextIsNeutralisedInTheOutput() throws {
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{202E}txt.exe\u{2066}"
        let tag = try VirtualType2Tag(product: .ntag215, uid: Self.uid, message: NDEFMessage(try TextRecord(text: hostile).record()))
        let r = try Self.withEmulator(PN532Emulator(target: tag.pn532Target)) {
            try ScanCLI.run(["--timeout", "10"], connstring: $0)
        }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E || $0.value == 0x2066 })
        #expect(r.stdout == "Text: \\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{202e}txt.exe\\u{2066}\n")
        let json = try Self.withEmulator(PN532Emulator(target: tag.pn532Target)) {
            try ScanCLI.run(["--json", "--timeout", "10"], connstring: $0)
        }
        #expect(json.status == 0)
        #expect(!json.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
        #expect(json.stdout.contains(#"\u001b]0;pwned"#))
    }
}
