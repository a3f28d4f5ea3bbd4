import Logging
import Systemd

/// Whether the session's screensaver is active (the screen blanked or locked), from
/// org.freedesktop.ScreenSaver on the session bus: GetActive when it appears, then its
/// ActiveChanged signal. `changed` gets nil while no screensaver serves that name.
final class ScreenSaverWatch: ConditionWatch {
    static let service = "org.freedesktop.ScreenSaver"
    static let path = "/org/freedesktop/ScreenSaver"
    let source = ConditionSource.screenSaver
    let logger: Logger
    private let bus: BusConnection
    private let changed: @Sendable (Bool?) -> Void

    init(bus: BusConnection, logger: Logger, changed: @escaping @Sendable (Bool?) -> Void) {
        self.bus = bus
        self.logger = logger
        self.changed = changed
    }

    /// Throws at once when the bus refuses the subscriptions.
    func watch() async throws(BusError) {
        let changed = changed
        let lookUps = LookUps()
        let active = try bus.addMatch(
            "type='signal',sender='\(Self.service)',interface='\(Self.service)',member='ActiveChanged'"
        ) { signal in
            if let active = signal.arguments.first?.boolValue { changed(active) }
        }
        defer { active.cancel() }
        let owner = try bus.watchOwner(of: Self.service) { present in
            if present { lookUps.ask() } else { changed(nil) }
        }
        defer { owner.cancel() }
        lookUps.ask()
        for await _ in lookUps.requests {
            let reply = try? await bus.call(destination: Self.service, path: Self.path, interface: Self.service,
                                            member: "GetActive", timeout: .seconds(10))
            changed(reply?.first?.boolValue)
        }
    }
}
