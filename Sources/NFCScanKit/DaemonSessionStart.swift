import DBusValues
import NFCBusAPI
import Synchronization
import Systemd

/// How a client starts one of nfcscand's sessions (a scan session, a write session): it listens
/// for the session's signals before the call (a session may end before the reply is read), keeps
/// those that come before the reply names the session's path, then hands the first prompt and the
/// kept signals over, in order. ``DaemonScanSession`` and ``DaemonWriteSession`` differ only in
/// what their signals mean (`deliver`).
enum DaemonSessionStart {
    static let busName = ScannerAPI.busName
    static let path = ScannerAPI.path

    struct Started<Event: Sendable>: Sendable {
        let objectPath: String
        let events: AsyncStream<Event>
        let sink: AsyncStream<Event>.Continuation
        let subscription: BusSubscription
    }

    static func start<Event: Sendable>(_ member: String, options: DBusValue, interface: String, namespace: String,
                                       on bus: BusConnection, prompt: @escaping @Sendable (String) -> Event,
                                       deliver: @escaping @Sendable (BusSignal, AsyncStream<Event>.Continuation) -> Void)
        async throws(BusError) -> Started<Event> {
        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        let pending = Mutex<(path: String?, early: [BusSignal])>((nil, []))
        let handle: @Sendable (BusSignal) -> Void = { signal in
            let path = pending.withLock { state -> String? in
                if state.path == nil { state.early.append(signal) }
                return state.path
            }
            if let path, signal.path == path { deliver(signal, sink) }
        }
        let subscription = try bus.addMatch("type='signal',sender='\(busName)',path_namespace='\(namespace)'", handler: handle)
        let reply: [DBusValue]
        do {
            reply = try await bus.call(destination: busName, path: path, interface: ScannerAPI.interface, member: member, [options])
        } catch {
            subscription.cancel()
            throw error
        }
        guard case .objectPath(let objectPath)? = reply.first else {
            subscription.cancel()
            throw .marshal("\(member) answered \(reply)")
        }
        if let text = try? await bus.call(destination: busName, path: objectPath, interface: "org.freedesktop.DBus.Properties",
                                          member: "Get", [.string(interface), .string("AlertMessage")]).first?.stringValue {
            sink.yield(prompt(text))
        }
        let early = pending.withLock { state -> [BusSignal] in
            state.path = objectPath
            defer { state.early = [] }
            return state.early
        }
        for signal in early where signal.path == objectPath { deliver(signal, sink) }
        return Started(objectPath: objectPath, events: events, sink: sink, subscription: subscription)
    }
}
