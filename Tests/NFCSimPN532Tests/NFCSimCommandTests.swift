import Foundation
import Testing
import TestSupport

/// Runs the built `nfcsim` binary as a user would. NFCSIM_BIN overrides where it is.
final class NFCSimProcess: @unchecked Sendable {
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["NFCSIM_BIN"] { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/nfcsim").path
    }

    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private let exited = DispatchSemaphore(value: 0)

    init(_ arguments: [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(Self.binary) (build it with swift build)"])
        }
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
    }

    /// Reads standard output up to the line starting with `prefix`; a watchdog kills the process
    /// (ending the output) if it does not come within `timeout` seconds.
    func line(startingWith prefix: String, timeout: Double = 10) -> String? {
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        var text = ""
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            text += String(decoding: chunk, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
        }
    }

    /// Sends `signal` and waits (bounded) for the exit status; SIGKILL if it does not stop.
    func stop(with signal: Int32 = SIGTERM, timeout: Double = 5) -> (status: Int32, stderr: String) {
        kill(process.processIdentifier, signal)
        return waitForExit(timeout: timeout)
    }

    func waitForExit(timeout: Double) -> (status: Int32, stderr: String) {
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            Issue.record("nfcsim did not stop within \(timeout) s")
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, err)
    }
}

@Suite(.serialized) struct NFCSimCommandTests {
    @Test func pn532ServesLibnfcThroughTheLinkAndStopsOnSIGTERM() throws {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("nfcsim-pn532-\(UUID().uuidString)").path
        let sim = try NFCSimProcess(["pn532", "--uri", "https://example.com/poster", "--uid", "04a1b2c3d4e5f6", "--link", link])
        guard let device = sim.line(startingWith: "LIBNFC_DEVICE=") else {
            let (_, err) = sim.stop(with: SIGKILL)
            Issue.record("nfcsim printed no connstring: \(err)")
            return
        }
        #expect(device == "LIBNFC_DEVICE=pn532_uart:\(link)")
        let connstring = String(device.dropFirst("LIBNFC_DEVICE=".count))
        let result = try LibNFCTool.run("nfc-list", [], connstring: connstring)
        #expect(result.output.contains("UID (NFCID1): 04  a1  b2  c3  d4  e5  f6"), "\(result.output)")
        let (status, err) = sim.stop()
        #expect(status == 0, "\(err)")
        #expect(!FileManager.default.fileExists(atPath: link), "the link is removed on exit")
    }

    @Test func pn532StopsWhenTheTimeIsUp() throws {
        let sim = try NFCSimProcess(["pn532", "--text", "Summer concert", "--type", "ntag215", "--for", "0.5"])
        #expect(sim.line(startingWith: "LIBNFC_DEVICE=pn532_uart:/dev/pts/") != nil)
        let (status, err) = sim.waitForExit(timeout: 5)
        #expect(status == 0, "\(err)")
    }

    @Test func helpTeachesWithExamples() throws {
        let sim = try NFCSimProcess(["pn532", "--help"])
        #expect(sim.line(startingWith: "  $ LIBNFC_DEVICE=pn532_uart:/tmp/nfcsim-pn532 LIBNFC_AUTO_SCAN=false nfc-list") != nil)
        let (status, _) = sim.waitForExit(timeout: 10)
        #expect(status == 0)
    }

    @Test func unreadableNDEFFileAndBadOptionsExplainThemselves() throws {
        let missing = try NFCSimProcess(["pn532", "--ndef", "/nonexistent/poster.ndef"])
        let (status, err) = missing.waitForExit(timeout: 10)
        #expect(status == 66)
        #expect(err.contains("cannot open /nonexistent/poster.ndef"), "\(err)")
        let both = try NFCSimProcess(["pn532", "--ndef", "x", "--uri", "https://example.com"])
        #expect(both.waitForExit(timeout: 10).status == 64)
        let tooBig = try NFCSimProcess(["pn532", "--text", String(repeating: "x", count: 200), "--type", "ntag213"])
        let big = tooBig.waitForExit(timeout: 10)
        #expect(big.status == 65)
        #expect(big.stderr.contains("does not fit") || big.stderr.contains("needs"), "\(big.stderr)")
    }
}
