/// A desktop entry file read as the Desktop Entry Specification (1.5) lays it out: groups of
/// `Key=Value` lines, comments and blank lines. Only the layout is checked here; what the keys
/// mean is ``DesktopEntry``'s. Pure: the caller reads the bytes (bounded) and hands them over.
///
/// Strict where a lenient reading could run the wrong thing: a duplicate group or key, a line
/// that is neither, or bytes that are not UTF-8 refuse the whole file (the spec calls such files
/// invalid), with the line at fault, so a desktop entry never means two things to two readers.
/// A `mimeapps.list` (``Keys/mimeTypes``) is read as GLib reads it instead, because tools that
/// append to it leave groups repeated: a repeated group continues the first, and of a repeated
/// key the last line counts; it starts nothing itself, and GLib's reading is the one the
/// person's desktop already follows. Any other GLib key file (``Keys/keyFile``: Flatpak's
/// `/.flatpak-info`) is read with the desktop entry's strictness but GLib's key names.
public struct DesktopEntryFile: Sendable, Equatable {
    /// One `Key=Value` line. `locale` is the part in brackets (`Name[de]`), nil for none.
    public struct Entry: Sendable, Equatable {
        public let key: String
        public let locale: String?
        /// As written (escapes not yet applied: they depend on the key's type).
        public let rawValue: String
        /// From 1.
        public let line: Int
    }

    public struct Group: Sendable, Equatable {
        public let name: String
        public let line: Int
        public let entries: [Entry]

        /// The unlocalised entry for `key`.
        public func entry(_ key: String) -> Entry? {
            entries.first { $0.key == key && $0.locale == nil }
        }
    }

    /// Bounds on what one file may cost: real desktop entries are a few kilobytes (translations
    /// included); a file larger than this is refused before it is read as text.
    public static let maximumBytes = 256 * 1024
    public static let maximumGroups = 64
    public static let maximumEntries = 4096

    public let groups: [Group]

    public func group(_ name: String) -> Group? { groups.first { $0.name == name } }

    /// What a key may be: a desktop entry's own (`A-Za-z0-9-`, with `[locale]`), a MIME type,
    /// as `mimeapps.list` (the same layout) has them, or a GLib key file's (`Key[locale]`, the
    /// key any printable ASCII but `=`, `[` and `]`: `/.flatpak-info` has D-Bus names for keys
    /// in `[Session Bus Policy]` and environment variables in `[Environment]`).
    public enum Keys: Sendable {
        case desktopEntry
        case mimeTypes
        case keyFile
    }

