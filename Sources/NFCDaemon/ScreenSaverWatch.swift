import Systemd

/// Whether the session's screensaver is active (the screen blanked or locked), from
/// org.freedesktop.ScreenSaver on the session bus: GetActive when it appears, then its
/// ActiveChanged signal. `changed` gets nil while no screensaver serves that name.
final class ScreenSaverWatch: Sendable {
    static let service = "org.freedesktop.ScreenSaver"
    static let path = "/org/freedesktop/ScreenSaver"
    private let subscriptions = LockedValue<[BusSubscription]>([])

    init(bus: BusConnection, changed: @escaping @Sendable (Bool?) -> Void) throws(BusError) {
        let fetch: @Sendable () -> Void = {
            Task {
                let reply = try? await bus.call(destination: Self.service, path: Self.path, interface: Self.service,
                                                member: "GetActive", timeout: .seconds(10))
                changed(reply?.first?.boolValue)
            }
        }
        let active = try bus.addMatch(
            "type='signal',sender='\(Self.service)',interface='\(Self.service)',member='ActiveChanged'"
        ) { signal in
            if let active = signal.arguments.first?.boolValue { changed(active) }
        }
        let owner = try bus.watchOwner(of: Self.service) { present in
            if present { fetch() } else { changed(nil) }
        }
        subscriptions.withLock { $0 = [active, owner] }
        fetch()
    }

    func cancel() {
        for subscription in subscriptions.withLock({ $0 }) { subscription.cancel() }
    }

    deinit { cancel() }
}
