import FoundationEssentials

/// The `[broker]` section of nfcscand.conf: where a station publishes each object it reads in the
/// background (issue 15). Absent, nothing is published.
///
///     [broker]
///     url = mqtt://127.0.0.1:1883        # or mqtts://host:8883
///     station = counter-2                # default: the host name
///     publish = records                  # or: identity (no object content leaves the machine)
///     username = nfcscan
///     password-file = /path/to/file
///     ca-file = /path/to/ca.pem          # client-cert-file / client-key-file for mutual TLS
///     topic-prefix = nfcscan/counter-2   # default: nfcscan/<station>
///
/// Every key is checked when the daemon starts, with an error naming the file and line: a station
/// that silently published nowhere is what users of other readers complain about.
public struct BrokerSettings: Equatable, Sendable {
    public enum Content: String, Equatable, Sendable {
        /// The records as `nfcscan --json` prints them.
        case records
        /// Only the identity (reader, UID, tag id): no object content leaves the machine.
        case identity
    }

    public var host: String
    public var port: Int32
    /// `mqtts://`: TLS, with `caFile` (else the system's CAs in `/etc/ssl/certs`).
    public var tls: Bool
    public var station: String
    public var content: Content = .records
    public var username: String?
    public var passwordFile: String?
    public var caFile: String?
    public var clientCertificateFile: String?
    public var clientKeyFile: String?
    /// Topics are `<topicPrefix>/scan` and `<topicPrefix>/availability`.
    public var topicPrefix: String
    /// The line each key was set on, so checks of the files it names can point at it. Not part
    /// of equality: the same settings written with a comment line more are the same settings.
    public var lines: [String: Int] = [:]

    public static func == (a: BrokerSettings, b: BrokerSettings) -> Bool {
        a.host == b.host && a.port == b.port && a.tls == b.tls && a.station == b.station && a.content == b.content
            && a.username == b.username && a.passwordFile == b.passwordFile && a.caFile == b.caFile
            && a.clientCertificateFile == b.clientCertificateFile && a.clientKeyFile == b.clientKeyFile
            && a.topicPrefix == b.topicPrefix
    }

    public static let keys = ["url", "station", "publish", "username", "password-file", "ca-file",
                              "client-cert-file", "client-key-file", "topic-prefix"]

    /// Collects the section's keys as the file is read, then checks them together.
    struct Builder {
        var values: [String: (value: String, line: Int)] = [:]
        var sectionLine: Int

        init(sectionLine: Int) { self.sectionLine = sectionLine }

        mutating func set(_ key: String, _ value: String, line: Int, problem: (Int, String) -> DaemonSettings.Problem) throws(DaemonSettings.Problem) {
            guard BrokerSettings.keys.contains(key) else {
                throw problem(line, "unknown setting \(key) in [broker]; [broker] has: \(BrokerSettings.keys.joined(separator: ", "))")
            }
            // Not naming the earlier line: a refusal's text stays the same wherever the lines move.
            if values[key] != nil { throw problem(line, "\(key) is set twice in [broker]") }
            guard !value.isEmpty else { throw problem(line, "\(key) needs a value") }
            values[key] = (value, line)
        }

