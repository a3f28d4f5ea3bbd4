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

extension DesktopEntry {
    /// The MIME types the app says it opens (`MimeType=`); empty when it names none or the value
    /// is not a list.
    public var mimeTypes: [String] {
        value(of: "MimeType").flatMap { DesktopEntryValue.list($0.raw) }?.map { $0.lowercased() } ?? []
    }
}
