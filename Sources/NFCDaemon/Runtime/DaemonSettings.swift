import FoundationEssentials
import NDEFReport
import NFCCopy
import NFCScanKit

/// nfcscand's configuration file, `$XDG_CONFIG_HOME/nfcscan/nfcscand.conf` (else
/// `~/.config/nfcscan/nfcscand.conf`). A missing file means the defaults. `[background]` is for
/// kiosks and stands, which must read whatever the screen or camera does:
///
///     [background]
///     # These conditions do not pause background reading on this machine.
///     ignore = screen-off, locked-after-restart
///
/// `[broker]` makes the machine a station publishing what it reads to an MQTT broker
/// (`BrokerSettings`). `[authenticity]` says what a station does with an object whose chip is
/// not genuine:
///
///     [authenticity]
///     not-genuine = refuse    # or report (the default): offered and published, genuine false
///
/// Lines are `key = value`, `[section]` or `#` comments. Anything else is an error naming the
/// file and line: a setting that silently did nothing would be worse.
public struct DaemonSettings: Equatable, Sendable {
    /// System conditions that never pause background reading (`BackgroundPause.systemConditions` codes).
    public var ignoredConditions: Set<BackgroundPause> = []
    /// Where to publish objects read in the background; nil (no `[broker]`): nowhere.
    public var broker: BrokerSettings?
    /// The first line of `[broker]`'s password-file, read when the file is loaded.
    public var brokerPassword: String?
    /// What happens to an object whose chip is not genuine (`[authenticity] not-genuine`).
    public var notGenuine: NotGenuinePolicy = .report

    public init(ignoredConditions: Set<BackgroundPause> = [], broker: BrokerSettings? = nil) {
        self.ignoredConditions = ignoredConditions
        self.broker = broker
    }

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var path: String
        public var line: Int
        public var detail: String
        public var description: String { "\(path):\(line): \(detail)" }
    }

    /// Where the file is looked for: $XDG_CONFIG_HOME or ~/.config.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.config"
        return base + "/nfcscan/nfcscand.conf"
    }

    /// The settings in the file at `path`; the defaults when there is no such file.
    public static func load(from path: String) throws(Problem) -> DaemonSettings {
        guard FileManager.default.fileExists(atPath: path) else { return DaemonSettings() }
        guard let data = FileManager.default.contents(atPath: path), data.count <= 64 * 1024,
              let text = String(data: data, encoding: .utf8) else {
            throw Problem(path: path, line: 0, detail: "cannot be read as UTF-8 text of at most 64 KiB")
        }
        var settings = try parse(text, path: path)
        settings.brokerPassword = try settings.broker?.checkFiles(path: path)
        return settings
    }

    public static let sections = ["background", "broker", "authenticity"]

    /// The settings `text` gives; `hostName` is the broker's default station. Files the settings
    /// name are not looked at (`load` does that).
    public static func parse(_ text: String, path: String = "nfcscand.conf",
                             hostName: String = ProcessInfo.processInfo.hostName) throws(Problem) -> DaemonSettings {
        var settings = DaemonSettings()
        var section = ""
        var broker: BrokerSettings.Builder?
        let problem = { (line: Int, detail: String) in Problem(path: path, line: line, detail: detail) }
        // Lines are cut on "\n" scalars, a "\r" before one dropped: Swift reads "\r\n" as one
        // Character, so a file with Windows line endings would be one long line (and a comment on
        // its first line would hide every setting).
        for (index, raw) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = Substring(raw.last == "\r" ? raw.dropLast() : raw).trimmingWhitespace
            let number = index + 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw Problem(path: path, line: number, detail: "a section is written [name]") }
                section = String(line.dropFirst().dropLast()).trimmingWhitespace
                guard sections.contains(section) else {
                    throw Problem(path: path, line: number, detail: "unknown section [\(section)]; the sections are: "
                                  + sections.map { "[\($0)]" }.joined(separator: ", "))
                }
                if section == "broker" {
                    guard broker == nil else { throw Problem(path: path, line: number, detail: "[broker] appears twice") }
                    broker = BrokerSettings.Builder(sectionLine: number)
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw Problem(path: path, line: number, detail: "expected key = value, a [section] or a # comment")
            }
            let key = line[..<equals].trimmingWhitespace
            let value = line[line.index(after: equals)...].trimmingWhitespace
            switch (section, key) {
            case ("background", "ignore"):
                settings.ignoredConditions = []
                for code in value.split(separator: ",").map({ $0.trimmingWhitespace }) where !code.isEmpty {
                    guard let condition = BackgroundPause(rawValue: code), BackgroundPause.systemConditions.contains(condition) else {
                        let known = BackgroundPause.systemConditions.map(\.rawValue).joined(separator: ", ")
                        throw Problem(path: path, line: number, detail: "\"\(code)\" cannot be ignored; the conditions a kiosk may ignore are: \(known)")
                    }
                    settings.ignoredConditions.insert(condition)
                }
            case ("broker", _):
                try broker?.set(key, value, line: number, problem: problem)
            case ("authenticity", "not-genuine"):
                guard let policy = NotGenuinePolicy(rawValue: value) else {
                    throw Problem(path: path, line: number, detail: "not-genuine is one of: "
                                  + NotGenuinePolicy.allCases.map(\.rawValue).joined(separator: ", ") + "; not \"\(value)\"")
                }
                settings.notGenuine = policy
            case ("", _):
                throw Problem(path: path, line: number, detail: "\(key) must be inside a section, such as [background]")
            case ("authenticity", _):
                throw Problem(path: path, line: number, detail: "unknown setting \(key) in [authenticity]; it has: not-genuine")
            default:
                throw Problem(path: path, line: number, detail: "unknown setting \(key) in [\(section)]; [background] has: ignore")
            }
        }
        settings.broker = try broker?.finish(hostName: hostName, problem: problem)
        return settings
    }
}
