import FoundationEssentials
import Logging
import NDEFReport
import Systemd
import SystemPackage

/// swift-log to the systemd journal (structured: the metadata become fields) when stderr is the
/// journal, else one line per message on stderr.
public struct DaemonLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    private let label: String
    private let journal: Bool

    public init(label: String, level: Logger.Level, journal: Bool = ServiceManager.loggingToJournal) {
        self.label = label
        self.logLevel = level
        self.journal = journal
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Longest message or field written, in characters: a caller's 256-byte texts fit many times.
    static let maximumFieldCharacters = 2048

    public func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let message = Self.escaped(event.message.description)
        if journal {
            var fields: [String: String] = ["SYSLOG_IDENTIFIER": "nfcscand", "NFCSCAN_SOURCE": label]
            for (key, value) in all { fields["NFCSCAN_" + key.uppercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()] = Self.escaped("\(value)") }
            if Journal.send(message, priority: Self.priority(event.level), fields: fields) { return }
        }
        let extra = all.isEmpty ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.escaped("\($0.value)"))" }.joined(separator: " ")
        _ = try? FileDescriptor.standardError.writeAll("nfcscand: \(event.level): \(message)\(extra)\n".utf8)
    }

    /// Log text with every control character (a newline, an escape sequence, a NUL), line
    /// separator and bidirectional formatting character as a visible `\u{…}` escape: messages
    /// carry what callers and objects said (an inhibitor's who and why, an alert message, a
    /// reader's name), and none of it may forge a line of its own or restyle a terminal.
    static func escaped(_ text: String) -> String {
        DisplayText.sanitized(text, maxCharacters: maximumFieldCharacters)
    }

    static func priority(_ level: Logger.Level) -> Journal.Priority {
        switch level {
        case .trace, .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error, .critical: .error
        }
    }
}
