#if canImport(Glibc)
import Glibc
#endif
import NFCTags
import PCSC
import Synchronization

/// A reader reached through pcscd (PC/SC).
///
/// Waiting costs nothing: the reader blocks in `SCardGetStatusChange` with no timeout on its
/// own context (and thread), for this reader and the `\\?PnP?\Notification` pseudo-reader, and
/// pcscd answers when something changed. It passes back the state pcscd last reported, with
/// pcsc-lite's event counter in the high 16 bits, so a removal and an arrival between two calls
/// still show (the counter moved by two while a card is present: the old one is announced gone
/// and the new one arrived). Closing calls `SCardCancel`, which ends the wait at once.
///
/// On arrival the reader connects shared on a second context (exchanges never wait behind the
/// watch), identifies the card from its ATR (``PCSCCardIdentity``), asks its UID with the Part 3
/// GET DATA `FF CA 00 00 00`, and hands out a ``PCSCTransport``. The UID and the read each run
/// inside a PC/SC transaction, so another program sharing the card cannot slip commands between
/// ours; while it holds a transaction of its own, ours waits for it. Once the object is read
/// (``DetectedObject/release()``) the connection is dropped, leaving the card free for other
/// programs while the watch still sees it leave. On removal the transport is retired (later
/// exchanges are ``TransportError/objectRemoved``).
///
/// Another client may hold the card exclusively (a wallet or smart-card app:
/// SCARD_E_SHARING_VIOLATION on connect). That is reported as ``ReaderEvent/heldElsewhere(_:)``,
/// not a failure, and since pcscd wakes no waiter when a client lets go, the reader then looks
/// again every ``heldRetry`` until it can connect or the card leaves (the one poll here: there is
/// no event to wait for).
public final class PCSCReader: Reader, Sendable {
    public let name: String
    public let backend = ReaderBackend.pcsc
    private let watcher: PCSCContext
    private let cards: PCSCContext
    private let run = ReaderRun()
    /// Whether this reader passes frames to the object (asked once, with its first card that needs it).
    public let passThroughMemory = PCSCPassThroughMemory()

    public var status: ReaderStatus { run.status }

    private init(name: String, watcher: PCSCContext, cards: PCSCContext) {
        self.name = name
        self.watcher = watcher
        self.cards = cards
    }

    /// The socket the PC/SC client library uses.
    public static var socketPath: String {
        getenv("PCSCLITE_CSOCK_NAME").map { String(cString: $0) } ?? "/run/pcscd/pcscd.comm"
    }

    /// A context, with pcscd's refusals explained.
    static func establish() async throws(ReaderError) -> PCSCContext {
        do { return try await PCSCContext.establish() } catch { throw explain(error, reader: nil) }
    }

    /// The readers pcscd knows now.
    public static func readerNames() async throws(ReaderError) -> [String] {
        let context = try await establish()
        let names: [String]
        do { names = try await context.readers() } catch {
            await context.release()
            throw explain(error, reader: nil)
        }
        await context.release()
        return names
    }

    /// Opens the reader named `name` (or pcscd's first).
    public static func open(_ name: String? = nil) async throws(ReaderError) -> PCSCReader {
        let watcher = try await establish()
        let cards: PCSCContext
        do { cards = try await PCSCContext.establish() } catch {
            await watcher.release()
            throw explain(error, reader: name)
        }
        let names: [String]
        do { names = try await watcher.readers() } catch {
            await watcher.release(); await cards.release()
            throw explain(error, reader: name)
        }
        guard let chosen = name.map({ wanted in names.first { $0 == wanted } }) ?? names.first else {
            await watcher.release(); await cards.release()
            throw .noReaderFound(searched: name.map { "pcscd lists no reader named \($0)" } ?? "pcscd lists no reader")
        }
        return PCSCReader(name: chosen, watcher: watcher, cards: cards)
    }

    /// A PC/SC failure as a reader problem people can act on.
    public static func explain(_ error: PCSCError, reader: String?) -> ReaderError {
        switch error.kind {
        case .noService, .serviceStopped: .pcscdNotRunning(socket: socketPath)
        case .sharingViolation: .heldExclusively(reader: reader ?? "?")
        case .securityViolation, .noAccess: .pcscAccessDenied(detail: error.description)
        case .noReadersAvailable: .noReaderFound(searched: "pcscd lists no reader")
        case .unknownReader, .readerUnavailable: .readerGone(reader: reader ?? "?", detail: error.description)
        default: .pcsc(error)
        }
    }

    public func events() -> AsyncThrowingStream<ReaderEvent, any Error> {
        run.events(watch: { continuation in await self.watch(continuation) }, onTermination: { [watcher] in watcher.cancel() })
    }

    public func close() async {
        let task = run.close()
        if let task {
            task.cancel()
            // SCardCancel ends a wait that has reached pcscd; one that had not yet is caught by
            // the next cancel (a shutdown race of microseconds, so this loop runs once or twice).
            let ended = Atomic(false)
            let waiter = Task { await task.value; ended.store(true, ordering: .releasing) }
            while !ended.load(ordering: .acquiring) {
                watcher.cancel()
                try? await Task.sleep(for: .milliseconds(20))
            }
            await waiter.value
        }
        await watcher.release()
        await cards.release()
    }

