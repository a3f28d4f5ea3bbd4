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
                    let ids = entry.value.split(separator: ";").map { String($0.drop { $0 == " " }) }.filter { !$0.isEmpty }
                    table[entry.key.lowercased(), default: []].append(contentsOf: ids)
                }
            }
            return table
        }
        self.init(defaults: table(Self.defaultsGroup),
                  added: desktopSpecific ? [:] : table(Self.addedGroup),
                  removed: desktopSpecific ? [:] : table(Self.removedGroup))
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

/// The person's default app for a MIME type, as `xdg-mime query default` and GIO find it.
public struct DefaultApplications: Sendable, Equatable {
    /// The lists in the order of ``MimeAppsList/searchPath(environment:)``.
    public let lists: [MimeAppsList]

    public init(lists: [MimeAppsList]) { self.lists = lists }

    /// The default for `type`: the first installed ID in the first list whose
    /// `[Default Applications]` names one; else the most preferred association — each list's
    /// defaults and additions in turn, minus what that list or an earlier one removed, then the
    /// apps whose own `MimeType=` lists the type (`declaring`, in data-directory order), minus
    /// every removal. Nil: nothing on this computer takes it.
    ///
    /// `isInstalled` answers whether a desktop file ID names an app that may be started (present,
    /// not hidden, its program there).
    public func defaultApp(for type: String, declaring: [String], isInstalled: (String) -> Bool) -> String? {
        let type = type.lowercased()
        for list in lists {
            if let id = list.defaults[type]?.first(where: isInstalled) { return id }
        }
        var removed: Set<String> = []
        for list in lists {
            let candidates = (list.defaults[type] ?? []) + (list.added[type] ?? [])
            if let id = candidates.first(where: { !removed.contains($0) && isInstalled($0) }) { return id }
            removed.formUnion(list.removed[type] ?? [])
        }
        return declaring.first { !removed.contains($0) && isInstalled($0) }
    }
}
