import Foundation
import Testing

/// The repository, the built nfcsim, and the PC/SC tools the end-to-end tests run.
enum PCSCTools {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// NFCSIM_BIN overrides where the built binary is.
    static var nfcsim: String {
        ProcessInfo.processInfo.environment["NFCSIM_BIN"] ?? root.appendingPathComponent(".build/debug/nfcsim").path
    }
    static var privatePCSCD: String { root.appendingPathComponent("scripts/private-pcscd.sh").path }
    static var apduScript: String { root.appendingPathComponent("Tests/NFCSimVPCDTests/pcsc_apdu.py").path }
    /// Debian's interpreter: python3-pyscard is installed for it, not for a pyenv python3 on PATH.
    static let python = "/usr/bin/python3"

    struct Missing: Error, CustomStringConvertible {
        var what: String
        var description: String { "\(what); run scripts/install-deps.sh" }
    }

    static func executable(_ name: String) throws -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + ["/usr/bin", "/usr/sbin", "/bin", "/sbin"]
        for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        throw Missing(what: "\(name) is not installed")
    }

    /// Fails with a message naming what is missing, before a test starts anything.
    static func requireAll() throws {
        for name in ["pcscd", "pcsc_scan", "unshare", "ip"] { _ = try executable(name) }
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent(".deps/vpcd/usr/lib/pcsc/drivers/serial/libifdvpcd.so").path) else {
            throw Missing(what: "the vpcd driver is not unpacked in .deps/vpcd")
        }
        let probe = try run(python, ["-c", "import smartcard.scard"], timeout: 10)
        guard probe.status == 0 else { throw Missing(what: "pyscard is not importable by \(python) (python3-pyscard): \(probe.output)") }
        guard FileManager.default.isExecutableFile(atPath: nfcsim) else {
            throw Missing(what: "\(nfcsim) is not built (swift build)")
        }
    }

    struct Result {
        var status: Int32
        var output: String
        var timedOut: Bool
    }

    /// Runs a program to its end, bounded by `timeout` seconds (then killed by its PID); output is
    /// stdout and stderr together.
    static func run(_ path: String, _ arguments: [String], environment extra: [String: String] = [:], timeout: Double) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("nfcsim-vpcd-tool-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let output = try FileHandle(forWritingTo: outputURL)
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        try output.close()
        let text = String(decoding: (try? Data(contentsOf: outputURL)) ?? Data(), as: UTF8.self)
        return Result(status: process.terminationStatus, output: text, timedOut: timedOut)
    }
}

/// scripts/private-pcscd.sh running `nfcsim vpcd` with `arguments` inside its namespaces (--keep:
/// pcscd stays after nfcsim ends, so clients see the card leave). Stopped by its PID.
final class PrivatePCSCD: @unchecked Sendable {
    let process = Process()
    /// PCSCLITE_CSOCK_NAME for clients.
    private(set) var socket = ""
    private let output = Pipe()
    private let exited = DispatchSemaphore(value: 0)
    private let condition = NSCondition()
    private var text = ""
    private var ended = false

    init(nfcsim arguments: [String]) throws {
        try PCSCTools.requireAll()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [PCSCTools.privatePCSCD, "--keep", "--", PCSCTools.nfcsim, "vpcd"] + arguments
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            self.condition.lock()
            if data.isEmpty { self.ended = true; handle.readabilityHandler = nil } else { self.text += String(decoding: data, as: UTF8.self) }
            self.condition.broadcast()
            self.condition.unlock()
        }
        try process.run()
        guard let line = waitForLine(startingWith: "PCSCLITE_CSOCK_NAME=", timeout: 10) else {
            let log = stop()
            throw PCSCTools.Missing(what: "the private pcscd did not start: \(log)")
        }
        socket = String(line.dropFirst("PCSCLITE_CSOCK_NAME=".count))
    }

    var environment: [String: String] { ["PCSCLITE_CSOCK_NAME": socket] }

    /// Everything the script, pcscd and nfcsim printed so far.
    var log: String { condition.withLock { text } }

    /// Waits (bounded) for an output line starting with `prefix`.
    func waitForLine(startingWith prefix: String, timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
            if ended || !condition.wait(until: deadline) { return nil }
        }
    }

    /// SIGTERM, then SIGKILL if it has not ended within 5 s; returns the whole output.
    @discardableResult
    func stop() -> String {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        if exited.wait(timeout: .now() + 5) == .timedOut {
            Issue.record("private-pcscd.sh did not stop on SIGTERM")
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        exited.signal()
        condition.lock()
        let deadline = Date().addingTimeInterval(2)
        while !ended, condition.wait(until: deadline) {}
        condition.unlock()
        return log
    }
}
