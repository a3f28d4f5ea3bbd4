import Dispatch
import Foundation
import NFCSim
import Testing

/// An emulated PN532 served on a pseudo-terminal from a thread of the test process: what libnfc
/// (the reader under test, nfcscan, libnfc's own tools) opens as `pn532_uart:<pty>` through the
/// real driver, with no hardware and no second process. `close()` stops the thread (bounded: an
/// issue is recorded if it does not end within 5 s) and removes the pseudo-terminal.
public final class EmulatedPN532: @unchecked Sendable {
    public let host: PN532PTYHost
    private let finished = DispatchSemaphore(value: 0)

    public init(_ emulator: PN532Emulator) throws {
        host = try PN532PTYHost(emulator: emulator)
        let host = self.host, finished = self.finished
        Thread {
            do { try host.run() } catch { Issue.record("the PN532 host failed: \(error)") }
            finished.signal()
        }.start()
    }

    /// The LIBNFC_DEVICE naming it.
    public var connstring: String { host.connstring }

    public func close() {
        host.stop()
        if finished.wait(timeout: .now() + 5) == .timedOut { Issue.record("the PN532 host did not stop") }
        host.shutdown()
    }
}
