import Authenticity
import LibCrypto
import NDEF
import NFCObjects
import NFCReaders
import NFCTags
import Synchronization

/// Why a scan produced no object.
public enum ScanFailure: Error, Sendable, CustomStringConvertible {
    /// No object arrived before the time was up.
    case timedOut
    /// Every reader failed (the first failure).
    case reader(ReaderError)
    /// An object arrived, but reading it failed.
    case read(TagReadError, readerName: String, identifier: [UInt8])

    public var description: String {
        switch self {
        case .timedOut: "no object arrived in time"
        case .reader(let error): error.description
        case .read(let error, let reader, let identifier):
            "reading the object \(Hex.string(identifier)) on \(reader) failed: \(error)"
        }
    }
}

/// Waits for objects on several readers at once and reads each one as it arrives.
///
/// Each reader announces an object once while it stays in the field, so an object left on the
/// reader is read once; holding it near again (after it left) reads it again.
///
/// Hotplug: given a ``ReaderDirectory``, the session follows every provider that can notify
/// (``ReaderProvider/readerChanges()``: pcscd's PnP notification, libnfc's device nodes) and
/// opens the readers that appear while it waits; a reader that vanishes (its events end) is
/// dropped, opened again if it comes back, and the session keeps waiting until the time is up.
///
/// Structured: making a session starts nothing. Its owner runs ``run()`` beside the calls of
/// ``next(timeout:arrived:)`` (in a task group, or `async let`); `run()` follows each reader's
/// events and each provider's changes as child tasks, and returns once ``close()`` was called.
public final class ScanSession: Sendable {
    private enum Item: Sendable {
        case event(readerIndex: Int, ReaderEvent)
        case ended(readerIndex: Int, (any Error)?)
        case deadline(Int)
    }

    /// What ``run()`` is to follow.
    private enum Follow: Sendable {
        case reader(index: Int, any Reader)
    }

    private struct State {
        var iterator: IteratorBox<Item>?
        var readers: [Int: any Reader] = [:]
        var nextIndex = 0
        var live: Set<Int> = []
        var firstFailure: ReaderError?
        var deadlines = 0
        var closed = false
    }

    private let stream: AsyncStream<Item>
    private let continuation: AsyncStream<Item>.Continuation
    private let follows: AsyncStream<Follow>
    private let follow: AsyncStream<Follow>.Continuation
    /// The providers that notify, for ``run()`` to follow.
    private let notifying: [any ReaderProvider]
    private let wanted: String?
    private let added: @Sendable (any Reader) -> Void
    private let state = Mutex<State>(State())
    /// Whether readers can still appear (some provider notifies).
    private let hotplug: Bool
    /// What to report when the time is up with no reader at all.
    private let noneYet: ReaderError?
    private let removed: @Sendable (any Reader, (any Error)?) -> Void
    private let heldElsewhere: (@Sendable (any Reader, Bool) -> Void)?
    private let departed: @Sendable (any Reader) -> Void
    /// What each object read is checked for; `nfcscan info` checks what it reads with the same.
    public let checks: AuthenticityChecks

    /// The readers open now.
    public var readers: [any Reader] {
        state.withLock { state in state.readers.sorted { $0.key < $1.key }.map(\.value) }
    }

