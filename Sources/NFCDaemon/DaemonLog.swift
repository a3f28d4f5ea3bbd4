import Foundation
import Logging
import Systemd

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

    public func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        if journal {
            var fields: [String: String] = ["SYSLOG_IDENTIFIER": "nfcscand", "NFCSCAN_SOURCE": label]
            for (key, value) in all { fields["NFCSCAN_" + key.uppercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()] = "\(value)" }
            if Journal.send(event.message.description, priority: Self.priority(event.level), fields: fields) { return }
        }
        let extra = all.isEmpty ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        FileHandle.standardError.write(Data("nfcscand: \(event.level): \(event.message)\(extra)\n".utf8))
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