        /// The settings, or the first problem; `hostName` is the default station.
        func finish(hostName: String, problem: (Int, String) -> DaemonSettings.Problem) throws(DaemonSettings.Problem) -> BrokerSettings {
            guard let url = values["url"] else { throw problem(sectionLine, "[broker] needs url = mqtt://host:port (or mqtts://)") }
            guard let (host, port, tls) = Self.parseURL(url.value) else {
                throw problem(url.line, "url \"\(url.value)\" is not mqtt://host[:port] or mqtts://host[:port]")
            }
            let station = values["station"]?.value ?? hostName
            if let line = values["station"]?.line, station.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || "/+#".unicodeScalars.contains($0) }) {
                throw problem(line, "station \"\(station)\" may not hold /, +, # or control characters")
            }
            var settings = BrokerSettings(host: host, port: port, tls: tls, station: station,
                                          topicPrefix: "nfcscan/" + TopicName.reduced(station))
            if let publish = values["publish"] {
                guard let content = Content(rawValue: publish.value) else {
                    throw problem(publish.line, "publish is records or identity, not \"\(publish.value)\"")
                }
                settings.content = content
            }
            if let prefix = values["topic-prefix"] {
                guard TopicName.isValidPrefix(prefix.value) else {
                    throw problem(prefix.line, "topic-prefix \"\(prefix.value)\" must be topic levels joined by / with no +, #, empty level or control character")
                }
                settings.topicPrefix = prefix.value
            }
            settings.username = values["username"]?.value
            settings.passwordFile = values["password-file"]?.value
            settings.caFile = values["ca-file"]?.value
            settings.clientCertificateFile = values["client-cert-file"]?.value
            settings.clientKeyFile = values["client-key-file"]?.value
            if !tls {
                for key in ["ca-file", "client-cert-file", "client-key-file"] {
                    if let value = values[key] { throw problem(value.line, "\(key) needs an mqtts:// url (TLS)") }
                }
            }
            if let certificate = values["client-cert-file"], values["client-key-file"] == nil {
                throw problem(certificate.line, "client-cert-file needs client-key-file too")
            }
            if let key = values["client-key-file"], values["client-cert-file"] == nil {
                throw problem(key.line, "client-key-file needs client-cert-file too")
            }
            if let passwordFile = values["password-file"], values["username"] == nil {
                throw problem(passwordFile.line, "password-file needs username too")
            }
            settings.lines = values.mapValues(\.line)
            return settings
        }

        /// `mqtt://host[:port]` (1883) or `mqtts://host[:port]` (8883); an IPv6 host in brackets.
        static func parseURL(_ text: String) -> (host: String, port: Int32, tls: Bool)? {
            let tls: Bool
            let rest: Substring
            if text.hasPrefix("mqtt://") { tls = false; rest = text.dropFirst(7) }
            else if text.hasPrefix("mqtts://") { tls = true; rest = text.dropFirst(8) }
            else { return nil }
            var host: Substring
            var portText: Substring?
            if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]") else { return nil }
                host = rest[rest.index(after: rest.startIndex)..<close]
                let after = rest[rest.index(after: close)...]
                if !after.isEmpty {
                    guard after.hasPrefix(":") else { return nil }
                    portText = after.dropFirst()
                }
            } else if let colon = rest.firstIndex(of: ":") {
                host = rest[..<colon]
                portText = rest[rest.index(after: colon)...]
            } else {
                host = rest
            }
            if host.hasSuffix("/") { host = host.dropLast() }
            if portText?.hasSuffix("/") == true { portText = portText?.dropLast() }
            guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || "-._:".contains($0) }) else { return nil }
            var port: Int32 = tls ? 8883 : 1883
            if let portText {
                guard let value = Int32(portText), (1...65535).contains(value) else { return nil }
                port = value
            }
            return (String(host), port, tls)
        }
    }

    /// Checks that each file named can be read now, and reads the password: what the daemon would
    /// otherwise only find out at its first connection. Errors name the key's line.
    public func checkFiles(path: String) throws(DaemonSettings.Problem) -> String? {
        for key in ["ca-file", "client-cert-file", "client-key-file", "password-file"] {
            let file: String? = switch key {
            case "ca-file": caFile
            case "client-cert-file": clientCertificateFile
            case "client-key-file": clientKeyFile
            default: passwordFile
            }
            guard let file else { continue }
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw DaemonSettings.Problem(path: path, line: lines[key] ?? 0, detail: "\(key) \(file) cannot be read")
            }
        }
        guard let passwordFile else { return nil }
        guard let data = FileManager.default.contents(atPath: passwordFile), data.count <= 4096,
              let text = String(data: data, encoding: .utf8) else {
            throw DaemonSettings.Problem(path: path, line: lines["password-file"] ?? 0,
                                         detail: "password-file \(passwordFile) is not UTF-8 text of at most 4 KiB")
        }
        // The first line: an editor's final newline (or CR LF) is not part of the password.
        var line = text.unicodeScalars.prefix { $0 != "\n" }
        while line.first == "\r" { line.removeFirst() }
        while line.last == "\r" { line.removeLast() }
        return String(String.UnicodeScalarView(line))
    }
}

/// Names in topics: Home Assistant's discovery topic levels allow `[a-zA-Z0-9_-]` only.
public enum TopicName {
    /// `name` with every character outside `[a-zA-Z0-9_-]` replaced by `_` (never empty).
    public static func reduced(_ name: String) -> String {
        let reduced = String(name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
                ? Character(scalar) : "_"
        })
        return reduced.isEmpty ? "_" : reduced
    }

    /// A prefix for publishing: levels joined by `/`, none empty, no wildcard or control character.
    static func isValidPrefix(_ prefix: String) -> Bool {
        !prefix.isEmpty && prefix.utf8.count < 1024
            && prefix.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty }
            && !prefix.unicodeScalars.contains { $0 == "+" || $0 == "#" || $0.properties.generalCategory == .control }
    }
}
