#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
import SystemPackage

/// What a descriptor is watched for, and what `poll(2)` reported for it.
public struct PollEvents: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    public static let writable = PollEvents(rawValue: Int16(POLLOUT))
    /// The peer hung up (every write end of a pipe closed, a socket shut down). Always reported.
    public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    /// An error condition on the descriptor. Always reported.
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    /// The number is not an open descriptor (closed behind the loop's back). Always reported; the
    /// loop drops such a watch itself (without closing anything), since poll would report it forever.
    public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))

    public var description: String {
        let names: [(PollEvents, String)] = [(.readable, "readable"), (.writable, "writable"), (.hangUp, "hang-up"),
                                             (.error, "error"), (.invalid, "invalid")]
        return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}

/// One descriptor in a ``PollLoop``; pass it back to change or end the watch.
public struct PollWatch: Hashable, Sendable {
    fileprivate let id: Int
}

/// What a ``PollLoop`` handler wants after handling an event.
public enum PollNext: Sendable {
    /// Keep the watch.
    case keepWatching
    /// End the watch, as ``PollLoop/remove(_:)`` does (an owned descriptor is closed).
    case stopWatching
}

/// The one poll-and-wake loop of the project: a thread sleeps in `poll(2)` on a set of descriptors
/// and a wake-up pipe, and calls each descriptor's handler when it is ready. No timeouts of its own:
/// idle, it does not turn at all (``turns`` counts turns, for tests).
///
/// - The loop *owns* the descriptors given to it with ``Ownership/owned``: it closes them when
///   their watch is removed or the loop is cancelled, always at a moment when no `poll` is using
///   them (so a descriptor number is never closed under a poll, and never reused by the kernel
///   while the loop still watches it).
/// - Descriptors are added, changed and removed from any thread; the loop is woken to see it.
///   A handler is never called after ``remove(_:)`` returned on the loop's own thread, nor started
///   after it returned on another one.
/// - Handlers run on the loop's thread, one at a time, outside every lock: they may add, remove and
///   wake. They must be quick (hand long work on) and must not block. A handler told of a hang-up or
///   an error should end its watch (return ``PollNext/stopWatching``): poll keeps reporting them,
///   so the loop would keep turning.
/// - Two ways to drive it: ``start(name:beforeEachTurn:)`` gives it a thread of its own (services,
///   the bus); ``turn(until:)`` runs one turn on the caller's thread (a command-line host that
///   blocks in its own `run` with its own deadlines). Nothing runs until one of them is called.
/// - ``cancel()`` ends the loop: the thread (if any) returns after the turn in progress, and every
///   owned descriptor is closed. The wake-up pipe lives as long as the loop object, so a late
///   ``wake()`` never writes to a reused descriptor number.
public final class PollLoop: Sendable {
    /// Whether the loop closes a descriptor when its watch ends.
    public enum Ownership: Sendable {
        /// The loop closes it when the watch is removed or the loop is cancelled.
        case owned
        /// The caller keeps it and closes it after the watch is removed (or the loop ended).
        case borrowed
    }

    private struct Entry {
        var descriptor: FileDescriptor
        var events: PollEvents
        var ownership: Ownership
        var handler: @Sendable (PollEvents) -> PollNext
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextID = 1
        /// Owned descriptors whose watch was removed while a turn was using them.
        var toClose: [FileDescriptor] = []
        /// A turn is between building its poll set and its end (descriptors may be in a poll).
        var inTurn = false
        /// The turn in progress has built its poll set: a wake-up must go through the pipe.
        var sleeping = false
        /// A byte is in the wake-up pipe and not yet drained.
        var signalled = false
        /// Someone asked for another turn since this one built its poll set.
        var wakeRequested = false
        var cancelled = false
        /// The thread of ``start(name:beforeEachTurn:)`` exists.
        var started = false
        /// The thread taking turns (set by each turn): a change it makes itself needs no wake-up,
        /// since its next poll set is built afterwards.
        var driver: pthread_t?
    }

