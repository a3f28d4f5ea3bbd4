import ServiceLifecycle
import Systemd

/// Feeds systemd's watchdog (WatchdogSec) through the daemon's loop: it only asks for a ping
/// (``Daemon/heartbeat()``), and the core answers each heartbeat with it, so a ping proves
/// that inputs are being handled, not merely that this timer runs. Listed before the daemon in
/// the group, so it keeps asking while the daemon stops.
public struct WatchdogService: Service {
    private let daemon: Daemon
    /// How often to ask: half the ping interval systemd wants, so one late turn of the loop is
    /// not yet a missed ping.
    private let every: Duration

    /// Nil when systemd does not watch this process (no WATCHDOG_USEC): there is nothing to feed.
    public init?(daemon: Daemon, interval: Duration? = ServiceManager.watchdogInterval) {
        guard let interval else { return nil }
        self.daemon = daemon
        every = interval / 2
    }

    public func run() async {
        let every = every
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            daemon.heartbeat()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: every) }
        }
    }
}

/// A bus connection as a service of the group: it closes the connection at the group's end. It is
/// listed first, so a graceful shutdown (which goes through the services in reverse) closes it
/// only once the daemon and the watches using it have stopped.
///
/// The bus is the daemon's life: a connection that ends on its own (the bus went away, or
/// dropped nfcscand, as dbus-daemon does to a connection that sends a message over its limit)
/// fails the service, so the whole group ends and nfcscand exits non-zero for systemd to restart
/// it, instead of living on unreachable, still feeding the watchdog.
public struct BusService: Service {
    private let bus: BusConnection

    /// Why the service failed: the connection ended while the daemon still needed it.
    public struct Lost: Error, CustomStringConvertible {
        public let reason: BusError
        public var description: String { "the bus connection ended: \(reason)" }
    }

    public init(_ bus: BusConnection) { self.bus = bus }

    public func run() async throws {
        let (ended, end) = AsyncStream.makeStream(of: BusError.self, bufferingPolicy: .bufferingNewest(1))
        bus.onClose { reason in
            end.yield(reason)
            end.finish()
        }
        // Ends with the group's graceful shutdown, or cancelled (another service failed).
        let lost = await cancelWhenGracefulShutdown { await ended.first { _ in true } }
        bus.close()
        if let lost { throw Lost(reason: lost) }
    }
}
