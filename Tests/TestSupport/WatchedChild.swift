import Foundation
import Glibc
import Testing

/// A long-running helper program (a simulator, a private pcscd) the test starts, talks to while it
/// runs, and stops: its stdout and stderr are gathered as they come (a pipe drained by a handler,
/// never the test's own output, which a child left behind by a crash would hold open and keep
/// `swift test` waiting), so the test can wait, bounded, for the line where it announces itself.
/// Stopped by its PID: SIGTERM, then SIGKILL if it has not ended within 5 s, which is recorded as
/// an issue (these helpers clean up on SIGTERM, and one that does not is a bug).
public final class WatchedChild: @unchecked Sendable {
    public let process = Process()
    /// How issues and errors name it ("nfcsim pn532", "private-pcscd.sh").
    public let name: String
    private let output = Pipe()
    private let exited = DispatchSemaphore(value: 0)
    private let condition = NSCondition()
    private var text = ""
    private var ended = false

    /// Starts `executable` with `arguments` (standard input /dev/null, the test's environment).
    /// Foundation's Process starts children with signals blocked (the mask survives exec), so a
    /// program that only installs handlers (mosquitto) would never see SIGTERM: `unblockingSignals`
    /// starts it through perl (perl-base is Essential in Debian), which clears the mask and puts
    /// TERM, INT and HUP back to their defaults first, as scripts/private-pcscd.sh does for itself.
    public init(_ executable: String, _ arguments: [String], name: String, unblockingSignals: Bool = false) throws {
        self.name = name
        if unblockingSignals {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/perl")
            process.arguments = ["-MPOSIX", "-e", #"sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die "sigprocmask: $!"; $SIG{$_} = "DEFAULT" for qw(TERM INT HUP); exec { $ARGV[0] } @ARGV or die "exec: $!""#, executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
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
    }

    /// Everything it printed so far.
    public var log: String { condition.withLock { text } }

    /// Waits (bounded) for an output line starting with `prefix` (and holding `part`); nil if it ended or the time ran out first.
    public func waitForLine(startingWith prefix: String, containing part: String = "", timeout: Double) -> String? {
        waitForLines(startingWith: prefix, containing: part, count: 1, timeout: timeout)?.first
    }

    /// Waits (bounded) until `count` output lines start with `prefix` (and hold `part`); the
    /// first `count` of them, or nil if it ended or the time ran out first.
    public func waitForLines(startingWith prefix: String, containing part: String = "", count: Int, timeout: Double) -> [String]? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let lines = text.split(separator: "\n").filter { $0.hasPrefix(prefix) && (part.isEmpty || $0.contains(part)) }
            if lines.count >= count { return lines.prefix(count).map(String.init) }
            if ended || !condition.wait(until: deadline) { return nil }
        }
    }

    /// What follows `prefix` on the line where it announces itself (`LIBNFC_DEVICE=`,
    /// `PCSCLITE_CSOCK_NAME=`); if that line does not come within `timeout` seconds it is stopped
    /// and the error carries everything it printed.
    public func announced(_ prefix: String, timeout: Double = 10) throws -> String {
        guard let line = waitForLine(startingWith: prefix, timeout: timeout) else {
            let log = stop()
            throw Missing(what: "\(name) did not start: \(log)", remedy: Missing.installDeps)
        }
        return String(line.dropFirst(prefix.count))
    }

    /// SIGTERM, then SIGKILL if it has not ended within 5 s; returns the whole output.
    @discardableResult
    public func stop() -> String {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        if exited.wait(timeout: .now() + 5) == .timedOut {
            Issue.record("\(name) did not stop on SIGTERM")
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
