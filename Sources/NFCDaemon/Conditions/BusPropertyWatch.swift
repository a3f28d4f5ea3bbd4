import DBusValues
import Logging
import Systemd

/// Follows one object's properties on a system service that may start, stop or never exist
/// (NetworkManager, a logind session): `changed` gets all of them after every change, or nil
/// while the service is absent. Event-driven: PropertiesChanged and NameOwnerChanged, one GetAll
/// when the service appears.
///
/// Made inert: it subscribes only while ``watch()`` runs, so the service group, not whoever
/// made it, decides how long it lives.
final class BusPropertyWatch: ConditionWatch {
    let source: ConditionSource
    let logger: Logger
    private let bus: BusConnection
    private let service: String
    private let path: String
    private let interface: String
    private let changed: @Sendable ([String: DBusValue]?) -> Void

    init(source: ConditionSource, bus: BusConnection, service: String, path: String, interface: String, logger: Logger,
         changed: @escaping @Sendable ([String: DBusValue]?) -> Void) {
        self.source = source
        self.bus = bus
        self.service = service
        self.path = path
        self.interface = interface
        self.logger = logger
        self.changed = changed
    }

    /// Throws at once when the bus refuses the subscriptions.
    func watch() async throws(BusError) {
        let bus = bus, service = service, path = path, interface = interface, changed = changed
        // The last GetAll, merged with each change since: PropertiesChanged carries only the changed ones.
        let properties = LockedValue<[String: DBusValue]?>(nil)
        let lookUps = LookUps()
        let changes = try bus.addMatch(
            "type='signal',sender='\(service)',path='\(path)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='\(interface)'"
        ) { signal in
            guard signal.arguments.count == 3, let updated = signal.arguments[1].stringKeyedValue else { return }
            let invalidated = signal.arguments[2].arrayValue?.compactMap(\.stringValue) ?? []
            if !invalidated.isEmpty { return lookUps.ask() }
            let all = properties.withLock { current -> [String: DBusValue]? in
                guard current != nil else { return nil }
                current!.merge(updated) { $1 }
                return current
            }
            if let all { changed(all) }
        }
        defer { changes.cancel() }
        let owner = try bus.watchOwner(of: service) { present in
            guard !present else { return lookUps.ask() }
            properties.withLock { $0 = nil }
            changed(nil)
        }
        defer { owner.cancel() }
        lookUps.ask()
        for await _ in lookUps.requests {
            let reply = try? await bus.call(destination: service, path: path, interface: "org.freedesktop.DBus.Properties",
                                            member: "GetAll", [.string(interface)], timeout: .seconds(10))
            let all = reply?.first?.stringKeyedValue
            properties.withLock { $0 = all }
            changed(all)
        }
    }
}
