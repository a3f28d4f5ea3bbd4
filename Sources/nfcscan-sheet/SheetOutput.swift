import Glibc
import ScanSheet

/// The events for the daemon, one `SheetWire` line each on standard output, written whole with
/// write(2) (no stdio buffer to flush or to lose when the process ends). SIGPIPE is ignored
/// (main.swift), so a daemon gone away is a failed write here, and the sheet then quits.
enum SheetOutput {
    /// Writes `event`'s line; false when standard output is gone.
    static func send(_ event: SheetEvent) -> Bool {
        let bytes = Array((SheetWire.line(for: event) + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN:
                // stdout shares a non-blocking description with stdin (a socket given as both):
                // wait until the daemon reads, as a blocking write would.
                var ready = pollfd(fd: 1, events: Int16(POLLOUT), revents: 0)
                if poll(&ready, 1, -1) < 0 && errno != EINTR { return false }
            default: return false
            }
        }
        return true
    }

    /// A line on standard error for whoever reads the sheet's log (the daemon's journal).
    static func complain(_ message: String) {
        let bytes = Array("nfcscan-sheet: \(message)\n".utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
