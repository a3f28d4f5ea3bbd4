import NDEF

/// The app a process belongs to as its systemd unit names it: desktops start each app in a
/// unit of its own, named as systemd's "Desktop Environment Integration"
/// (https://systemd.io/DESKTOP_ENVIRONMENTS/) asks:
///
///     app[-<launcher>]-<ApplicationID>-<RANDOM>.scope
///     app[-<launcher>]-<ApplicationID>[@<RANDOM>].service
///
/// where "<launcher>" (`gnome`, `kde`, `flatpak`, `glib`) "should not contain dashes" and the
/// application ID is systemd-escaped (a `-` of the ID is written `\x2d`), so the unescaped
/// dashes separate the parts. Read from `/proc/PID/cgroup` (``init(cgroup:)``): pure, the
/// caller reads the file. The file is untrusted input: a process can name cgroups below its own
/// delegated subtree as it likes, so every byte is checked and every length bounded.
///
/// How a name is split (the same reading as xdg-desktop-portal's, which parses these names
/// for the portals' own app IDs, written out as a rule instead of a regular expression):
/// - `app-` and the suffix are taken off; a service's `@<RANDOM>` (from the first `@`) too;
/// - the rest is split at every `-` (escaped dashes are `\x2d`, no `-`); an empty part
///   (`app--x-1.scope`, `app-.scope`) refuses the name;
/// - a scope's last part is its random part (ASCII letters and digits: GNOME writes a PID,
///   KDE a hex UUID) and there must be one;
/// - of what remains, when there are two parts or more and the first is ASCII letters and digits
///   only, the first is the launcher; the rest, joined again with `-` (a launcher that did not
///   escape the ID's dashes), is the ID. So `app-gnome-firefox\x2desr-2211.scope` and
///   `app-gnome-firefox-esr-2211.scope` are both `firefox-esr`, but `app-firefox-esr-2211.scope`
///   is `esr` started by a launcher `firefox`: the specification's reading (the launcher has no
///   dash, the ID's dashes are escaped), as systemd and the portal read it too;
/// - the ID is unescaped (`\xNN` only, as systemd escapes; anything else after `\` refuses the
///   name) and must be an ``ApplicationID``.
public struct SystemdScope: Sendable, Equatable, Hashable {
    public enum Kind: Sendable, Equatable, Hashable {
        case scope
        case service
    }

    /// The unit's name as the cgroup path writes it (escaped): `app-gnome-org.gnome.Terminal-3342.scope`.
    public let unit: String
    public let kind: Kind
    /// `gnome`, `kde`, `flatpak`…, nil when the name has none.
    public let launcher: String?
    /// Unescaped and checked: `org.gnome.Terminal`.
    public let applicationID: String

    /// `/proc/PID/cgroup` is a few hundred bytes; more than this is refused whole.
    public static let maximumBytes = 64 * 1024
    /// A cgroup path is at most PATH_MAX (4096); a longer line refuses the file.
    public static let maximumLineBytes = 4 * 1024
    /// systemd's UNIT_NAME_MAX.
    public static let maximumUnitBytes = 256

    /// The app unit of a process from its `/proc/PID/cgroup`: the cgroup v2 (unified) line
    /// `0::/…`, else the v1 line of the `name=systemd` hierarchy (`1:name=systemd:/…`); of its
    /// path, the last component that is an app unit (starts with `app-`, ends in `.scope` or
    /// `.service`; slices such as `app.slice` and other units such as `session-2.scope` or
    /// `run-u123.scope` are not). Nil when there is none, when that component's name does not
    /// parse (an earlier one is not tried), when the file holds two unified lines or two
    /// `name=systemd` lines (the kernel writes one), or when a bound is passed.
    public init?(cgroup: some Collection<UInt8>) {
        guard cgroup.count <= Self.maximumBytes, let path = Self.systemdPath(Array(cgroup)) else { return nil }
        guard let unit = path.split(separator: UInt8(ascii: "/")).last(where: Self.isAppUnit) else { return nil }
        self.init(unitName: unit)
    }

    /// One unit name (`app-flatpak-org.gnome.Calculator-98765.scope`), by the rules above.
    public init?(unitName: some Collection<UInt8>) {
        let name = Array(unitName)
        guard name.count <= Self.maximumUnitBytes, Self.isAppUnit(name[...]),
              let text = String(validating: name, as: UTF8.self) else { return nil }
        let kind: Kind = name.hasSuffix(".scope") ? .scope : .service
        var body = Array(name.dropFirst(4).dropLast(kind == .scope ? 6 : 8))
        if kind == .service, let at = body.firstIndex(of: UInt8(ascii: "@")) { body = Array(body[..<at]) }
        var parts = body.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard !parts.contains(where: \.isEmpty) else { return nil }
        if kind == .scope {
            guard parts.count >= 2, parts.last!.allSatisfy(ApplicationID.isAlphanumeric) else { return nil }
            parts.removeLast()
        }
        var launcher: String?
        if parts.count >= 2, parts[0].allSatisfy(ApplicationID.isAlphanumeric) {
            launcher = String(decoding: parts[0], as: UTF8.self)
            parts.removeFirst()
        }
        let escaped = Array(parts.joined(separator: [UInt8(ascii: "-")]))
        guard let id = Self.unescape(escaped), ApplicationID.isValid(bytes: id) else { return nil }
        self.unit = text
        self.kind = kind
        self.launcher = launcher
        self.applicationID = String(decoding: id, as: UTF8.self)
    }

    /// The cgroup path of systemd's hierarchy, as bytes, or nil.
    static func systemdPath(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var unified: ArraySlice<UInt8>?, named: ArraySlice<UInt8>?
        var unifiedCount = 0, namedCount = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            guard line.count <= maximumLineBytes else { return nil }
            // hierarchy-ID:controller-list:cgroup-path; the path may hold colons itself.
            let fields = line.split(separator: UInt8(ascii: ":"), maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[2].first == UInt8(ascii: "/") else { continue }
            if fields[0].elementsEqual("0".utf8), fields[1].isEmpty {
                unified = fields[2]
                unifiedCount += 1
            } else if fields[1].split(separator: UInt8(ascii: ",")).contains(where: { $0.elementsEqual("name=systemd".utf8) }) {
                named = fields[2]
                namedCount += 1
            }
        }
        if unifiedCount > 1 { return nil }
        if let unified { return unified }
        return namedCount == 1 ? named : nil
    }

    static func isAppUnit(_ component: ArraySlice<UInt8>) -> Bool {
        component.starts(with: "app-".utf8) && (component.hasSuffix(".scope") || component.hasSuffix(".service"))
    }

    /// systemd's unit name escaping undone: `\xNN` (two hex digits) is the byte NN; any other
    /// backslash is refused.
    static func unescape(_ bytes: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            guard index + 3 < bytes.count, bytes[index + 1] == UInt8(ascii: "x"),
                  let high = Hex.digitValue(bytes[index + 2]), let low = Hex.digitValue(bytes[index + 3]) else { return nil }
            out.append(high << 4 | low)
            index += 4
        }
        return out
    }

}

extension Collection<UInt8> {
    func hasSuffix(_ suffix: String) -> Bool {
        let tail = Array(suffix.utf8)
        return count >= tail.count && dropFirst(count - tail.count).elementsEqual(tail)
    }
}