    /// Reads `bytes`; throws the first problem with its line.
    public init(bytes: some Collection<UInt8>, keys: Keys = .desktopEntry) throws(DesktopEntryProblem) {
        guard bytes.count <= Self.maximumBytes else {
            throw DesktopEntryProblem(line: 0, "the file is \(bytes.count) bytes; at most \(Self.maximumBytes)")
        }
        var groups: [(name: String, line: Int, entries: [Entry], keys: Set<String>)] = []
        var current: Int?
        var count = 0
        var lineNumber = 0
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var lineBytes = Array(rawLine)
            if lineBytes.last == UInt8(ascii: "\r") { lineBytes.removeLast() }
            guard let line = String(validating: lineBytes, as: UTF8.self) else {
                throw DesktopEntryProblem(line: lineNumber, "the line is not UTF-8")
            }
            if line.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" }) {
                throw DesktopEntryProblem(line: lineNumber, "the line holds control characters")
            }
            let trimmed = Self.trimmingSpaces(Substring(line))
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if trimmed.hasPrefix("[") {
                guard trimmed.hasSuffix("]"), trimmed.count >= 3 else {
                    throw DesktopEntryProblem(line: lineNumber, "a group header is [name]")
                }
                let name = String(trimmed.dropFirst().dropLast())
                guard name.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 && $0 != "[" && $0 != "]" }) else {
                    throw DesktopEntryProblem(line: lineNumber, "group names are printable ASCII without [ or ]")
                }
                if let earlier = groups.firstIndex(where: { $0.name == name }) {
                    guard keys == .mimeTypes else { throw DesktopEntryProblem(line: lineNumber, "group [\(name)] appears twice") }
                    current = earlier
                    continue
                }
                guard groups.count < Self.maximumGroups else {
                    throw DesktopEntryProblem(line: lineNumber, "more than \(Self.maximumGroups) groups")
                }
                groups.append((name, lineNumber, [], []))
                current = groups.count - 1
                continue
            }
            guard let group = current else {
                throw DesktopEntryProblem(line: lineNumber, "a key before the first group header")
            }
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw DesktopEntryProblem(line: lineNumber, "neither a group header, a key=value line nor a comment")
            }
            let (key, locale) = switch keys {
            case .desktopEntry: try Self.key(Self.trimmingSpaces(trimmed[..<equals]), line: lineNumber)
            case .keyFile: try Self.key(Self.trimmingSpaces(trimmed[..<equals]), line: lineNumber, anyName: true)
            case .mimeTypes: (try Self.mimeType(Self.trimmingSpaces(trimmed[..<equals]), line: lineNumber), nil)
            }
            let value = String(Self.trimmingLeadingSpaces(trimmed[trimmed.index(after: equals)...]))
            if !groups[group].keys.insert(locale.map { "\(key)[\($0)]" } ?? key).inserted {
                guard keys == .mimeTypes else {
                    throw DesktopEntryProblem(line: lineNumber, "key \(key)\(locale.map { "[\($0)]" } ?? "") appears twice in [\(groups[group].name)]")
                }
                groups[group].entries.removeAll { $0.key == key }
            }
            count += 1
            guard count <= Self.maximumEntries else {
                throw DesktopEntryProblem(line: lineNumber, "more than \(Self.maximumEntries) keys")
            }
            groups[group].entries.append(Entry(key: key, locale: locale, rawValue: value, line: lineNumber))
        }
        self.groups = groups.map { Group(name: $0.name, line: $0.line, entries: $0.entries) }
    }

    /// `Key` or `Key[locale]`: keys are `A-Za-z0-9-`; the locale is `lang_COUNTRY.ENCODING@MODIFIER`.
    /// With `anyName`, the key is any printable ASCII but `=`, `[` and `]` (GLib's key files).
    private static func key(_ text: Substring, line: Int, anyName: Bool = false) throws(DesktopEntryProblem) -> (String, String?) {
        var name = text, locale: String?
        if let open = text.firstIndex(of: "[") {
            guard text.hasSuffix("]"), text.index(after: open) < text.index(before: text.endIndex) else {
                throw DesktopEntryProblem(line: line, "a localised key is Key[locale]")
            }
            name = text[..<open]
            let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
            guard inner.unicodeScalars.allSatisfy({ isASCIIAlphanumeric($0) || "_.@-".unicodeScalars.contains($0) }) else {
                throw DesktopEntryProblem(line: line, "the locale of a key is lang_COUNTRY.ENCODING@MODIFIER")
            }
            locale = String(inner)
        }
        if anyName {
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "[" && $0 != "]" }) else {
                throw DesktopEntryProblem(line: line, "a key is printable ASCII without spaces, [ or ]")
            }
        } else {
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ isASCIIAlphanumeric($0) || $0 == "-" }) else {
                throw DesktopEntryProblem(line: line, "a key holds only A-Z, a-z, 0-9 and '-'")
            }
        }
        return (String(name), locale)
    }

    /// `type/subtype` of RFC 6838's restricted-name characters.
    private static func mimeType(_ text: Substring, line: Int) throws(DesktopEntryProblem) -> String {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ part in
            !part.isEmpty && part.count <= 127 && part.unicodeScalars.allSatisfy { isASCIIAlphanumeric($0) || "!#$&^_.+-".unicodeScalars.contains($0) }
        }) else {
            throw DesktopEntryProblem(line: line, "a key here is a MIME type, type/subtype")
        }
        return String(text)
    }

    static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    private static func trimmingSpaces(_ text: Substring) -> Substring {
        var rest = trimmingLeadingSpaces(text)
        while let last = rest.last, last == " " || last == "\t" { rest.removeLast() }
        return rest
    }

    private static func trimmingLeadingSpaces(_ text: Substring) -> Substring {
        var rest = text
        while let first = rest.first, first == " " || first == "\t" { rest.removeFirst() }
        return rest
    }
}

/// Why a desktop entry is not used, with the line at fault (0: the file as a whole).
public struct DesktopEntryProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let detail: String

    public init(line: Int, _ detail: String) {
        self.line = line
        self.detail = detail
    }

    public var description: String { line > 0 ? "line \(line): \(detail)" : detail }
}
