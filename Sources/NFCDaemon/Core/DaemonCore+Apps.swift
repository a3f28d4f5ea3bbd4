import DBusValues
import NFCDispatch

/// Installed apps that declare what they handle (desktop entries), and the listing of every app
/// the daemon may send objects to.
extension DaemonCore {
    /// The application directories changed: the registry's declarations follow at once, so an
    /// app installed or removed counts for the next object.
    mutating func installedChanged(_ apps: InstalledApps) {
        let changes = apps.changes(since: installed)
        let previousRefusals = Set(installed.refusals)
        for declaration in apps.declarations where changes.added.contains(declaration.id) {
            log(.info, "\(declaration.appName) (\(declaration.id)) can receive objects while it is not running", ["file": declaration.path])
        }
        for declaration in apps.declarations where changes.changed.contains(declaration.id) {
            log(.info, "\(declaration.appName) (\(declaration.id)) changed what it declares", ["file": declaration.path])
        }
        for declaration in installed.declarations where changes.removed.contains(declaration.id) {
            log(.info, "\(declaration.appName) (\(declaration.id)) no longer declares objects it handles")
        }
        for refusal in apps.refusals where !previousRefusals.contains(refusal) {
            log(.warning, "a desktop entry's declaration is ignored: \(refusal)")
        }
        installed = apps
        registry.declarations = apps.declarations
    }

    /// The person's default apps were read again: the next object no app asked for goes by them.
    /// A mimeapps.list that cannot be read is named once, when it becomes unreadable.
    mutating func defaultsChanged(_ new: PersonalDefaults) {
        for refusal in new.refusals where !defaults.refusals.contains(refusal) {
            log(.warning, "a list of default apps is ignored: \(refusal)")
        }
        defaults = new
    }

    /// ListApps's answer: each registration (running apps), then each declaration (`aa{sv}`);
    /// and the refused declarations, `path:line: why` (`as`).
    var appsValues: [DBusValue] { [appsValue, .strings(installed.refusals)] }

    private var appsValue: DBusValue {
        var apps: [DBusValue] = registry.registrations.map { registration in
            var fields: [String: DBusValue] = [
                "app-name": .string(registration.appName), "running": .boolean(true),
                "registration": .uint32(registration.id), "filters": Self.filtersValue(registration.filters),
            ]
            if let entry = registration.desktopEntry { fields["desktop-entry"] = .string(entry) }
            return .vardict(fields)
        }
        apps += installed.declarations.map { declaration in
            let launch: String
            switch declaration.launch {
            case .dbusActivation: launch = "dbus-activation"
            case .exec: launch = "exec"
            }
            return .vardict([
                "app-name": .string(declaration.appName), "desktop-entry": .string(declaration.id.name),
                "running": .boolean(registry.running(declaration.id.name) != nil), "file": .string(declaration.path),
                "launch": .string(launch), "filters": Self.filtersValue(declaration.filters),
            ])
        }
        return .array(elementSignature: "a{sv}", apps)
    }

    static func filtersValue(_ filters: [HandlerFilter]) -> DBusValue {
        .array(elementSignature: "a{sv}", filters.map { filter in .vardict(filter.fields.mapValues { .string($0) }) })
    }
}
