import ServiceLifecycle
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

/// Look-ups a watch's bus handlers ask for (its service appeared, or said its properties went
/// stale), carried out one at a time by the watch's own task. The handlers run on the bus's
/// thread, which must never wait for a peer, so they only ask. Asking again while a look-up waits
/// its turn changes nothing: that one will read the newest state anyway.
struct LookUps: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1)) }

    func ask() { continuation.yield() }

    /// The requests, ending at graceful shutdown or when the task is cancelled.
    var requests: AsyncCancelOnGracefulShutdownSequence<AsyncStream<Void>> { stream.cancelOnGracefulShutdown() }
}
