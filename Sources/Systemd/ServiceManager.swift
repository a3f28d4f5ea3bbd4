import CSystemd
import Glibc

/// Talking to the service manager that started us (sd_notify). Harmless when not run by systemd:
/// every call does nothing when `NOTIFY_SOCKET` is unset.
public enum ServiceManager {
    /// Startup is finished: the bus name is taken and the API answers (Type=notify).
    public static func ready(status: String? = nil) { send(["READY=1"] + (status.map { ["STATUS=\($0)"] } ?? [])) }
    /// Shutting down; systemd waits for the exit.
    public static func stopping() { send(["STOPPING=1"]) }
    /// A one-line status shown by `systemctl --user status`.
    public static func status(_ text: String) { send(["STATUS=\(text)"]) }
    /// Still alive (WatchdogSec).
    public static func watchdog() { send(["WATCHDOG=1"]) }

    /// How often to send ``watchdog()`` (half the configured WatchdogSec), or nil when the
    /// watchdog is off for this process.
    public static var watchdogInterval: Duration? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return .microseconds(Int64(usec / 2))
    }

    /// Whether our stderr goes to the journal (systemd sets `JOURNAL_STREAM` for that).
    public static var loggingToJournal: Bool {
        getenv("JOURNAL_STREAM") != nil
    }

    private static func send(_ fields: [String]) {
        _ = sd_notify(0, fields.joined(separator: "\n"))
    }
}
