import CLibNFC
import Dispatch
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
public final class LibNFCContext: @unchecked Sendable {
    let pointer: OpaquePointer
    private let queue = DispatchQueue(label: "libnfc.context")

    public init() throws(LibNFCError) {
        var context: OpaquePointer?
        Self.lifecycle.withLock { _ in nfc_init(&context) }
        guard let context else { throw .contextUnavailable }
        pointer = context
    }

    deinit {
        let pointer = pointer
        Self.lifecycle.withLock { _ in nfc_exit(pointer) }
    }

    /// `nfc_init` and `nfc_exit` update libnfc's process-wide state (its log set-up counter and
    /// configuration) without a lock of their own: two contexts made or ended at once on different
    /// threads crash inside libnfc. One lock for the whole process serialises them.
    private static let lifecycle = Mutex(())

    /// The connstrings of the devices libnfc knows: user-defined ones first (from the
    /// configuration and `LIBNFC_DEVICE`, listed without being opened unless marked optional),
    /// then what autoscan found.
    public func listDevices(limit: Int = 16) async -> [String] {
        await withCheckedContinuation { continuation in
            queue.async {
                let size = MemoryLayout<nfc_connstring>.stride
                let buffer = UnsafeMutableRawPointer.allocate(byteCount: size * limit, alignment: 8)
                defer { buffer.deallocate() }
                buffer.initializeMemory(as: UInt8.self, repeating: 0, count: size * limit)
                let found = nfc_list_devices(self.pointer, buffer.bindMemory(to: nfc_connstring.self, capacity: limit), limit)
                let list = (0..<min(found, limit)).map { i in
                    String(cString: (buffer + i * size).assumingMemoryBound(to: CChar.self))
                }
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
                let device = connstring.map { nfc_open(self.pointer, $0) } ?? nfc_open(self.pointer, nil)
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
