import Foundation
import NFCScanKit

/// nfcscand's configuration file, `$XDG_CONFIG_HOME/nfcscan/nfcscand.conf` (else
/// `~/.config/nfcscan/nfcscand.conf`). A missing file means the defaults. Its only setting so
/// far is for kiosks and stands, which must read whatever the screen or camera does:
///
///     [background]
///     # These conditions do not pause background reading on this machine.
///     ignore = screen-off, locked-after-restart
///
/// Lines are `key = value`, `[section]` or `#` comments. Anything else is an error naming the
/// file and line: a setting that silently did nothing would be worse.
public struct DaemonSettings: Equatable, Sendable {
    /// System conditions that never pause background reading (`BackgroundPause.systemConditions` codes).
    public var ignoredConditions: Set<BackgroundPause> = []

    public init(ignoredConditions: Set<BackgroundPause> = []) {
        self.ignoredConditions = ignoredConditions
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
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return base + "/nfcscan/nfcscand.conf"
    }

    /// The settings in the file at `path`; the defaults when there is no such file.
    public static func load(from path: String) throws(Problem) -> DaemonSettings {
        guard FileManager.default.fileExists(atPath: path) else { return DaemonSettings() }
        guard let data = FileManager.default.contents(atPath: path), data.count <= 64 * 1024,
              let text = String(data: data, encoding: .utf8) else {
            throw Problem(path: path, line: 0, detail: "cannot be read as UTF-8 text of at most 64 KiB")
        }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String = "nfcscand.conf") throws(Problem) -> DaemonSettings {
        var settings = DaemonSettings()
        var section = ""
        // Lines are cut on "\n" scalars, a "\r" before one dropped: Swift reads "\r\n" as one
        // Character, so a file with Windows line endings would be one long line (and a comment on
        // its first line would hide every setting).
        for (index, raw) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = Substring(raw.last == "\r" ? raw.dropLast() : raw).trimmingCharacters(in: .whitespaces)
            let number = index + 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw Problem(path: path, line: number, detail: "a section is written [name]") }
                section = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                guard section == "background" else {
                    throw Problem(path: path, line: number, detail: "unknown section [\(section)]; the sections are: [background]")
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw Problem(path: path, line: number, detail: "expected key = value, a [section] or a # comment")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            switch (section, key) {
            case ("background", "ignore"):
                settings.ignoredConditions = []
                for code in value.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !code.isEmpty {
                    guard let condition = BackgroundPause(rawValue: code), BackgroundPause.systemConditions.contains(condition) else {
                        let known = BackgroundPause.systemConditions.map(\.rawValue).joined(separator: ", ")
                        throw Problem(path: path, line: number, detail: "\"\(code)\" cannot be ignored; the conditions a kiosk may ignore are: \(known)")
                    }
                    settings.ignoredConditions.insert(condition)
                }
            case ("", _):
                throw Problem(path: path, line: number, detail: "\(key) must be inside a section, such as [background]")
            default:
                throw Problem(path: path, line: number, detail: "unknown setting \(key) in [\(section)]; [background] has: ignore")
            }
        }
        return settings
    }
}
