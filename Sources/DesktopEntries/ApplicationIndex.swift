/// The installed applications: every desktop file found, merged as the Desktop Entry
/// Specification says (the first directory holding an ID wins; an entry with `Hidden=true`
/// hides the ID from every later directory), and what changed since the previous look. Pure:
/// ``ApplicationDirectoryReader`` does the reading.
public struct ApplicationIndex: Sendable, Equatable {
    /// One desktop file as read: its ID, where, and its bytes or why they could not be read.
    public struct Found: Sendable, Equatable {
        public let id: DesktopFileID
        public let path: String
        /// Index into the directories, most important first.
        public let directory: Int
        public let contents: Result<[UInt8], DesktopEntryProblem>

        public init(id: DesktopFileID, path: String, directory: Int, contents: Result<[UInt8], DesktopEntryProblem>) {
            self.id = id
            self.path = path
            self.directory = directory
            self.contents = contents
        }
    }

    /// A file that is not used, and why (for the log: path and line).
    public struct Refusal: Sendable, Equatable, CustomStringConvertible {
        public let path: String
        public let problem: DesktopEntryProblem
        public init(path: String, problem: DesktopEntryProblem) {
            self.path = path
            self.problem = problem
        }

        public var description: String { problem.line > 0 ? "\(path):\(problem.line): \(problem.detail)" : "\(path): \(problem.detail)" }
    }

    /// The entry in force for each ID (hidden ones left out), in ID order.
    public let entries: [DesktopEntry]
    public let refused: [Refusal]
    /// Each ID's place in ``entries`` (the first, should one repeat): lookups by ID are made for
    /// every object offered.
    private let positions: [String: Int]

    public init(entries: [DesktopEntry] = [], refused: [Refusal] = []) {
        self.entries = entries
        self.refused = refused
        positions = Dictionary(entries.enumerated().map { ($1.id.value, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Merges `found` (any order). An unreadable or invalid file is refused and does not count:
    /// the next directory's file of that ID is used; so is one whose `TryExec` program
    /// `isExecutable` does not find (the app is not really installed).
    public init(found: [Found], isExecutable: (String) -> Bool = { _ in true }) {
        var winners: [DesktopFileID: DesktopEntry] = [:]
        var refused: [Refusal] = []
        for file in found.sorted(by: { ($0.directory, $0.path) < ($1.directory, $1.path) }) where winners[file.id] == nil {
            do throws(DesktopEntryProblem) {
                let bytes = try file.contents.get()
                let entry = try DesktopEntry(id: file.id, path: file.path, file: DesktopEntryFile(bytes: bytes))
                if let program = entry.tryExec, !entry.isHidden, !isExecutable(program) {
                    throw DesktopEntryProblem(line: entry.value(of: "TryExec")?.line ?? 0, "TryExec: \(program) is not installed")
                }
                winners[file.id] = entry
            } catch {
                refused.append(Refusal(path: file.path, problem: error))
            }
        }
        self.init(entries: winners.values.filter { !$0.isHidden }.sorted { $0.id < $1.id }, refused: refused)
    }

    public func entry(_ id: DesktopFileID) -> DesktopEntry? { entry(id: id.value) }

    /// The entry whose desktop file ID is `value` (`org.gnome.Contacts.desktop`), as
    /// mimeapps.list names apps.
    public func entry(id value: String) -> DesktopEntry? { positions[value].map { entries[$0] } }

    /// What is new, gone or different, by ID.
    public struct Changes: Sendable, Equatable {
        public var added: [DesktopFileID] = []
        public var removed: [DesktopFileID] = []
        public var changed: [DesktopFileID] = []
        public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

        /// Between two lists of values by ID (each ID once), in the order of `after` (`removed`: of `before`).
        public init<Value: Equatable>(before: [(id: DesktopFileID, value: Value)], after: [(id: DesktopFileID, value: Value)]) {
            let old = Dictionary(before.map { ($0.id, $0.value) }, uniquingKeysWith: { first, _ in first })
            let new = Set(after.map(\.id))
            for (id, value) in after {
                if let previous = old[id] { if previous != value { changed.append(id) } } else { added.append(id) }
            }
            removed = before.map(\.id).filter { !new.contains($0) }
        }
    }

    /// What is new, gone or different in `self` compared with `previous`.
    public func changes(since previous: ApplicationIndex) -> Changes {
        Changes(before: previous.entries.map { ($0.id, $0) }, after: entries.map { ($0.id, $0) })
    }
}
