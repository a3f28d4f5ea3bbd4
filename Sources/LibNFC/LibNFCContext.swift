import CLibNFC
import Dispatch
import POSIXEvents
import Synchronization

/// A libnfc context (`nfc_init` … `nfc_exit`).
///
/// libnfc reads its configuration once, here: `/etc/nfc/libnfc.conf`, `/etc/nfc/devices.d/*.conf`
/// and the environment (`LIBNFC_DEVICE` names the only user-defined device; `LIBNFC_DEFAULT_DEVICE`
/// one more; `LIBNFC_AUTO_SCAN` (default true) lets ``listDevices(limit:)`` also scan USB for
/// PN53x and ACR122 readers; `LIBNFC_INTRUSIVE_SCAN` (default false) would also probe serial
/// ports, which can upset other serial devices). This wrapper never changes them: they are the
/// administrator's and the user's way to point libnfc at a reader. A caller that must see only
/// the devices it names (tests against an emulated PN532) sets `LIBNFC_AUTO_SCAN=false` in the
/// environment of the process before the first context, or opens its connstring directly
/// with ``open(_:)`` without listing.
///
/// Listing and opening run on the context's own serial queue: `nfc_list_devices` opens and
/// closes optional devices and edits `LIBNFC_LOG_LEVEL` in the environment while it does.
///
/// The libnfc context is a ``QueueBound`` on that queue (listing, opening); `deinit`, when
/// nothing else holds the context, hands it to the lock that retires contexts.
public final class LibNFCContext: Sendable {
    private let pointer: QueueBound<OpaquePointer>
    private var queue: DispatchQueue { pointer.queue }

    public init() throws(LibNFCError) {
        var context: OpaquePointer?
        Self.lifecycle.withLock { contexts in
            nfc_init(&context)
            if context != nil { contexts.live += 1 }
        }
        guard let context else { throw .contextUnavailable }
        pointer = QueueBound(context, queue: DispatchQueue(label: "libnfc.context"))
    }

    deinit {
        // The last holder is gone: nothing can be on the queue with it.
        let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer.valueForConcurrentUse)))
        Self.lifecycle.withLock { contexts in
            contexts.live -= 1
            contexts.retired.append(address)
            guard contexts.live == 0 else { return }
            for retired in contexts.retired { if let context = OpaquePointer(bitPattern: retired) { nfc_exit(context) } }
            contexts.retired = []
        }
    }

    /// libnfc keeps process-wide state beside its contexts, without a lock of its own: its log
    /// set-up counter, and the list of drivers, which `nfc_init` fills only when it is empty and
    /// every `nfc_exit` empties. So a context ended while another lives took the drivers from
    /// under it: its next `nfc_open` failed at once with "No driver available to handle
    /// pn532_uart:…" (the reader tests' rare "libnfc could not open", up to half of the runs on a
    /// loaded machine). Contexts are made and ended under one lock, and an ended context is kept
    /// (it is small) until no other lives; then all of them are exited together.
    private static let lifecycle = Mutex<(live: Int, retired: [UInt])>((0, []))

    /// The connstrings of the devices libnfc knows: user-defined ones first (from the
    /// configuration and `LIBNFC_DEVICE`, listed without being opened unless marked optional),
    /// then what autoscan found. An empty one is no device: libnfc lists `LIBNFC_DEVICE=` (set
    /// to nothing) as the only user-defined device, which no `nfc_open` can open; without it
    /// the list is what autoscan found, as ``LibNFCConfiguration`` reads that setting.
    public func listDevices(limit: Int = 16) async -> [String] {
        await withCheckedContinuation { continuation in
            queue.async {
                let size = MemoryLayout<nfc_connstring>.stride
                let buffer = UnsafeMutableRawPointer.allocate(byteCount: size * limit, alignment: 8)
                defer { buffer.deallocate() }
                buffer.initializeMemory(as: UInt8.self, repeating: 0, count: size * limit)
                let found = nfc_list_devices(self.pointer.value, buffer.bindMemory(to: nfc_connstring.self, capacity: limit), limit)
                let list = (0..<min(found, limit)).map { i in
                    String(cString: (buffer + i * size).assumingMemoryBound(to: CChar.self))
                }.filter { !$0.isEmpty }
                continuation.resume(returning: list)
            }
        }
    }

    /// Opens a device by connstring (`pn532_uart:/dev/ttyUSB0`, `pn53x_usb:001:004`, …); nil opens
    /// the first device libnfc lists. libnfc opens blocking (a PN532 on a serial line sleeps
    /// 50 ms, then wakes the chip), so this runs off the cooperative pool.
    public func open(_ connstring: String?) async throws(LibNFCError) -> LibNFCDevice {
        let result: Result<LibNFCDevice, LibNFCError> = await withCheckedContinuation { continuation in
            queue.async {
                let device = connstring.map { nfc_open(self.pointer.value, $0) } ?? nfc_open(self.pointer.value, nil)
                guard let device else {
                    continuation.resume(returning: .failure(.openFailed(connstring: connstring ?? "(first listed)")))
                    return
                }
                continuation.resume(returning: .success(LibNFCDevice(device, context: self)))
            }
        }
        return try result.get()
    }
}
