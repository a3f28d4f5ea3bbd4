import Systemd

extension BusConnection {
    /// Calls `handler` with true when `service` gets an owner (it started, or restarted) and with
    /// false when it loses it: how the condition sources notice a service come and go.
    func watchOwner(of service: String, _ handler: @escaping @Sendable (_ present: Bool) -> Void) throws(BusError) -> BusSubscription {
        try addMatch(
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(service)'"
        ) { signal in
            guard signal.arguments.count == 3 else { return }
            handler(!(signal.arguments[2].stringValue?.isEmpty ?? true))
        }
    }
}