    private var isClosed: Bool { run.status == .closed }

    private func setStatus(_ status: ReaderStatus) { run.set(status) }

    /// How often a card held exclusively by another client is tried again.
    public static let heldRetry: UInt32 = 1000

    private enum Arrival {
        case connected(Present)
        /// The card left before it could be connected to.
        case gone
        /// Another client holds it exclusively.
        case heldElsewhere
    }

    private struct Present {
        var card: PCSCCard
        var transport: PCSCTransport
        var identifier: [UInt8]
        var identity: PCSCCardIdentity
    }

    private func watch(_ continuation: AsyncThrowingStream<ReaderEvent, any Error>.Continuation) async {
        var states = [PCSCReaderState(reader: name), PCSCReaderState(reader: PCSCReaderState.plugAndPlay)]
        var present: Present?
        var lastCount: Int?
        var heldElsewhere = false
        func setHeldElsewhere(_ held: Bool) {
            guard held != heldElsewhere else { return }
            heldElsewhere = held
            continuation.yield(.heldElsewhere(held))
        }
        func leave() async {
            guard let gone = present else { return }
            present = nil
            gone.transport.retire()
            await gone.card.disconnect(.leave)
            setStatus(.searching)
            continuation.yield(.removed(identifier: gone.identifier))
        }
        do {
            while !Task.isCancelled && !isClosed {
                if heldElsewhere {
                    // Nothing will wake this wait when the other client lets go: look again after a while.
                    if let changed = try await retryWait(states) { states = changed }
                } else {
                    states = try await watcher.statusChange(states)
                }
                let reader = states[0]
                if reader.flags.contains(.unknown) || reader.flags.contains(.ignore) {
                    await leave()
                    throw Self.explain(.unknownReader, reader: name)
                }
                let cardThere = reader.flags.contains(.present) && !reader.flags.contains(.mute)
                let count = reader.eventCount
                // The counter moved by two or more while a card stayed: one left and another came.
                let swapped = lastCount.map { count - $0 >= 2 } ?? false
                if present != nil && (!cardThere || swapped) { await leave() }
                if !cardThere { setHeldElsewhere(false) }
                if cardThere && (present == nil) {
                    switch try await arrive(atr: reader.atr) {
                    case .connected(let arrived): present = arrived; setHeldElsewhere(false)
                    case .heldElsewhere: setHeldElsewhere(true)
                    case .gone: break
                    }
                    if let present {
                        setStatus(.objectPresent)
                        continuation.yield(.arrived(DetectedObject(identifier: present.identifier, technology: .pcscCard(present.identity.technology, atr: present.identity.atr),
                                                                   platform: present.transport.platform, link: present.transport)))
                    }
                }
                lastCount = count
                for index in states.indices { states[index].acknowledge() }
            }
            await leave()
            continuation.finish()
        } catch let error as PCSCError where error.kind == .cancelled {
            await leave()
            continuation.finish()
        } catch let error as ReaderError {
            await leave()
            setStatus(.failed(error))
            continuation.finish(throwing: error)
        } catch let error as PCSCError {
            await leave()
            let failure = Self.explain(error, reader: name)
            setStatus(.failed(failure))
            continuation.finish(throwing: failure)
        } catch {
            await leave()
            continuation.finish(throwing: error)
        }
    }

    /// A status change, or nil when ``heldRetry`` passed without one.
    private func retryWait(_ states: [PCSCReaderState]) async throws(PCSCError) -> [PCSCReaderState]? {
        do {
            return try await watcher.statusChange(states, timeout: Self.heldRetry)
        } catch {
            if error.kind == .timeout { return nil }
            throw error
        }
    }

    /// Connects to the card that arrived (a card that came and went between two calls is not
    /// announced).
    private func arrive(atr reportedATR: [UInt8]) async throws -> Arrival {
        let card: PCSCCard
        do {
            card = try await cards.connect(name, share: .shared)
        } catch let error where [.removedCard, .noSmartcard, .unresponsiveCard, .unpoweredCard].contains(error.kind) {
            return .gone
        } catch let error where error.kind == .sharingViolation {
            return .heldElsewhere
        } catch {
            throw Self.explain(error, reader: name)
        }
        let atr = (try? await card.status().atr) ?? reportedATR
        let identity = PCSCCardIdentity(atr: atr)
        let transport = PCSCTransport(card: card, platform: identity.platform, mifareClassicSize: identity.mifareClassicSize,
                                      passThroughMemory: passThroughMemory)
        var identifier: [UInt8] = []
        do {
            identifier = try await transport.identifier()
        } catch .objectRemoved {
            await card.disconnect()
            return .gone
        } catch {}
        return .connected(Present(card: card, transport: transport, identifier: identifier, identity: identity))
    }
}
