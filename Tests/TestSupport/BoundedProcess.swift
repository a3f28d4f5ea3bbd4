import Foundation
import Glibc

/// What a program run to its end printed, and how it ended.
public struct RunResult: Sendable {
    public var status: Int32
    /// Standard output; with ``BoundedProcess/Output/together``, standard error too, interleaved as written.
    public var stdout: String
    /// Standard error; empty with ``BoundedProcess/Output/together``.
    public var stderr: String
    /// The program was still running at the deadline and was killed.
    public var timedOut: Bool

    /// Everything it printed (stdout, then stderr: interleaved only with `.together`).
    public var output: String { stdout + stderr }

    /// The first line of ``output`` starting with `prefix`.
    public func line(startingWith prefix: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
    }

    /// The value of the first `key=` line of ``output``.
    public func value(_ key: String) -> String? {
        line(startingWith: key + "=").map { String($0.dropFirst(key.count + 1)) }
    }
}

/// Runs a program to its end, bounded in time: at the deadline it is killed by its PID
/// (SIGKILL: Foundation's Process starts children with signals blocked, so a SIGTERM might never
/// arrive), and the result says it timed out. A hung program fails its test instead of hanging
/// `swift test`.
///
/// Its output goes to temporary files, never the test's own output (a child holding that open
/// keeps `swift test` waiting after a crash) and never a pipe read only at the end (a program
/// printing more than the pipe holds would block and time out).
public enum BoundedProcess {
    public enum Output: Sendable {
        /// stdout and stderr each kept apart.
        case separate
        /// stdout and stderr into one file, in the order written (``RunResult/stdout``).
        case together
    }

    /// Runs `path` with `arguments` and exactly `environment`, its standard input `input` (or
    /// /dev/null), for at most `timeout` seconds.
    public static func run(_ path: String, _ arguments: [String],
                           environment: [String: String] = ProcessInfo.processInfo.environment,
                           input: [UInt8]? = nil, output: Output = .separate, timeout: Double) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let directory = FileManager.default.temporaryDirectory
        let id = UUID().uuidString
        let outURL = directory.appendingPathComponent("nfcscan-run-\(id).out")
        let errURL = directory.appendingPathComponent("nfcscan-run-\(id).err")
        let inURL = directory.appendingPathComponent("nfcscan-run-\(id).in")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        if output == .separate { _ = FileManager.default.createFile(atPath: errURL.path, contents: nil) }
        defer { for url in [outURL, errURL, inURL] { try? FileManager.default.removeItem(at: url) } }
        let out = try FileHandle(forWritingTo: outURL)
        let err = output == .separate ? try FileHandle(forWritingTo: errURL) : out
        process.standardOutput = out
        process.standardError = err
        if let input {
            try Data(input).write(to: inURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        try out.close()
        if output == .separate { try err.close() }
        func read(_ url: URL) -> String { String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self) }
        return RunResult(status: process.terminationStatus, stdout: read(outURL),
                         stderr: output == .separate ? read(errURL) : "", timedOut: timedOut)
    }
}