    /// Wakes the loop for a changed poll set, unless the change comes from the loop's own thread.
    private func changed() {
        let own = state.withLock { state in state.driver.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        if !own { wake() }
    }

    private let state = Mutex(State())
    private let wakeRead: FileDescriptor
    private let wakeWrite: FileDescriptor
    private let turnCount = Atomic<Int>(0)
    /// Set when the loop's own thread has returned (after ``cancel()``).
    private let ended = Mutex<Bool>(false)

    /// Makes the wake-up pipe; starts nothing.
    public init() throws(Errno) {
        (wakeRead, wakeWrite) = try FileDescriptor.pipe(options: [.closeOnExec, .nonBlocking])
    }

    deinit {
        let leftover = state.withLock { state in
            defer { state.entries = [:]; state.toClose = [] }
            return state.entries.values.filter { $0.ownership == .owned }.map(\.descriptor) + state.toClose
        }
        for descriptor in leftover { try? descriptor.close() }
        try? wakeRead.close()
        try? wakeWrite.close()
    }

    /// How many times the loop came back from `poll` (for tests: idle, this does not grow).
    public var turns: Int { turnCount.load(ordering: .relaxed) }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    // MARK: Descriptors

    /// Watches `descriptor` for `events` (hang-ups and errors are always reported), calling
    /// `handler` on the loop's thread with what poll reported; the handler says whether the watch
    /// goes on. With `.owned`, the loop closes the descriptor when the watch ends. On a cancelled
    /// loop the handler is never called (an owned descriptor is closed at once).
    @discardableResult
    public func add(_ descriptor: FileDescriptor, events: PollEvents = .readable, ownership: Ownership = .owned,
                    handler: @escaping @Sendable (PollEvents) -> PollNext) -> PollWatch {
        let (id, refused) = state.withLock { state -> (Int, Bool) in
            let id = state.nextID
            state.nextID += 1
            guard !state.cancelled else { return (id, true) }
            state.entries[id] = Entry(descriptor: descriptor, events: events, ownership: ownership, handler: handler)
            return (id, false)
        }
        if refused {
            if ownership == .owned { try? descriptor.close() }
        } else {
            changed()
        }
        return PollWatch(id: id)
    }

    /// Changes what `watch` waits for (a writer waiting for room adds `.writable`, then drops it).
    public func setEvents(_ events: PollEvents, for watch: PollWatch) {
        let changed = state.withLock { state -> Bool in
            guard state.entries[watch.id] != nil, state.entries[watch.id]?.events != events else { return false }
            state.entries[watch.id]?.events = events
            return true
        }
        if changed { self.changed() }
    }

    /// Ends `watch`: its handler is not called again, and an owned descriptor is closed (at once
    /// when no poll uses it, else as soon as the turn using it returns). Removing twice is harmless.
    public func remove(_ watch: PollWatch) {
        let closeNow = state.withLock { state -> FileDescriptor? in
            guard let entry = state.entries.removeValue(forKey: watch.id) else { return nil }
            guard entry.ownership == .owned else { return nil }
            if state.inTurn {
                state.toClose.append(entry.descriptor)
                return nil
            }
            return entry.descriptor
        }
        // A descriptor that was in the poll set is closed by the turn, which is woken for it
        // (not needed for correctness, but its number is then free sooner).
        if let closeNow { try? closeNow.close() } else { changed() }
    }

    /// Makes the loop take another turn soon (what a ``start(name:beforeEachTurn:)`` hook waits
    /// for may have changed); from any thread. Called from a handler or the hook, it costs one
    /// more turn; while the loop sleeps, one byte through the pipe. (Adding, changing and removing
    /// descriptors wake it themselves, except from the loop's own thread, where none is needed.)
    public func wake() {
        let write = state.withLock { state -> Bool in
            state.wakeRequested = true
            guard state.sleeping, !state.signalled else { return false }
            state.signalled = true
            return true
        }
        if write {
            var one: UInt8 = 1
            _ = Glibc.write(wakeWrite.rawValue, &one, 1)
        }
    }

    // MARK: Driving

    /// Runs one turn on the calling thread: sleeps until a descriptor is ready, ``wake()``, or
    /// `deadline` (nil: no deadline), then calls the handlers of the ready ones. Returns false,
    /// without sleeping, once the loop is cancelled (its owned descriptors are closed then).
    /// Only one thread may drive the loop.
    @discardableResult
    public func turn(until deadline: ContinuousClock.Instant? = nil) -> Bool {
        guard let (ids, fdsBuilt, closing, skipSleep) = state.withLock({ state -> ([Int], [pollfd], [FileDescriptor], Bool)? in
            guard !state.cancelled else { return nil }
            state.inTurn = true
            state.driver = pthread_self()
            let closing = state.toClose
            state.toClose = []
            let skip = state.wakeRequested
            state.wakeRequested = false
            state.sleeping = true
            let ids = state.entries.keys.sorted()
            let fds = ids.map { id in
                let entry = state.entries[id]!
                return pollfd(fd: entry.descriptor.rawValue, events: entry.events.rawValue, revents: 0)
            }
            return (ids, fds, closing, skip)
        }) else {
            closeAfterCancel()
            return false
        }
        for descriptor in closing { try? descriptor.close() }
        var fds = fdsBuilt
        fds.append(pollfd(fd: wakeRead.rawValue, events: Int16(POLLIN), revents: 0))
        let timeout: Int32 = skipSleep ? 0 : Self.milliseconds(until: deadline)
        let ready = poll(&fds, nfds_t(fds.count), timeout)
        state.withLock { $0.sleeping = false }
        turnCount.add(1, ordering: .relaxed)
        if ready > 0, fds[fds.count - 1].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            while read(wakeRead.rawValue, &drain, drain.count) > 0 {}
            state.withLock { $0.signalled = false }
        }
        if ready > 0 {
            for (index, id) in ids.enumerated() where fds[index].revents != 0 {
                let events = PollEvents(rawValue: fds[index].revents)
                // Looked up again: an earlier handler (or another thread) may have removed it.
                let handler = state.withLock { state -> (@Sendable (PollEvents) -> PollNext)? in
                    guard !state.cancelled, let entry = state.entries[id], entry.descriptor.rawValue == fds[index].fd else { return nil }
                    if events.contains(.invalid) { state.entries[id] = nil }
                    return entry.handler
                }
                if handler?(events) == .stopWatching { remove(PollWatch(id: id)) }
            }
        }
        let (closeLater, cancelled) = state.withLock { state -> ([FileDescriptor], Bool) in
            state.inTurn = false
            defer { state.toClose = [] }
            return (state.toClose, state.cancelled)
        }
        for descriptor in closeLater { try? descriptor.close() }
        if cancelled {
            closeAfterCancel()
            return false
        }
        return true
    }

