/// The `[Desktop Entry]` group of an application's desktop file, read as the Desktop Entry
/// Specification says: what a launcher needs to name and start the app. Locale variants
/// (`Name[de]`) are not read: the daemon names apps in its own catalog's language and takes the
/// untranslated Name, which every entry must have.
///
/// An entry that hides itself (`Hidden=true`) is kept as ``isHidden`` rather than refused: it
/// still shadows entries of the same ID in later directories (the spec's way of "deleting" an
/// installed app). `NoDisplay=true` only keeps an app out of menus; it still handles what it
/// declares, as for MIME types. `TryExec` needs the file system, so it is left to the caller
/// (``tryExec``).
public struct DesktopEntry: Sendable, Equatable {
    public static let groupName = "Desktop Entry"

    /// The desktop file ID (`org.example.Posters.desktop`).
    public let id: DesktopFileID
    /// Where it was read from, for logs and `%k`.
    public let path: String
    public let name: String
    public let icon: String?
    public let exec: ExecCommandLine?
    public let tryExec: String?
    public let dbusActivatable: Bool
    /// `Hidden=true`: the app counts as deleted; nothing else of the entry is read (``name`` is empty).
    public let isHidden: Bool
    public let noDisplay: Bool
    /// The whole file, for keys of other specifications (`X-…`) read by their own code.
    public let file: DesktopEntryFile

    /// Interprets `file` (read from `path`) as the application `id`. Throws the first problem
    /// with its line: a missing or malformed required key, a value not of its type.
    public init(id: DesktopFileID, path: String, file: DesktopEntryFile) throws(DesktopEntryProblem) {
        self.id = id
        self.path = path
        self.file = file
        guard let group = file.group(Self.groupName) else { throw DesktopEntryProblem(line: 0, "no [Desktop Entry] group") }
        guard file.groups.first?.name == Self.groupName else {
            throw DesktopEntryProblem(line: group.line, "[Desktop Entry] must be the first group")
        }
        func boolean(_ key: String) throws(DesktopEntryProblem) -> Bool {
            guard let entry = group.entry(key) else { return false }
            guard let value = DesktopEntryValue.boolean(entry.rawValue) else {
                throw DesktopEntryProblem(line: entry.line, "\(key) must be true or false")
            }
            return value
        }
        func string(_ key: String) throws(DesktopEntryProblem) -> String? {
            guard let entry = group.entry(key) else { return nil }
            guard let value = DesktopEntryValue.string(entry.rawValue) else {
                throw DesktopEntryProblem(line: entry.line, "\(key) holds an escape other than \\s \\n \\t \\r \\\\")
            }
            return value
        }
        isHidden = try boolean("Hidden")
        // A hidden entry only deletes its ID (`[Desktop Entry]` and `Hidden=true` are enough).
        if isHidden {
            (name, icon, tryExec, exec, noDisplay, dbusActivatable) = ("", nil, nil, nil, false, false)
            return
        }
        noDisplay = try boolean("NoDisplay")
        dbusActivatable = try boolean("DBusActivatable")
        guard let type = group.entry("Type") else { throw DesktopEntryProblem(line: group.line, "no Type key") }
        guard type.rawValue == "Application" else {
            throw DesktopEntryProblem(line: type.line, "Type is \(type.rawValue.prefix(32)), not Application")
        }
        guard let name = try string("Name"), !name.isEmpty else {
            throw DesktopEntryProblem(line: group.entry("Name")?.line ?? group.line, "no Name")
        }
        self.name = name
        icon = try string("Icon").flatMap { $0.isEmpty ? nil : $0 }
        tryExec = try string("TryExec").flatMap { $0.isEmpty ? nil : $0 }
        if let execEntry = group.entry("Exec") {
            guard let text = DesktopEntryValue.string(execEntry.rawValue) else {
                throw DesktopEntryProblem(line: execEntry.line, "Exec holds an escape other than \\s \\n \\t \\r \\\\")
            }
            do { exec = try ExecCommandLine(text) } catch { throw DesktopEntryProblem(line: execEntry.line, error.description) }
        } else {
            exec = nil
        }
        if !dbusActivatable, exec == nil {
            throw DesktopEntryProblem(line: group.line, "neither Exec nor DBusActivatable=true: the app cannot be started")
        }
    }

    /// The unlocalised value of `key` in the `[Desktop Entry]` group, and its line.
    public func value(of key: String) -> (raw: String, line: Int)? {
        file.group(Self.groupName)?.entry(key).map { ($0.rawValue, $0.line) }
    }
}

/// A desktop file ID (Desktop Entry Specification, "Desktop File ID"): the file's path below an
/// `applications` directory with `/` turned into `-` (`kde/konsole.desktop` is
/// `kde-konsole.desktop`).
public struct DesktopFileID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// With the `.desktop` suffix.
    public let value: String

    /// From the path below the applications directory; nil unless it names a `.desktop` file
    /// with a usable name (no empty or dot-led component).
    public init?(relativePath: String) {
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard relativePath.hasSuffix(".desktop"), relativePath.utf8.count > ".desktop".utf8.count,
              components.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }) else { return nil }
        value = components.joined(separator: "-")
    }

    /// The ID without `.desktop`: the app's D-Bus name when it is D-Bus activatable.
    public var name: String { String(value.dropLast(".desktop".count)) }

    /// The app's well-known bus name, if the ID is a valid one (reverse DNS, at least two
    /// elements, none starting with a digit, at most 255 bytes).
    public var busName: String? {
        let elements = name.split(separator: ".", omittingEmptySubsequences: false)
        guard elements.count >= 2, name.utf8.count <= 255 else { return nil }
        for element in elements {
            guard let first = element.unicodeScalars.first, !("0"..."9").contains(first),
                  element.unicodeScalars.allSatisfy({ DesktopEntryFile.isASCIIAlphanumeric($0) || $0 == "_" || $0 == "-" }) else {
                return nil
            }
        }
        return name
    }

    /// The object path an activatable app serves, made from its bus name as the Desktop Entry
    /// Specification does for `org.freedesktop.Application`: `.` → `/`, `-` → `_`
    /// (`org.example.Posters` → `/org/example/Posters`).
    public var objectPath: String? {
        busName.map { "/" + $0.replacing(".", with: "/").replacing("-", with: "_") }
    }

    public static func < (lhs: DesktopFileID, rhs: DesktopFileID) -> Bool { lhs.value < rhs.value }

    public var description: String { value }
}