    /// - Parameters:
    ///   - directory: follow its providers' reader changes (hotplug); nil: only `readers`.
    ///   - wanted: with `directory`, open only readers whose name is or contains this.
    ///   - noneYet: the problem to report when the time is up and no reader was ever open.
    ///   - added: called for each reader opened later.
    ///   - removed: called (while ``next(timeout:arrived:)`` waits) for each reader that closed or
    ///     failed, with its failure.
    ///   - heldElsewhere: called when another program starts or stops holding a reader's object
    ///     exclusively; the reader stays open and is read again once it is free. Nil (a one-shot
    ///     scan): such a reader is closed and counts as failed with ``ReaderError/heldExclusively(reader:)``.
    ///   - departed: called (while ``next(timeout:arrived:)`` waits) when an object left a reader.
    ///   - checks: what each object read is checked for (is it genuine: Docs/authenticity.md).
    public init(readers: [any Reader], directory: ReaderDirectory? = nil, wanted: String? = nil,
                noneYet: ReaderError? = nil, added: @escaping @Sendable (any Reader) -> Void = { _ in },
                removed: @escaping @Sendable (any Reader, (any Error)?) -> Void = { _, _ in },
                heldElsewhere: (@Sendable (any Reader, Bool) -> Void)? = nil,
                departed: @escaping @Sendable (any Reader) -> Void = { _ in }, checks: AuthenticityChecks = .openSSL) {
        self.checks = checks
        self.removed = removed
        self.departed = departed
        self.heldElsewhere = heldElsewhere
        self.wanted = wanted
        self.added = added
        (stream, continuation) = AsyncStream.makeStream(of: Item.self)
        (follows, follow) = AsyncStream.makeStream(of: Follow.self)
        notifying = (directory?.providers ?? []).filter(\.notifiesReaderChanges)
        hotplug = !notifying.isEmpty
        self.noneYet = noneYet
        let iterator = stream.makeAsyncIterator()
        state.withLock { $0.iterator = IteratorBox(iterator) }
        for reader in readers { add(reader) }
    }

    /// Follows every reader's events and every notifying provider's changes, each as a child
    /// task, until ``close()``; then ends them all before it returns.
    public func run() async {
        await withDiscardingTaskGroup { group in
            for provider in notifying {
                guard let changes = provider.readerChanges() else { continue }
                group.addTask { [self] in
                    for await _ in changes { await openNew(provider, wanted: wanted, added: added) }
                }
            }
            for await item in follows {
                switch item {
                case .reader(let index, let reader):
                    let events = reader.events(), continuation = continuation
                    group.addTask {
                        do {
                            for try await event in events { continuation.yield(.event(readerIndex: index, event)) }
                            continuation.yield(.ended(readerIndex: index, nil))
                        } catch {
                            continuation.yield(.ended(readerIndex: index, error))
                        }
                    }
                }
            }
            group.cancelAll()
        }
    }

    /// Takes `reader` into the session (``run()`` follows its events); false when the session is
    /// closed. `announce` runs before its events are followed, so what it shows (the prompt to hold
    /// an object near) comes before anything the reader's first object brings.
    @discardableResult
    private func add(_ reader: any Reader, announce: () -> Void = {}) -> Bool {
        let index = state.withLock { state -> Int? in
            guard !state.closed else { return nil }
            defer { state.nextIndex += 1 }
            state.readers[state.nextIndex] = reader
            state.live.insert(state.nextIndex)
            return state.nextIndex
        }
        guard let index else { return false }
        announce()
        follow.yield(.reader(index: index, reader))
        return true
    }

    /// Opens the readers `provider` lists that the session does not have yet.
    private func openNew(_ provider: any ReaderProvider, wanted: String?, added: @Sendable (any Reader) -> Void) async {
        guard let identifiers = try? await provider.identifiers() else { return }
        let open = state.withLock { state in
            Set(state.live.compactMap { state.readers[$0] }.filter { $0.backend == provider.backend }.map(\.identifier))
        }
        for identifier in identifiers where !open.contains(identifier) {
            if let wanted, identifier != wanted, !identifier.contains(wanted) { continue }
            guard let reader = try? await provider.open(identifier) else { continue }
            if !add(reader, announce: { added(reader) }) { await reader.close() }
        }
    }

