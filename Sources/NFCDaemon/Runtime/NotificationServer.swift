import DBusValues
import NFCDispatch
import Systemd

/// The desktop's notification server (org.freedesktop.Notifications, Desktop Notifications
/// Specification 1.2), as the daemon uses it: post, replace, withdraw, and learn what the person
/// did through `ActionInvoked` / `NotificationClosed`.
///
/// The server may be absent or restart: every call simply tries, and ``NotificationSignal/serverChanged``
/// tells the daemon that ids from before mean nothing now (``NotificationSignal``).
///
/// Only the server's own signals count. `ActionInvoked` is what makes nfcscand hand an object to
/// an app, and any program on the session bus can emit a signal with that name: one that guessed
/// a notification id (they count up from 1) would choose an offer in the person's place. So a
/// signal is taken only from the unique name that owns org.freedesktop.Notifications, learnt
/// before each Notify (GetNameOwner) and from NameOwnerChanged.
public final class NotificationServer: Sendable {
    public static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    private let bus: BusConnection
    private let subscriptions: [BusSubscription]
    /// The server's unique name as last learnt; nil: none known (no signal counts).
    private let owner: LockedValue<String?>

    /// Follows the server's signals and its comings and goings, reporting them to `events`.
    init(bus: BusConnection, events: @escaping @Sendable (NotificationSignal) -> Void) throws(BusError) {
        self.bus = bus
        let owner = LockedValue<String?>(nil)
        self.owner = owner
        let rule = "type='signal',interface='\(Self.name)',path='\(Self.path)'"
        let signals = try bus.addMatch(rule) { signal in
            guard let server = owner.withLock({ $0 }), signal.sender == server else { return }
            switch (signal.member, signal.arguments.first?.intValue, signal.arguments.dropFirst().first) {
            case ("ActionInvoked", let id?, let key?):
                if let key = key.stringValue, let id = UInt32(exactly: id) { events(.actionInvoked(id: id, actionKey: key)) }
            case ("NotificationClosed", let id?, let reason?):
                if let id = UInt32(exactly: id), let reason = reason.intValue { events(.closed(id: id, reason: UInt32(clamping: reason))) }
            default: break
            }
        }
        let ownerChanges = try bus.addMatch(
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.name)'"
        ) { signal in
            let newOwner = signal.arguments.last?.stringValue ?? ""
            owner.withLock { $0 = newOwner.isEmpty ? nil : newOwner }
            events(.serverChanged(present: !newOwner.isEmpty))
        }
        subscriptions = [signals, ownerChanges]
    }

    /// Shows `content` (replacing notification `replacing` when not 0); returns its id.
    public func notify(_ content: NotificationContent, replacing: UInt32 = 0, timeout: Duration = .seconds(5)) async throws(BusError) -> UInt32 {
        await learnOwner(timeout: timeout)
        let markup = await supportsBodyMarkup(timeout: timeout)
        var hints: [String: DBusValue] = [
            "category": .string(content.hints.category),
            "transient": .boolean(content.hints.transient),
            "urgency": .byte(content.hints.urgency.rawValue),
        ]
        if let entry = content.hints.desktopEntry { hints["desktop-entry"] = .string(entry) }
        let reply = try await bus.call(destination: Self.name, path: Self.path, interface: Self.name, member: "Notify", [
            .string(content.appName), .uint32(replacing), .string(content.appIcon), .string(content.summary),
            .string((markup ? content.body : content.plainBody) ?? ""),
            .strings(content.actions.flatMap { [$0.key, $0.label] }),
            .vardict(hints), .int32(content.expireTimeout),
        ], timeout: timeout)
        guard let id = reply.first?.intValue, let id32 = UInt32(exactly: id) else {
            throw .marshal("Notify answered \(reply) instead of an id")
        }
        return id32
    }

    /// Withdraws notification `id`.
    public func close(_ id: UInt32) {
        try? bus.send(destination: Self.name, path: Self.path, interface: Self.name, member: "CloseNotification", [.uint32(id)])
    }

    /// Whether a server owns the name now, or the bus would start one for a Notify (an activatable
    /// name); true when the bus does not answer (nothing is known to be wrong).
    func isAvailable(timeout: Duration) async -> Bool {
        let deadline = min(timeout, .seconds(2))
        guard let owned = try? await bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                              interface: "org.freedesktop.DBus", member: "NameHasOwner", [.string(Self.name)],
                                              timeout: deadline).first?.boolValue else { return true }
        if owned { return true }
        guard let activatable = try? await bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                    interface: "org.freedesktop.DBus", member: "ListActivatableNames",
                                                    timeout: deadline).first?.arrayValue else { return true }
        return activatable.contains(.string(Self.name))
    }

    /// Asks the bus who owns the server's name now, so that the signals about the notification
    /// about to be shown are recognised as the server's.
    private func learnOwner(timeout: Duration) async {
        guard let reply = try? await bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                              interface: "org.freedesktop.DBus", member: "GetNameOwner", [.string(Self.name)],
                                              timeout: min(timeout, .seconds(2))),
              let unique = reply.first?.stringValue else { return }
        owner.withLock { $0 = unique }
    }

    /// Whether the server renders `<b>`, `<a>` … in bodies (then bodies go escaped; else plain).
    /// Asked each time: a restarted server may be another program.
    private func supportsBodyMarkup(timeout: Duration) async -> Bool {
        guard let reply = try? await bus.call(destination: Self.name, path: Self.path, interface: Self.name,
                                              member: "GetCapabilities", timeout: min(timeout, .seconds(2))),
              let capabilities = reply.first?.arrayValue else { return true }
        return capabilities.contains(.string("body-markup"))
    }

    deinit { for subscription in subscriptions { subscription.cancel() } }
}
