import Foundation
import Testing

/// The tools these tests run: scripts/private-pcscd.sh with the built nfcsim, and the built
/// pcsc-readers-probe (one PC/SC check per process: the client library reads
/// PCSCLITE_CSOCK_NAME once per process).
enum PCSCRig {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var bin: URL { root.appendingPathComponent(".build/debug") }
    static var nfcsim: String { ProcessInfo.processInfo.environment["NFCSIM_BIN"] ?? bin.appendingPathComponent("nfcsim").path }
    static var probe: String { bin.appendingPathComponent("pcsc-readers-probe").path }
    static var privatePCSCD: String { root.appendingPathComponent("scripts/private-pcscd.sh").path }

    struct Missing: Error, CustomStringConvertible {
        var what: String
        var description: String { "\(what); run scripts/install-deps.sh" }
    }

    static func requireAll() throws {
        for name in ["pcscd", "unshare", "ip"] {
            let found = ((ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"])
                .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
            if !found { throw Missing(what: "\(name) is not installed") }
        }
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent(".deps/vpcd/usr/lib/pcsc/drivers/serial/libifdvpcd.so").path) else {
            throw Missing(what: "the vpcd driver is not unpacked in .deps/vpcd")
        }
        for built in [nfcsim, probe] where !FileManager.default.isExecutableFile(atPath: built) {
            throw Missing(what: "\(built) is not built (swift build --build-tests)")
        }
    }

    struct Result {
        var status: Int32
        var output: String
        var timedOut: Bool
        /// The value of the first `key=` line.
        func value(_ key: String) -> String? {
            output.split(separator: "\n").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        func line(startingWith prefix: String) -> String? {
            output.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
        }
    }

    /// Runs the probe with `arguments` (its own bound last), killed by PID after `timeout` seconds.
    static func probe(_ arguments: [String], socket: String, timeout: Double) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: probe)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PCSCLITE_CSOCK_NAME"] = socket
        process.environment = environment
        let output = Pipe()
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
        let data = output.fileHandleForReading.readDataToEndOfFile()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self), timedOut: timedOut)
    }
}

/// scripts/private-pcscd.sh running `nfcsim vpcd` with `arguments` (--keep: pcscd stays after
/// nfcsim ends, so clients see the card leave). Stopped by its PID.
final class PrivatePCSCD: @unchecked Sendable {
    let process = Process()
    private(set) var socket = ""
    private let output = Pipe()
    private let exited = DispatchSemaphore(value: 0)
    private let condition = NSCondition()
    private var text = ""
    private var ended = false

    init(nfcsim arguments: [String]) throws {
        try PCSCRig.requireAll()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [PCSCRig.privatePCSCD, "--keep", "--", PCSCRig.nfcsim, "vpcd"] + arguments
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
            throw PCSCRig.Missing(what: "the private pcscd did not start: \(log)")
        }
        socket = String(line.dropFirst("PCSCLITE_CSOCK_NAME=".count))
    }

    var log: String { condition.withLock { text } }

    func waitForLine(startingWith prefix: String, timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
            if ended || !condition.wait(until: deadline) { return nil }
        }
    }

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