    /// Starts a thread of its own that takes turns until ``cancel()``. `beforeEachTurn` runs on
    /// that thread at the start of every turn and returns the turn's deadline (nil: none); the
    /// bus uses it to let sd-bus work and learn what to wait for. Starting twice starts one thread.
    public func start(name: String, beforeEachTurn: @escaping @Sendable () -> ContinuousClock.Instant? = { nil }) {
        let first = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started && !state.cancelled
        }
        guard first else { return }
        NamedThread.start(name: name) { [self] in
            while turn(until: beforeEachTurn()) {}
            ended.withLock { $0 = true }
        }
    }

    /// Ends the loop from any thread: a thread of its own returns after the turn in progress,
    /// and every owned descriptor is closed (by that turn, or here when none is in progress).
    /// Handlers are not called afterwards.
    public func cancel() {
        let idle = state.withLock { state -> Bool in
            state.cancelled = true
            return !state.inTurn
        }
        if idle { closeAfterCancel() }
        wake()
    }

    /// Whether the thread started by ``start(name:beforeEachTurn:)`` has returned.
    public var hasEnded: Bool { ended.withLock { $0 } }

    private func closeAfterCancel() {
        let leftover = state.withLock { state -> [FileDescriptor] in
            guard state.cancelled, !state.inTurn else { return [] }
            defer { state.entries = [:]; state.toClose = [] }
            return state.entries.values.filter { $0.ownership == .owned }.map(\.descriptor) + state.toClose
        }
        for descriptor in leftover { try? descriptor.close() }
    }

    /// Poll's timeout for `deadline`, rounded up so the loop never wakes just before it.
    static func milliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let left = ContinuousClock.now.duration(to: deadline)
        if left <= .zero { return 0 }
        let (seconds, attoseconds) = left.components
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
