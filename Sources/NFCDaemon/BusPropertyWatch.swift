import Systemd

/// Follows one object's properties on a system service that may start, stop or never exist
/// (NetworkManager, a logind session): `changed` gets all of them after every change, or nil
/// while the service is absent. Event-driven: PropertiesChanged and NameOwnerChanged, one GetAll
/// when the service appears.
final class BusPropertyWatch: Sendable {
    private let subscriptions = LockedValue<[BusSubscription]>([])

    init(bus: BusConnection, service: String, path: String, interface: String,
         changed: @escaping @Sendable ([String: DBusValue]?) -> Void) throws(BusError) {
        let properties = LockedValue<[String: DBusValue]?>(nil)
        let fetch: @Sendable () -> Void = {
            Task {
                let reply = try? await bus.call(destination: service, path: path, interface: "org.freedesktop.DBus.Properties",
                                                member: "GetAll", [.string(interface)], timeout: .seconds(10))
                let all = reply?.first?.stringKeyedValue
                properties.withLock { $0 = all }
                changed(all)
            }
        }
        let changes = try bus.addMatch(
            "type='signal',sender='\(service)',path='\(path)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='\(interface)'"
        ) { signal in
            guard signal.arguments.count == 3, let updated = signal.arguments[1].stringKeyedValue else { return }
            let invalidated = signal.arguments[2].arrayValue?.compactMap(\.stringValue) ?? []
            if !invalidated.isEmpty { return fetch() }
            let all = properties.withLock { current -> [String: DBusValue]? in
                guard current != nil else { return nil }
                current!.merge(updated) { $1 }
                return current
            }
            if let all { changed(all) }
        }
        let owner = try bus.watchOwner(of: service) { present in
            guard !present else { return fetch() }
            properties.withLock { $0 = nil }
            changed(nil)
        }
        subscriptions.withLock { $0 = [changes, owner] }
        fetch()
    }

    func cancel() {
        for subscription in subscriptions.withLock({ $0 }) { subscription.cancel() }
    }

    deinit { cancel() }
}
