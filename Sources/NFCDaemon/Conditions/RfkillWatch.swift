import Glibc
import Logging
import POSIXEvents
import ServiceLifecycle
import SystemPackage

/// Airplane mode as the kernel sees it: every radio (Wi-Fi, Bluetooth, mobile…) blocked, by
/// software or by a hardware switch. Read from `/dev/rfkill`, which on open reports every radio
/// (an ADD event each) and then each change, as 8-byte `struct rfkill_event` records (idx u32,
/// type, op, soft, hard); the daemon's ``PollLoop`` wakes on each. The sysfs view
/// (`/sys/class/rfkill/*/soft`) is not used: its attributes do not notify.
///
/// The path is configurable, so tests present a FIFO speaking the same records.
final class RfkillWatch: ConditionWatch {
    let path: String
    let source = ConditionSource.rfkill
    let logger: Logger
    private let loop: PollLoop
    private let changed: @Sendable (Bool?) -> Void

    /// `changed` is told, once ``watch()`` runs, whether airplane mode is on: first once the
    /// radios present are known, then (on the loop's thread) on every change.
    init(path: String = "/dev/rfkill", loop: PollLoop, logger: Logger, changed: @escaping @Sendable (Bool?) -> Void) {
        self.path = path
        self.loop = loop
        self.logger = logger
        self.changed = changed
    }

    /// Reads the device on the loop, which owns the descriptor, until graceful shutdown or
    /// cancellation. Throws at once when the device cannot be opened (no rfkill in this kernel,
    /// or no permission): the source is then absent.
    func watch() async throws(SourceUnavailable) {
        let path = path, changed = changed
        var status = stat()
        // Cannot tell (nil) before giving up: the daemon waits for this source's first word.
        guard stat(path, &status) == 0 else { changed(nil); throw SourceUnavailable(path) }
        // A FIFO stand-in is opened for writing too, so it never reads as ended between writers.
        let isFIFO = (status.st_mode & S_IFMT) == S_IFIFO
        let descriptor = open(path, (isFIFO ? O_RDWR : O_RDONLY) | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { changed(nil); throw SourceUnavailable(path) }
        let state = LockedValue<(radios: [UInt32: Radio], pending: [UInt8], reported: Bool?)>(([:], [], nil))
        /// Reads what is there and returns the new state, or nil when it did not change.
        let drain: @Sendable () -> Bool? = {
            // One record per read: the kernel hands out one event per read(2), cut to the size
            // asked for, so asking 8 bytes also suits kernels whose events are longer (5.11's
            // rfkill_event_ext), and a FIFO's byte stream is read the same way.
            var buffer = [UInt8](repeating: 0, count: Event.size)
            var bytes: [UInt8] = []
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count <= 0 { break }
                bytes += buffer[0..<count]
            }
            return state.withLock { state -> Bool? in
                state.pending += bytes
                while state.pending.count >= Event.size {
                    if let event = Event(state.pending.prefix(Event.size)) { Self.apply(event, to: &state.radios) }
                    state.pending.removeFirst(Event.size)
                }
                let airplane = Self.airplaneMode(state.radios)
                guard airplane != state.reported else { return nil }
                state.reported = airplane
                return airplane
            }
        }
        // The kernel queues an ADD event per radio at open: the first state is known at once.
        changed(drain() ?? false)
        let watch = loop.add(FileDescriptor(rawValue: descriptor), events: .readable) { _ in
            if let now = drain() { changed(now) }
            return .keepWatching
        }
        defer { loop.remove(watch) }
        try? await gracefulShutdown()
    }
}
