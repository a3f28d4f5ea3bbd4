/// One `mimeapps.list` (XDG MIME Applications Associations 1.0.1): the person's, an administrator's
/// or the distribution's choice of apps per MIME type.
public struct MimeAppsList: Sendable, Equatable {
    /// `[Default Applications]`: type → desktop file IDs, most wanted first.
    public var defaults: [String: [String]]
    /// `[Added Associations]`.
    public var added: [String: [String]]
    /// `[Removed Associations]`.
    public var removed: [String: [String]]

    public static let defaultsGroup = "Default Applications"
    public static let addedGroup = "Added Associations"
    public static let removedGroup = "Removed Associations"

    public init(defaults: [String: [String]] = [:], added: [String: [String]] = [:], removed: [String: [String]] = [:]) {
        self.defaults = defaults
        self.added = added
        self.removed = removed
    }

    /// The list from its groups' `(key, value)` entries (in file order). Types compare
    /// case-insensitively; values are `;`-separated desktop file IDs, empty items dropped.
    /// A desktop-specific file (`gnome-mimeapps.list`) may only set defaults (the spec), so its
    /// other groups are ignored.
    public init(groups: [(name: String, entries: [(key: String, value: String)])], desktopSpecific: Bool) {
        func table(_ name: String) -> [String: [String]] {
            var table: [String: [String]] = [:]
            for group in groups where group.name == name {
                for entry in group.entries {
                    let ids = (DesktopEntryValue.list(entry.value) ?? []).map { String($0.drop { $0 == " " }) }.filter { !$0.isEmpty }
                    table[entry.key.lowercased(), default: []].append(contentsOf: ids)
                }
            }
            return table
        }
        self.init(defaults: table(Self.defaultsGroup),
                  added: desktopSpecific ? [:] : table(Self.addedGroup),
                  removed: desktopSpecific ? [:] : table(Self.removedGroup))
    }

    /// The list `file` holds (a `mimeapps.list` read as a desktop entry file, the same layout,
    /// with MIME types for keys: `DesktopEntryFile(bytes:keys: .mimeTypes)`).
    public init(file: DesktopEntryFile, desktopSpecific: Bool) {
        self.init(groups: file.groups.map { group in
            (group.name, group.entries.compactMap { entry in entry.locale == nil ? (entry.key, entry.rawValue) : nil })
        }, desktopSpecific: desktopSpecific)
    }

    /// The files to read, most important first (the spec's lookup order): for each of
    /// `$XDG_CONFIG_HOME`, each of `$XDG_CONFIG_DIRS`, `$XDG_DATA_HOME/applications` and each of
    /// `$XDG_DATA_DIRS/applications`, the files of each desktop named in `$XDG_CURRENT_DESKTOP`
    /// (lowercased) before the plain one. Unset or relative variables take the spec's defaults.
    public static func searchPath(environment: [String: String]) -> [(path: String, desktopSpecific: Bool)] {
        func absolute(_ value: String?) -> String? { value.flatMap { $0.hasPrefix("/") ? $0 : nil } }
        func list(_ value: String?, _ fallback: [String]) -> [String] {
            let dirs = (value ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
            return dirs.isEmpty ? fallback : dirs
        }
        let home = absolute(environment["HOME"]) ?? "/"
        let configHome = absolute(environment["XDG_CONFIG_HOME"]) ?? home + "/.config"
        let dataHome = absolute(environment["XDG_DATA_HOME"]) ?? home + "/.local/share"
        let directories = [configHome] + list(environment["XDG_CONFIG_DIRS"], ["/etc/xdg"])
            + ([dataHome] + list(environment["XDG_DATA_DIRS"], ["/usr/local/share", "/usr/share"])).map { $0 + "/applications" }
        let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":")
            .map { String($0).lowercased() }.filter { !$0.isEmpty && !$0.contains("/") }
        return directories.flatMap { directory in
            desktops.map { (directory + "/" + $0 + "-mimeapps.list", true) } + [(directory + "/mimeapps.list", false)]
        }
    }
}
