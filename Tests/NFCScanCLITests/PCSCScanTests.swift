import Foundation
import NDEF
import NDEFReport
import NFCScanKit
import NFCSim
import Testing
import TestSupport

/// `nfcscan` reading through pcscd: the built binary as a child process with PCSCLITE_CSOCK_NAME
/// naming a private pcscd (the client library reads it once per process), and libnfc finding
/// nothing (no LIBNFC_DEVICE, LIBNFC_AUTO_SCAN=false).
@Suite(.serialized) struct PCSCScanTests {
    static let uid = "04a1b2c3d4e5f6"
    /// The message written to the object: a link, then a text.
    static func message() throws -> NDEFMessage {
        NDEFMessage(URIRecord(uri: "https://example.com/poster").record(), try TextRecord(text: "Summer concert in the park").record())
    }

    /// A socket where no pcscd listens.
    static var noPCSCD: String { "/nonexistent/nfcscan-\(UUID().uuidString)/pcscd.comm" }

    /// Runs the built nfcscan with only PC/SC able to find a reader (libnfc is given no device).
    static func nfcscan(_ arguments: [String], socket: String, timeout: Double = 20) throws -> RunResult {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "LIBNFC_DEVICE")
        environment["LIBNFC_AUTO_SCAN"] = "false"
        environment["PCSCLITE_CSOCK_NAME"] = socket
        // A direct scan: no nfcscand on a bus to scan through, whatever runs on this desktop.
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/nfcscan-tests/bus"
        return try ScanCLI.run(arguments, environment: environment, timeout: timeout)
    }

    /// The message as an NDEF file for `nfcsim vpcd --ndef`.
    static func messageFile() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nfcscan-pcsc-\(UUID().uuidString).ndef")
        try Data(try message().encoded()).write(to: url)
        return url
    }

    /// What `--json` prints for the message's records (what `nfcscan decode --json` prints for
    /// the same bytes), without the closing brace: "object" follows.
    static func expectedRecordsPrefix() throws -> String {
        let parsed = try NDEFParser().parse(try message().encoded())
        let document = JSONWriter.string(MessageReport().report(parsed.message, layouts: parsed.layouts))
        #expect(document.hasSuffix("}"))
        return String(document.dropLast()) + #","object":"#
    }

    /// Scans one object of `type` holding the message from the private pcscd; returns the JSON
    /// document's "object".
    func scanOne(type: String) throws -> [String: Any] {
        let file = try Self.messageFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let pcscd = try PrivatePCSCD(nfcsim: ["--type", type, "--ndef", file.path, "--uid", Self.uid, "--after", "1", "--for", "15"])
        defer { pcscd.stop() }
        let r = try Self.nfcscan(["--json", "--timeout", "10"], socket: pcscd.socket)
        #expect(!r.timedOut)
        #expect(r.status == 0, "\(r.stderr)\n\(pcscd.log)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 1, "\(r.stdout)")
        // The records are exactly the message written.
        #expect(r.stdout.hasPrefix(try Self.expectedRecordsPrefix()), "\(r.stdout)")
        let document = try ScanCommandTests.json(try #require(lines.first, "\(r.stderr)\n\(pcscd.log)"))
        let records = try #require(document["records"] as? [[String: Any]])
        #expect(records.count == 2)
        #expect(records.first?["uri"] as? String == "https://example.com/poster")
        #expect(records.last?["text"] as? String == "Summer concert in the park")
        let object = try #require(document["object"] as? [String: Any])
        #expect(object["backend"] as? String == "pcsc")
        #expect(object["reader"] as? String == "nfcsim 00 00")
        print("nfcscan --json through pcscd (\(type)): \(r.stdout)", terminator: "")
        return object
    }

    @Test func anNTAG215IsReadThroughPCSCD() throws {
        let object = try scanOne(type: "ntag215")
        #expect(object["uid"] as? String == Self.uid)
        #expect(object["platform"] as? String == "type2")
        // The technology in the vocabulary libnfc's objects use (a storage card of ISO 14443 A part
        // 3), and the ATR PC/SC built for it (standard 03, card name 00 03: Ultralight).
        #expect(object["technology"] as? String == "iso14443a", "\(object)")
        #expect((object["atr"] as? String)?.hasPrefix("3b8f8001804f0ca0000003060300030000") == true, "\(object)")
        #expect(object["capacity"] as? Int == 492, "the largest message, as nfcscan info says")
    }

    @Test func aType4ObjectIsReadThroughPCSCD() throws {
        let object = try scanOne(type: "type4")
        #expect(object["platform"] as? String == "type4")
        #expect(object["technology"] as? String == "iso14443-4", "ISO-DEP, type A or B not said: \(object)")
    }

    /// Hotplug (issue 3): nfcscan starts with no pcscd at all (its socket's directory does not
    /// exist yet), then pcscd starts with the vpcd reader holding an object; nfcscan notices
    /// pcscd (its bounded 2 s re-try), opens the reader and reads the object.
    @Test func aReaderThatAppearsWhileWaitingIsUsed() throws {
        let file = try Self.messageFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("nfcscan-hotplug-\(UUID().uuidString)")
        let socket = link.appendingPathComponent("pcscd.comm").path
        #expect(!FileManager.default.fileExists(atPath: link.path))
        final class Outcome: @unchecked Sendable { var result: Result<RunResult, any Error>? }
        let outcome = Outcome(), done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            outcome.result = Result { try Self.nfcscan(["--json", "--timeout", "20", "--verbose"], socket: socket, timeout: 30) }
            done.signal()
        }
        Thread.sleep(forTimeInterval: 2)  // nfcscan has found no reader and waits
        let pcscd = try PrivatePCSCD(nfcsim: ["--type", "ntag215", "--ndef", file.path, "--uid", Self.uid, "--after", "1", "--for", "20"])
        defer { pcscd.stop() }
        // The socket appears at the path nfcscan was given: its directory, linked to pcscd's.
        try FileManager.default.createSymbolicLink(atPath: link.path,
                                                   withDestinationPath: URL(fileURLWithPath: pcscd.socket).deletingLastPathComponent().path)
        defer { try? FileManager.default.removeItem(at: link) }
        #expect(done.wait(timeout: .now() + 35) == .success)
        let r = try #require(try outcome.result?.get())
        #expect(!r.timedOut)
        #expect(r.status == 0, "\(r.stderr)\n\(pcscd.log)")
        #expect(r.stderr.contains("waiting for a reader to appear"), "\(r.stderr)")
        #expect(r.stderr.contains("using pcsc reader nfcsim 00 00 (it appeared)"), "\(r.stderr)")
        let document = try ScanCommandTests.json(try #require(r.stdout.split(separator: "\n").first, "\(r.stderr)\n\(pcscd.log)"))
        let object = try #require(document["object"] as? [String: Any])
        #expect(object["backend"] as? String == "pcsc")
        #expect(object["uid"] as? String == Self.uid)
        #expect((document["records"] as? [[String: Any]])?.first?["uri"] as? String == "https://example.com/poster")
    }

    @Test func readersListsTheVPCDReaderWithBackendPCSC() throws {
        let pcscd = try PrivatePCSCD(nfcsim: ["--uri", "https://example.com", "--for", "15"])
        defer { pcscd.stop() }
        let r = try Self.nfcscan(["readers"], socket: pcscd.socket)
        #expect(!r.timedOut)
        #expect(r.status == 0, "\(r.stderr)\n\(pcscd.log)")
        #expect(r.stdout.split(separator: "\n").contains("pcsc\tready\tnfcsim 00 00"), "\(r.stdout)")
        print("nfcscan readers through pcscd:\n\(r.stdout)", terminator: "")
        // --json (checked against readers.schema.json by the helper): the same, with codes.
        let json = try Self.nfcscan(["readers", "--json"], socket: pcscd.socket)
        #expect(json.status == 0)
        let readers = try #require(try ScanCommandTests.json(Substring(json.stdout))["readers"] as? [[String: Any]])
        #expect(readers.contains { $0["backend"] as? String == "pcsc" && $0["status"] as? String == "ready" && $0["name"] as? String == "nfcsim 00 00" },
                "\(json.stdout)")
    }

    @Test func noPCSCDAndNoLibnfcDeviceExits69() throws {
        let socket = Self.noPCSCD
        let r = try Self.nfcscan(["--timeout", "5"], socket: socket)
        #expect(!r.timedOut)
        #expect(r.status == 69)
        #expect(r.stderr == "Connect a reader to scan the item.\nNo reader was found. Connect one and try again.\n"
                + "To connect one, see “man nfcscan” (READERS).\n", "pcscd's absence adds nothing without --verbose")
        let verbose = try Self.nfcscan(["--timeout", "5", "--verbose"], socket: socket)
        #expect(verbose.status == 69)
        #expect(verbose.stderr.contains("libnfc listed no device") && verbose.stderr.contains("pcscd is not running (no socket at \(socket))"),
                "--verbose names what both backends found: \(verbose.stderr)")
        let readers = try Self.nfcscan(["readers"], socket: socket)
        #expect(readers.status == 69)
        #expect(readers.stdout == "")
        let readersVerbose = try Self.nfcscan(["readers", "--verbose"], socket: socket)
        #expect(readersVerbose.status == 69)
        #expect(readersVerbose.stderr.contains("libnfc listed no device") && readersVerbose.stderr.contains("pcscd is not running"),
                "\(readersVerbose.stderr)")
    }

    /// `LIBNFC_DEVICE=` (set to nothing) names no reader: nfcscan waits for one as when it is
    /// unset, never stops at once trying to open a device called "".
    @Test func anEmptyLibnfcDeviceIsNoDevice() throws {
        let started = ContinuousClock.now
        let r = try ScanCLI.run(["--timeout", "2", "--verbose"], connstring: "")
        #expect(r.status == 69, "\(r.stderr)")
        #expect(ContinuousClock.now - started >= .seconds(2), "it waited for a reader to appear")
        #expect(r.stderr.contains("Connect a reader to scan the item.\n"), "\(r.stderr)")
        #expect(r.stderr.contains("libnfc listed no device") && !r.stderr.contains("could not open"), "\(r.stderr)")
        let readers = try ScanCLI.run(["readers"], connstring: "")
        #expect(readers.status == 69 && readers.stdout == "", "\(readers.stdout)\(readers.stderr)")
    }

    @Test func noPCSCDLeavesALibnfcReaderWorkingAndIsMentionedOnlyWithVerbose() throws {
        let socket = Self.noPCSCD
        let r = try ScanCommandTests.withEmulator(PN532Emulator(target: ScanCommandTests.poster().pn532Target)) {
            try ScanCLI.run(["--json", "--timeout", "10", "--verbose"], connstring: $0, environment: ["PCSCLITE_CSOCK_NAME": socket])
        }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("nfcscan: pcscd is not running (no socket at \(socket))"), "\(r.stderr)")
        #expect(r.stdout.contains(#""backend":"libnfc""#))
        let quiet = try ScanCommandTests.withEmulator(PN532Emulator(target: nil)) {
            try ScanCLI.run(["readers"], connstring: $0, environment: ["PCSCLITE_CSOCK_NAME": socket])
        }
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stderr == "")
        #expect(quiet.stdout.hasPrefix("libnfc\tready\t"))
    }
}
