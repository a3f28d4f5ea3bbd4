#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NFCBusAPI
import Synchronization
import Systemd

/// An inhibitor held on nfcscand (`Scanner1.Inhibit("background", …)`): background reading stays
/// off, with the daemon's readers released, until ``release()`` (or the process ends: the kernel
/// closes the descriptor). For a command that must open a reader itself while the daemon runs.
public final class DaemonInhibitor: Sendable {
    private let descriptor: Mutex<Int32?>

    private init(_ descriptor: Int32) { self.descriptor = Mutex(descriptor) }

    /// Asks nfcscand to let go of the readers; `who` and `why` go to its log and `PausedReasons`.
    public static func take(who: String, why: String, on bus: BusConnection) async throws(BusError) -> DaemonInhibitor {
        let reply = try await bus.call(destination: ScannerAPI.busName, path: ScannerAPI.path, interface: ScannerAPI.interface,
                                       member: "Inhibit", [.string("background"), .string(who), .string(why)], timeout: .seconds(5))
        guard case .unixFD(let descriptor)? = reply.first, descriptor >= 0 else {
            throw BusError.marshal("Inhibit answered without a descriptor")
        }
        return DaemonInhibitor(descriptor)
    }

    /// Background reading may start again.
    public func release() {
        if let descriptor = descriptor.withLock({ value -> Int32? in defer { value = nil }; return value }) { _ = close(descriptor) }
    }

    deinit { release() }
}