    /// Waits (at most `timeout`; nil: without limit) for the next object, reads it and returns
    /// it. `arrived` is called when an object has arrived, before it is read.
    ///
    /// `claim` sees each arrival first: when it returns true it has done what it wanted with the
    /// object (nfcscand's write session writes it) and released it, and the object is not read;
    /// the wait goes on (a `timeout` starts again).
    ///
    /// `password` is asked as each object is read: the password the person (or the app whose
    /// session is active) gave for read-protected objects, nil for none.
    public func next(timeout: Duration?, arrived: @Sendable () -> Void = {},
                     claim: @Sendable (DetectedObject) async -> Bool = { _ in false },
                     password: @Sendable () -> [UInt8]? = { nil }) async throws(ScanFailure) -> ScannedObject {
        var (object, reader) = try await nextArrival(timeout: timeout)
        while await claim(object) { (object, reader) = try await nextArrival(timeout: timeout) }
        arrived()
        // Read once, then let go: another program may want the object while it stays.
        do {
            let reading = try await object.readNDEF(password: password())
            await object.release()
            return ScannedObject(readerName: reader.name, backend: reader.backend, identifier: object.identifier,
                                 technology: object.technology, reading: reading, authenticity: checks.examine(reading))
        } catch {
            await object.release()
            throw .read(error, readerName: reader.name, identifier: object.identifier)
        }
    }

    /// Waits (at most `timeout`; nil: without limit) for the next object to arrive and returns it
    /// with its reader, untouched: the caller reads or writes it, then releases it.
    public func nextArrival(timeout: Duration?) async throws(ScanFailure) -> (DetectedObject, any Reader) {
        let deadlineID = state.withLock { state -> Int in state.deadlines += 1; return state.deadlines }
        let timer = timeout.map { timeout in
            Task { [continuation] in
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled { continuation.yield(.deadline(deadlineID)) }
            }
        }
        defer { timer?.cancel() }
        // One caller at a time: the iterator is taken out while it is used.
        guard let box = state.withLock({ state -> IteratorBox<Item>? in defer { state.iterator = nil }; return state.iterator }) else {
            throw .timedOut
        }
        defer { state.withLock { $0.iterator = box } }
        while true {
            // Without hotplug no reader can come back: every reader closed ends the scan.
            if !hotplug, let failure = noReaderLeft() { throw .reader(failure) }
            guard let item = await box.iterator.next() else { throw .timedOut }
            switch item {
            case .deadline(let id):
                if id == deadlineID {
                    if let failure = noReaderLeft() { throw .reader(failure) }
                    throw .timedOut
                }
            case .ended(let index, let error):
                let reader = state.withLock { state in
                    state.live.remove(index)
                    let reader = state.readers.removeValue(forKey: index)
                    if state.firstFailure == nil {
                        state.firstFailure = (error as? ReaderError) ?? error.map { .readerGone(reader: reader?.name ?? "?", detail: "\($0)") }
                    }
                    return reader
                }
                if let reader { removed(reader, error) }
            case .event(let index, .removed):
                if let reader = state.withLock({ $0.readers[index] }) { departed(reader) }
            case .event(let index, .heldElsewhere(let held)):
                guard let reader = state.withLock({ $0.readers[index] }) else { continue }
                if let heldElsewhere {
                    heldElsewhere(reader, held)
                } else if held {
                    state.withLock { state in
                        if state.firstFailure == nil { state.firstFailure = .heldExclusively(reader: reader.name) }
                    }
                    await reader.close()
                }
            case .event(let index, .arrived(let object)):
                guard let reader = state.withLock({ $0.readers[index] }) else { continue }
                return (object, reader)
            }
        }
    }

    /// The problem to report when no reader is open; nil while one is.
    private func noReaderLeft() -> ReaderError? {
        state.withLock { state in
            guard state.live.isEmpty else { return nil }
            return state.firstFailure ?? noneYet ?? .noReaderFound(searched: "every reader closed")
        }
    }

    /// Stops every reader and stops following reader changes: ``run()`` returns.
    public func close() async {
        let readers = state.withLock { state in
            state.closed = true
            return Array(state.readers.values)
        }
        follow.finish()
        for reader in readers { await reader.close() }
        continuation.finish()
    }
}

/// Holds the merged stream's iterator; ``ScanSession/next(timeout:arrived:)`` takes it out of the
/// session's state while it waits, so no two callers share it.
///
/// Unchecked Sendable: the iterator is a mutable value the compiler cannot see confined; it is
/// only used by the one caller that took the box out of the session's locked state.
private final class IteratorBox<Element>: @unchecked Sendable {
    var iterator: AsyncStream<Element>.Iterator
    init(_ iterator: AsyncStream<Element>.Iterator) { self.iterator = iterator }
}
