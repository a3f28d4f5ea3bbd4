import CSystemd
import Glibc

/// Structured entries to the systemd journal (sd_journal_sendv): MESSAGE, PRIORITY and any
/// extra fields, so `journalctl --user -u nfcscand -o verbose` shows them as fields.
public enum Journal {
    /// syslog priorities.
    public enum Priority: Int, Sendable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
    }

    /// Sends one entry; false when the journal is not reachable (the caller falls back to stderr).
    /// Field names must be upper-case letters, digits and underscores.
    @discardableResult
    public static func send(_ message: String, priority: Priority, fields: [String: String] = [:]) -> Bool {
        var lines = ["MESSAGE=\(message)", "PRIORITY=\(priority.rawValue)"]
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) where Self.isFieldName(name) {
            lines.append("\(name)=\(value)")
        }
        // One buffer for every field, and one iovec per field pointing into it.
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for line in lines {
            let start = bytes.count
            bytes += line.utf8
            ranges.append(start..<bytes.count)
        }
        return bytes.withUnsafeMutableBytes { buffer in
            let vectors = ranges.map { iovec(iov_base: buffer.baseAddress! + $0.lowerBound, iov_len: $0.count) }
            return sd_journal_sendv(vectors, Int32(vectors.count)) == 0
        }
    }

    static func isFieldName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix("_") && name.utf8.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
    }
}
