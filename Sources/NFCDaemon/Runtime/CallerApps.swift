import AppIdentity
import DesktopEntries
import Systemd

/// Who a caller is, as the core keeps it (``CallerApp``): its identity from the bus
/// (``CallerIdentification``), named and pictured by the desktop entry of its app ID.
enum CallerApps {
    /// nil: the caller could not be told (its process gone, its sandbox unreadable); the core
    /// refuses its calls.
    /// `webHosts`: the executables of nfcscan's own web host (``Daemon/Configuration/webHosts``).
    static func identify(_ caller: String, bus: BusConnection, applications: ApplicationDirectories?,
                         webHosts: Set<String>) async -> CallerApp? {
        guard let identity = await CallerIdentification.identify(caller, bus: bus), let key = identity.key else { return nil }
        let entry = identity.desktopFileID.flatMap { id in applications.flatMap { desktopEntry(id, in: $0) } }
        var summary = "\(key), \(identity.sandbox == .flatpak ? "flatpak" : "unsandboxed"), pid \(identity.pid), uid \(identity.uid)"
        if !identity.problems.isEmpty { summary += " (\(identity.problems.joined(separator: "; ")))" }
        let webHost = identity.sandbox == .none && identity.executable.map(webHosts.contains) == true
        if webHost { summary += ", nfcscan's web host" }
        return CallerApp(key: key, appID: identity.appID, name: identity.displayName(entry: entry).text,
                         icon: identity.icon(entry: entry) ?? "", sandboxed: identity.sandbox != .none, summary: summary,
                         mayNameSites: webHost)
    }

    /// The desktop entry `id` in the first application directory that has it (as the Desktop
    /// Entry Specification finds a desktop file ID), read within the reader's bounds; nil when
    /// none has it or it does not parse.
    static func desktopEntry(_ id: DesktopFileID, in directories: ApplicationDirectories) -> DesktopEntry? {
        for directory in directories.paths {
            let path = directory + "/" + id.value
            guard case .success(let bytes) = ApplicationDirectoryReader.contents(of: path) else { continue }
            guard let file = try? DesktopEntryFile(bytes: bytes), let entry = try? DesktopEntry(id: id, path: path, file: file),
                  !entry.isHidden else { return nil }
            return entry
        }
        return nil
    }
}
