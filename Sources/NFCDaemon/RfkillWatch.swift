import Dispatch
import Glibc

/// Airplane mode as the kernel sees it: every radio (Wi-Fi, Bluetooth, mobile…) blocked, by
/// software or by a hardware switch. Read from `/dev/rfkill`, which on open reports every radio
/// (an ADD event each) and then each change, as 8-byte `struct rfkill_event` records (idx u32,
/// type, op, soft, hard); a dispatch source wakes on each. The sysfs view
/// (`/sys/class/rfkill/*/soft`) is not used: its attributes do not notify.
///
/// The path is configurable, so tests present a FIFO speaking the same records. (Unchecked
/// Sendable: the dispatch source is only set up in init and cancelled.)
final class RfkillWatch: @unchecked Sendable {
    private let source: DispatchSourceRead

    /// Starts reading `path`; `changed` gets whether airplane mode is on, first once the radios
    /// present are known and then on every change. Nil when the device cannot be opened (no
    /// rfkill in this kernel, or no permission): the source is then absent.
    init?(path: String = "/dev/rfkill", changed: @escaping @Sendable (Bool) -> Void) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        // A FIFO stand-in is opened for writing too, so it never reads as ended between writers.
        let isFIFO = (status.st_mode & S_IFMT) == S_IFIFO
        let descriptor = open(path, (isFIFO ? O_RDWR : O_RDONLY) | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: DispatchQueue(label: "nfcscand.rfkill"))
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
        source.setEventHandler { if let now = drain() { changed(now) } }
        source.setCancelHandler { close(descriptor) }
        // The kernel queues an ADD event per radio at open: the first state is known at once.
        changed(drain() ?? false)
        source.resume()
    }

    func cancel() { source.cancel() }

    deinit { source.cancel() }
}
