import DesktopEntries

/// The installed apps that declare what they handle, read from the application directories:
/// the declarations in force and the desktop files that tried to declare and were refused (for
/// the log and `nfcscan apps`, so a developer sees why their app receives nothing).
public struct InstalledApps: Hashable, Sendable {
    /// In desktop file ID order.
    public let declarations: [AppDeclaration]
    /// `path:line: why`, for files that mention ``AppDeclaration/filtersKey`` only: a broken
    /// desktop file of some other app is not ours to report.
    public let refusals: [String]

    public init(declarations: [AppDeclaration] = [], refusals: [String] = []) {
        self.declarations = declarations
        self.refusals = refusals
    }

    /// The declarations of `index`'s entries. `mentionsKey` says whether a refused file's bytes
    /// mention the key at all (the reader has them; the index keeps only the outcome).
    public init(index: ApplicationIndex, mentionsKey: (String) -> Bool) {
        var declarations: [AppDeclaration] = []
        var refusals = index.refused.filter { mentionsKey($0.path) }.map(\.description)
        for entry in index.entries {
            do throws(DesktopEntryProblem) {
                if let declaration = try AppDeclaration(entry) { declarations.append(declaration) }
            } catch {
                refusals.append(ApplicationIndex.Refusal(path: entry.path, problem: error).description)
            }
        }
        self.declarations = declarations
        self.refusals = refusals.sorted()
    }

    /// Which declarations are new, gone or different in `self` compared with `previous`.
    public func changes(since previous: InstalledApps) -> ApplicationIndex.Changes {
        .init(before: previous.declarations.map { ($0.id, $0) }, after: declarations.map { ($0.id, $0) })
    }

    /// Whether `bytes` mention the key (a file to report when it is refused).
    public static func mentionsKey(_ bytes: [UInt8]) -> Bool {
        let key = Array(AppDeclaration.filtersKey.utf8)
        guard bytes.count >= key.count else { return false }
        return (0...(bytes.count - key.count)).contains { bytes[$0..<$0 + key.count].elementsEqual(key) }
    }
}
