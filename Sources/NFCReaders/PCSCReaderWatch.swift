import PCSC
import POSIXEvents
import Synchronization

/// Tells when pcscd's reader list may have changed, for hotplug: a reader plugged in, a vpcd
/// reader appearing when pcscd starts, pcscd itself starting or stopping.
///
/// While pcscd runs this costs nothing: one `SCardGetStatusChange` with no timeout on the
/// `\\?PnP?\Notification` pseudo-reader, on a context of its own. pcsc-lite compares its reader
/// count with the count the caller passes in the high 16 bits of the pseudo-reader's
/// `dwCurrentState`, so the watch starts from the count `SCardListReaders` gives (a reader added
/// in between makes the first wait return at once) and then passes back what pcscd reported.
///
/// While pcscd is not running there is nothing to wait on through PC/SC: the client library
/// answers `SCARD_E_NO_SERVICE` at once (it looks for the socket on each `SCardEstablishContext`).
/// So the watch follows pcscd's socket with inotify (``PathWatch``: through its directory, or
/// the nearest ancestor that exists while the directory does not) and tries again when it
/// changes: pcscd binding it, listening and then opening its permissions (`chmod`) wakes the
/// watch, so a pcscd that starts late is reached as soon as it accepts clients, and idle costs
/// nothing. Without inotify it tries every ``retryInterval`` (2 s) instead.
enum PCSCReaderWatch {
    static let retryInterval: Duration = .seconds(2)
    static let failedContextPause: Duration = .milliseconds(250)

    private final class Current: Sendable {
        let context = Mutex<PCSCContext?>(nil)
        let stopped = Atomic(false)
    }

    /// One element per possible change (coalesced: the latest only), starting with one when
    /// pcscd is reached. Ends when the consumer stops listening.
    static func changes(socket: String = PCSCReader.socketPath) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let current = Current()
        let task = Task {
            // The socket is followed only while pcscd cannot be reached (a thread of its own).
            var socketChange: AsyncStream<Void>.Iterator?, inotify = true
            /// Until pcscd's socket changes (or the fallback interval passes). A new watch answers
            /// once at once, so a socket made before it was set up is tried.
            func untilSocketChanges() async {
                if socketChange == nil, inotify {
                    socketChange = PathWatch.changes(paths: [socket], thread: "pcscd-socket")?.makeAsyncIterator()
                    inotify = socketChange != nil
                }
                guard socketChange != nil else { try? await Task.sleep(for: retryInterval); return }
                // An ended watch would answer at once from then on: fall back to the interval.
                if await socketChange?.next() == nil { (socketChange, inotify) = (nil, false) }
            }
            while !current.stopped.load(ordering: .acquiring) {
                let context: PCSCContext
                do { context = try await PCSCContext.establish() } catch {
                    await untilSocketChanges()
                    continue
                }
                current.context.withLock { $0 = context }
                socketChange = nil
                continuation.yield()
                do {
                    let count = try await context.readers().count
                    var pnp = PCSCReaderState(reader: PCSCReaderState.plugAndPlay, known: UInt(count) << 16)
                    while !current.stopped.load(ordering: .acquiring) {
                        pnp = try await context.statusChange([pnp])[0]
                        if pnp.flags.contains(.unknown) {
                            // A pcsc-lite without PnP notification: fall back to the bounded rate.
                            try await Task.sleep(for: retryInterval)
                        }
                        pnp.acknowledge()
                        continuation.yield()
                    }
                } catch {
                    // Cancelled, or pcscd stopped (its readers fail on their own): start again.
                }
                current.context.withLock { $0 = nil }
                await context.release()
                // Soon back to establishing: pcscd may be there still (a failure of this context
                // only); if it stopped, the next try fails and waits for its socket. The pause
                // bounds the rate should pcscd keep failing contexts it accepted.
                if !current.stopped.load(ordering: .acquiring) {
                    continuation.yield()
                    try? await Task.sleep(for: failedContextPause)
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in
            current.stopped.store(true, ordering: .releasing)
            task.cancel()
            current.context.withLock { $0?.cancel() }
        }
        return stream
    }
}
