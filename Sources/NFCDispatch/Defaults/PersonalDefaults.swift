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
    /// `DBusActivatable=true`: opened with `org.freedesktop.Application.Open` at its bus name,
    /// the bus starting it; else started through ``exec``.
    public let dbusActivatable: Bool
    public let exec: ExecCommandLine?

    public init(_ entry: DesktopEntry) {
        id = entry.id
        name = entry.name
        icon = entry.icon
        path = entry.path
        dbusActivatable = entry.dbusActivatable
        exec = entry.exec
    }
}

/// The person's own default apps as the daemon last read them (mimeapps.list and the installed
/// desktop entries): who takes content no app asked for.
public struct PersonalDefaults: Sendable, Equatable {
    public let applications: DefaultApplications
    public let index: ApplicationIndex

    public init(applications: DefaultApplications = .init(lists: []), index: ApplicationIndex = .init()) {
        self.applications = applications
        self.index = index
    }

    /// The app that opens `mimeType`, if one is installed that can be started with what it gets:
    /// D-Bus activation, or an Exec line taking a link (`x-scheme-handler/…`) or a file.
    public func app(for mimeType: String) -> DefaultApp? {
        let isLink = mimeType.hasPrefix("x-scheme-handler/")
        let usable = { (entry: DesktopEntry) -> Bool in
            if entry.dbusActivatable { return true }
            guard let exec = entry.exec else { return false }
            switch exec.valueCode {
            case .url?, .urls?: return true
            case .file?, .files?: return !isLink
            default: return false
            }
        }
        let entries = Dictionary(index.entries.map { ($0.id.value, $0) }, uniquingKeysWith: { first, _ in first })
        let declaring = index.entries.filter { $0.mimeTypes.contains(mimeType) }.map(\.id.value)
        let id = applications.defaultApp(for: mimeType, declaring: declaring) { id in entries[id].map(usable) ?? false }
        return id.flatMap { entries[$0] }.map(DefaultApp.init)
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
