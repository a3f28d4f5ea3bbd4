import DesktopEntries
import NDEFReport

/// An installed app the person chose (or their system chose for them) for a kind of content:
/// what the offer names and how it is started.
public struct DefaultApp: Hashable, Sendable {
    public let id: DesktopFileID
    /// Its `Name`, as the person knows it.
    public let name: String
    public let icon: String?
    /// Where its desktop file is (`%k`, and the log).
    public let path: String
    /// Started through its Exec line, as xdg-open does, also for an app that is D-Bus
    /// activatable (such apps keep an Exec line that hands over to the running instance).
    public let exec: ExecCommandLine

    /// Nil for an entry without an Exec line.
    public init?(_ entry: DesktopEntry) {
        guard let exec = entry.exec else { return nil }
        id = entry.id
        name = entry.name
        icon = entry.icon
        path = entry.path
        self.exec = exec
    }
}

/// The person's own default apps as the daemon last read them (mimeapps.list and the installed
/// desktop entries): who takes content no app asked for.
public struct PersonalDefaults: Sendable, Equatable {
    public let applications: DefaultApplications
    public let index: ApplicationIndex
    /// `path:line: why` for each mimeapps.list that could not be read (for the log).
    public let refusals: [String]

    public init(applications: DefaultApplications = .init(lists: []), index: ApplicationIndex = .init(), refusals: [String] = []) {
        self.applications = applications
        self.index = index
        self.refusals = refusals
    }

    /// The defaults from the mimeapps.list files as read (``MimeAppsList/searchPath(environment:)``
    /// order; nil contents: the file does not exist, as most do not) and the installed apps.
    /// A file that cannot be read as a whole counts as absent, and is named in ``refusals``.
    public init(files: [(path: String, desktopSpecific: Bool, contents: Result<[UInt8], DesktopEntryProblem>?)], index: ApplicationIndex) {
        var lists: [MimeAppsList] = []
        var refusals: [String] = []
        for file in files {
            guard let contents = file.contents else { continue }
            do throws(DesktopEntryProblem) {
                lists.append(MimeAppsList(file: try DesktopEntryFile(bytes: try contents.get(), keys: .mimeTypes), desktopSpecific: file.desktopSpecific))
            } catch {
                refusals.append(ApplicationIndex.Refusal(path: file.path, problem: error).description)
            }
        }
        self.init(applications: DefaultApplications(lists: lists), index: index, refusals: refusals)
    }

    /// The app that opens `mimeType`, if one is installed that can be started with what it gets:
    /// an Exec line taking a link (`%u`, for `x-scheme-handler/…`) or a file (`%f` or `%u`).
    public func app(for mimeType: String) -> DefaultApp? {
        let isLink = mimeType.hasPrefix("x-scheme-handler/")
        let usable = { (entry: DesktopEntry) -> Bool in
            guard let exec = entry.exec else { return false }
            switch exec.valueCode {
            case .url?, .urls?: return true
            case .file?, .files?: return !isLink
            default: return false
            }
        }
        let declaring = index.entries.filter { $0.mimeTypes.contains(mimeType) }.map(\.id.value)
        let id = applications.defaultApp(for: mimeType, declaring: declaring) { id in index.entry(id: id).map(usable) ?? false }
        return id.flatMap(index.entry(id:)).flatMap(DefaultApp.init)
    }

    /// What the person's defaults take from `report` (``DefaultContent/choice(in:hasDefaultApp:canJoinNetworks:)``)
    /// and the app that takes it (nil for a web link, which goes to the browser, and a network).
    public func choice(for report: ReportValue, canJoinNetworks: Bool) -> (content: DefaultContent, app: DefaultApp?)? {
        var apps: [String: DefaultApp] = [:]
        let content = DefaultContent.choice(in: report, hasDefaultApp: { type in
            guard let app = app(for: type) else { return false }
            apps[type] = app
            return true
        }, canJoinNetworks: canJoinNetworks)
        return content.map { ($0, $0.mimeType.flatMap { apps[$0] }) }
    }
}
