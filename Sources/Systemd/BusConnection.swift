import CSystemd
import DBusValues
import Glibc
import POSIXEvents
import Synchronization
import SystemPackage

/// A D-Bus connection through sd-bus, driven by a ``PollLoop`` thread of its own that sleeps in
/// `poll` until the bus socket (or a wake-up from another thread) has something: no polling loop.
///
/// sd-bus is not thread-safe, so every call into it holds one lock. C callbacks only decode and
/// queue; the Swift handlers run on the connection's thread *after* the lock is released, so a
/// handler may call back into the connection (reply, emit, call) without deadlocking. Handlers
/// should be quick: hand long work to a task.
///
/// Unchecked Sendable: `bus` (an sd-bus pointer) is only used under `lock`, every other mutable
/// value is in the `state` mutex, and the rest is immutable after `init`.
public final class BusConnection: @unchecked Sendable {
    private let bus: OpaquePointer
    /// Recursive: a reply sent from inside a C callback (malformed arguments) takes it again.
    private let lock = RecursiveLock()
    /// The thread that sleeps until the bus socket has something (or another thread woke it, so
    /// that what sd-bus waits for is read again).
    private let loop: PollLoop
    /// The bus socket in `loop`; sd-bus owns the descriptor (borrowed).
    private let socketWatch: PollWatch
    private let state = Mutex(State())
    public let uniqueName: String

    private struct State {
        var running = true
        /// sd_bus_slot pointers, as addresses (pointers are not Sendable).
        var slots: [Int: UInt] = [:]
        var signalHandlers: [Int: @Sendable (BusSignal) -> Void] = [:]
        var objectHandlers: [Int: @Sendable (BusMethodCall) -> Void] = [:]
        var pendingCalls: [Int: CheckedContinuation<[DBusValue], any Error>] = [:]
        /// Work for the handlers, queued by C callbacks while the lock is held.
        var queued: [@Sendable () -> Void] = []
        var onClose: (@Sendable (BusError) -> Void)?
    }

    /// The user's session bus (`DBUS_SESSION_BUS_ADDRESS`).
    public static func session() throws(BusError) -> BusConnection {
        try open("the session bus (DBUS_SESSION_BUS_ADDRESS)") { sd_bus_open_user(&$0) }
    }

    /// The system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else /run/dbus/system_bus_socket).
    public static func system() throws(BusError) -> BusConnection {
        try open("the system bus (DBUS_SYSTEM_BUS_ADDRESS)") { sd_bus_open_system(&$0) }
    }

    /// A bus at `address` ("unix:path=/run/user/1000/bus"): for private buses and tests.
    public static func connect(address: String) throws(BusError) -> BusConnection {
        try open(address) { bus in
            var result = sd_bus_new(&bus)
            guard result >= 0, let created = bus else { return result }
            result = sd_bus_set_address(created, address)
            if result >= 0 { result = sd_bus_set_bus_client(created, 1) }
            if result >= 0 { result = sd_bus_start(created) }
            if result < 0 { bus = sd_bus_unref(created) }
            return result
        }
    }

    private static func open(_ what: String, _ opener: (inout OpaquePointer?) -> Int32) throws(BusError) -> BusConnection {
        var bus: OpaquePointer?
        let result = opener(&bus)
        guard result >= 0, let bus else { throw .connect(address: what, detail: errnoText(-result)) }
        let connection = try BusConnection(bus: bus)
        // Started here, not in init: the loop's thread holds the connection until it is closed.
        connection.loop.start(name: "sd-bus") { [connection] in connection.prepareTurn() }
        return connection
    }

    private init(bus: OpaquePointer) throws(BusError) {
        self.bus = bus
        var unique: UnsafePointer<CChar>?
        let result = sd_bus_get_unique_name(bus, &unique)
        guard result >= 0, let unique else {
            sd_bus_flush_close_unref(bus)
            throw .connect(address: "the bus", detail: errnoText(-result))
        }
        uniqueName = String(cString: unique)
        do {
            loop = try PollLoop()
        } catch {
            sd_bus_flush_close_unref(bus)
            throw .system(call: "pipe2", detail: errnoText(error.rawValue))
        }
        // Nothing to do when it is ready: the next turn's prepareTurn() lets sd-bus read it.
        socketWatch = loop.add(FileDescriptor(rawValue: sd_bus_get_fd(bus)), events: .readable, ownership: .borrowed) { _ in .keepWatching }
    }

    /// Called once when the connection ends other than by ``close()`` (the bus went away, or
    /// dropped this connection); at once when that happened already.
    public func onClose(_ handler: @escaping @Sendable (BusError) -> Void) {
        let ended = state.withLock { state -> Bool in
            state.onClose = handler
            return !state.running
        }
        if ended { handler(.closed) }
    }

    /// False once the connection has ended, by ``close()`` or because the bus went away.
    public var isOpen: Bool { state.withLock { $0.running } }

    // MARK: Names

    /// Takes a well-known name; throws ``BusError/nameTaken(_:)`` when another connection has it.
    public func requestName(_ name: String) throws(BusError) {
        let result = withBus { bus in name.withCString { sd_bus_request_name(bus, $0, 0) } }
        if result == -EEXIST { throw .nameTaken(name) }
        if result < 0, result != -EALREADY { throw .system(call: "RequestName(\(name))", detail: errnoText(-result)) }
    }

    // MARK: Calls

    /// Calls a method and waits for its reply (or `timeout`).
    public func call(destination: String, path: String, interface: String, member: String,
                     _ arguments: [DBusValue] = [], timeout: Duration = .seconds(25)) async throws(BusError) -> [DBusValue] {
        let token = Self.nextToken()
        do {
            // A cancelled caller (a service stopping, an effect of a loop that ends) stops waiting
            // at once; the reply, should it still come, finds no one and is dropped.
            return try await withTaskCancellationHandler {
              try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[DBusValue], any Error>) in
                let alive = state.withLock { state -> Bool in
                    guard state.running, !Task.isCancelled else { return false }
                    state.pendingCalls[token] = continuation
                    return true
                }
                // Closed or cancelled already: the continuation was never kept, so it is answered here.
                guard alive else { return continuation.resume(throwing: Task.isCancelled ? BusError.cancelled : BusError.closed) }
                let started: BusError? = {
                    Self.register(self, token: token)
                    do throws(BusError) {
                        let usec = UInt64(timeout.components.seconds) * 1_000_000 + UInt64(timeout.components.attoseconds / 1_000_000_000_000)
                        let result = try withMethodCall(destination: destination, path: path, interface: interface, member: member,
                                                        arguments) { bus, message in
                            sd_bus_call_async(bus, nil, message, { message, userdata, _ in
                                guard let message else { return 0 }
                                let token = Int(bitPattern: userdata)
                                BusConnection.replyArrived(message, token: token)
                                return 1
                            }, UnsafeMutableRawPointer(bitPattern: token), usec)
                        }
                        if result < 0 { return .system(call: "\(interface).\(member)", detail: errnoText(-result)) }
                        return nil
                    } catch {
                        return error
                    }
                }()
                if let started {
                    Self.unregister(token: token)
                    if let continuation = state.withLock({ $0.pendingCalls.removeValue(forKey: token) }) {
                        continuation.resume(throwing: started)
                    }
                }
              }
            } onCancel: {
                Self.unregister(token: token)
                state.withLock { $0.pendingCalls.removeValue(forKey: token) }?.resume(throwing: BusError.cancelled)
            }
        } catch let error as BusError {
            throw error
        } catch {
            throw .system(call: "\(interface).\(member)", detail: "\(error)")
        }
    }

    /// Sends a method call without waiting for (or wanting) a reply.
    public func send(destination: String, path: String, interface: String, member: String, _ arguments: [DBusValue] = []) throws(BusError) {
        let result = try withMethodCall(destination: destination, path: path, interface: interface, member: member, arguments) { bus, message in
            sd_bus_send(bus, message, nil)
        }
        try Self.check(sent: result, what: "\(interface).\(member)")
    }

    /// Emits a signal from `path`: to every connection that listens, or, with `destination`, to
    /// that connection only (unicast: what one app's private objects say goes to that app alone).
    public func emitSignal(path: String, interface: String, member: String, _ arguments: [DBusValue] = [],
                           destination: String? = nil) throws(BusError) {
        try withBus { bus throws(BusError) in
            var message: OpaquePointer?
            let result = sd_bus_message_new_signal(bus, &message, path, interface, member)
            guard result >= 0, let message else { throw .system(call: "new signal \(member)", detail: errnoText(-result)) }
            defer { sd_bus_message_unref(message) }
            if let destination {
                let set = sd_bus_message_set_destination(message, destination)
                if set < 0 { throw .system(call: "signal \(member) to \(destination)", detail: errnoText(-set)) }
            }
            try BusMarshalling.append(arguments, to: message)
            try Self.check(sent: sd_bus_send(bus, message, nil), what: "signal \(interface).\(member)")
        }
    }

    // MARK: Signals

    /// Calls `handler` for every message matching `rule` (a D-Bus match rule) until the returned
    /// subscription is cancelled.
    public func addMatch(_ rule: String, handler: @escaping @Sendable (BusSignal) -> Void) throws(BusError) -> BusSubscription {
        try addSlot(what: "AddMatch(\(rule))", install: { $0.signalHandlers[$1] = handler }) { bus, slot, userdata in
            rule.withCString { rule in
                sd_bus_add_match(bus, &slot, rule, { message, userdata, _ in
                    guard let message else { return 0 }
                    BusConnection.signalArrived(message, token: Int(bitPattern: userdata))
                    return 0
                }, userdata)
            }
        }
    }

    // MARK: Objects

    /// Routes every method call to `prefix` and the paths below it to `handler`, which must answer
    /// each one (``BusMethodCall/reply(_:)`` or ``BusMethodCall/fail(_:_:)``). Peer is answered by
    /// sd-bus itself.
    public func exportSubtree(_ prefix: String, handler: @escaping @Sendable (BusMethodCall) -> Void) throws(BusError) -> BusSubscription {
        try addSlot(what: "exporting \(prefix)", install: { $0.objectHandlers[$1] = handler }) { bus, slot, userdata in
            prefix.withCString { prefix in
                sd_bus_add_fallback(bus, &slot, prefix, { message, userdata, _ in
                    guard let message else { return 0 }
                    return BusConnection.methodCallArrived(message, token: Int(bitPattern: userdata))
                }, userdata)
            }
        }
    }

    /// Keeps a handler under a fresh token, lets `add` create the sd-bus slot whose userdata is
    /// that token, and returns the subscription that removes both; undoes it all when `add` fails.
    private func addSlot(what: String, install: (inout State, Int) -> Void,
                         add: (OpaquePointer, inout OpaquePointer?, UnsafeMutableRawPointer?) -> Int32) throws(BusError) -> BusSubscription {
        let token = Self.nextToken()
        state.withLock { install(&$0, token) }
        Self.register(self, token: token)
        var slot: OpaquePointer?
        let result = withBus { bus in add(bus, &slot, UnsafeMutableRawPointer(bitPattern: token)) }
        guard result >= 0, let slot else {
            state.withLock { state in
                state.signalHandlers[token] = nil
                state.objectHandlers[token] = nil
            }
            Self.unregister(token: token)
            throw .system(call: what, detail: errnoText(-result))
        }
        state.withLock { $0.slots[token] = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(slot))) }
        return BusSubscription(connection: self, token: token)
    }

    func cancel(token: Int) {
        let slot = state.withLock { state -> OpaquePointer? in
            state.signalHandlers[token] = nil
            state.objectHandlers[token] = nil
            return state.slots.removeValue(forKey: token).flatMap { OpaquePointer(bitPattern: $0) }
        }
        if let slot { withBus { _ in _ = sd_bus_slot_unref(slot) } }
        Self.unregister(token: token)
    }

    /// Stops the loop, fails calls still waiting with ``BusError/closed`` and closes the connection
    /// (flushing what was sent).
    public func close() {
        let pending = state.withLock { state -> [CheckedContinuation<[DBusValue], any Error>] in
            guard state.running else { return [] }
            state.running = false
            defer { state.pendingCalls = [:] }
            return Array(state.pendingCalls.values)
        }
        for continuation in pending { continuation.resume(throwing: BusError.closed) }
        wake()
    }

    // MARK: The loop

    /// One turn of the connection's loop, on its thread, before it sleeps: lets sd-bus process
    /// what arrived, runs the queued handlers, and tells the loop what to wait for and until when.
    /// After ``close()`` (or when the bus failed) it takes the connection down and ends the loop.
    private func prepareTurn() -> ContinuousClock.Instant? {
        guard state.withLock({ $0.running }) else {
            takeDown()
            return nil
        }
        var failure: Int32 = 0
        // The loop's own turn takes the lock without waking itself (withBus would: a busy loop).
        lock.lock()
        while true {
            let processed = sd_bus_process(bus, nil)
            if processed < 0 { failure = processed; break }
            if processed == 0 { break }
        }
        lock.unlock()
        runQueued()
        if failure < 0 {
            let wasRunning = state.withLock { state -> Bool in defer { state.running = false }; return state.running }
            let (handler, pending) = state.withLock { state in
                defer { state.pendingCalls = [:] }
                return (state.onClose, Array(state.pendingCalls.values))
            }
            for continuation in pending { continuation.resume(throwing: BusError.closed) }
            if wasRunning { handler?(.connect(address: "the bus", detail: errnoText(-failure))) }
            takeDown()
            return nil
        }
        // Read after the handlers ran: a reply they sent may wait in sd-bus's write queue.
        var deadline: UInt64 = .max
        lock.lock()
        let events = sd_bus_get_events(bus)
        _ = sd_bus_get_timeout(bus, &deadline)
        lock.unlock()
        loop.setEvents(PollEvents(rawValue: Int16(truncatingIfNeeded: events)), for: socketWatch)
        guard deadline != .max else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowUsec = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        return .now + .microseconds(deadline > nowUsec ? deadline - nowUsec : 0)
    }

    /// Flushes and closes the bus and ends the loop (on the loop's thread, once).
    private func takeDown() {
        loop.remove(socketWatch)
        loop.cancel()
        withBus { bus in
            _ = sd_bus_flush(bus)
            sd_bus_close(bus)
        }
        for token in state.withLock({ Array($0.slots.keys) + Array($0.signalHandlers.keys) + Array($0.objectHandlers.keys) }) {
            Self.unregister(token: token)
        }
    }

    private func runQueued() {
        let work = state.withLock { state in defer { state.queued = [] }; return state.queued }
        for item in work { item() }
    }

    private func wake() { loop.wake() }

    /// Runs `body` with the bus under the lock, then wakes the loop (what sd-bus waits for may
    /// have changed: a queued write, a new timeout).
    @discardableResult
    private func withBus<T, E: Error>(_ body: (OpaquePointer) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer {
            lock.unlock()
            wake()
        }
        return try body(bus)
    }

    deinit {
        loop.cancel()
        sd_bus_flush_close_unref(bus)
    }

    /// Makes a method call message with `arguments` and hands it to `body`, all under the lock:
    /// sd-bus counts references to a message (and, through it, to the bus) without atomics, and
    /// the loop thread takes and drops its own while it writes the message out, so every ref and
    /// unref — the last one too — must happen under the lock, never beside the loop.
    private func withMethodCall(destination: String, path: String, interface: String, member: String, _ arguments: [DBusValue],
                                _ body: (OpaquePointer, OpaquePointer) -> Int32) throws(BusError) -> Int32 {
        try withBus { bus throws(BusError) in
            var message: OpaquePointer?
            let result = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
            guard result >= 0, let message else {
                throw .system(call: "calling \(interface).\(member) on \(destination) \(path)", detail: errnoText(-result))
            }
            defer { sd_bus_message_unref(message) }
            try BusMarshalling.append(arguments, to: message)
            return body(bus, message)
        }
    }

    static func check(sent result: Int32, what: String) throws(BusError) {
        if result < 0 { throw result == -ENOTCONN || result == -ECONNRESET ? .closed : .system(call: what, detail: errnoText(-result)) }
    }

    private func enqueue(_ work: @escaping @Sendable () -> Void) {
        state.withLock { $0.queued.append(work) }
    }

    // MARK: From C callbacks (on the loop thread, lock held): decode and queue only.

    /// Tokens → connections, so a C callback's integer userdata finds its connection without
    /// retaining it.
    private static let registry = Mutex<[Int: Weak]>([:])
    /// Unchecked Sendable: `connection` is a weak reference set once in init; weak loads and
    /// stores are atomic in Swift.
    private final class Weak: @unchecked Sendable {
        weak var connection: BusConnection?
        init(_ connection: BusConnection) { self.connection = connection }
    }
    private static let tokens = Atomic<Int>(1)
    private static func nextToken() -> Int { tokens.wrappingAdd(1, ordering: .relaxed).oldValue }

    private static func register(_ connection: BusConnection, token: Int) {
        registry.withLock { $0[token] = Weak(connection) }
    }
    private static func unregister(token: Int) {
        _ = registry.withLock { $0.removeValue(forKey: token) }
    }
    private static func connection(for token: Int) -> BusConnection? {
        registry.withLock { $0[token]?.connection }
    }

    private static func replyArrived(_ message: OpaquePointer, token: Int) {
        guard let connection = connection(for: token) else { return }
        unregister(token: token)
        guard let continuation = connection.state.withLock({ $0.pendingCalls.removeValue(forKey: token) }) else { return }
        if let error = sd_bus_message_get_error(message), error.pointee.name != nil {
            let name = String(cString: error.pointee.name)
            let text = error.pointee.message.map { String(cString: $0) } ?? ""
            continuation.resume(throwing: BusError.remote(name: name, message: text))
            return
        }
        do {
            continuation.resume(returning: try BusMarshalling.readAll(from: message, limit: .peerMessage))
        } catch {
            continuation.resume(throwing: error)
        }
    }

    private static func signalArrived(_ message: OpaquePointer, token: Int) {
        guard let connection = connection(for: token),
              let handler = connection.state.withLock({ $0.signalHandlers[token] }),
              let arguments = try? BusMarshalling.readAll(from: message, limit: .peerMessage) else { return }
        let signal = BusSignal(sender: string(sd_bus_message_get_sender(message)),
                               path: string(sd_bus_message_get_path(message)),
                               interface: string(sd_bus_message_get_interface(message)),
                               member: string(sd_bus_message_get_member(message)),
                               arguments: arguments)
        connection.enqueue { handler(signal) }
    }

    private static func methodCallArrived(_ message: OpaquePointer, token: Int) -> Int32 {
        guard let connection = connection(for: token),
              let handler = connection.state.withLock({ $0.objectHandlers[token] }) else { return 0 }
        let reply = BusReplyHandle(connection: connection, call: message)
        let call: BusMethodCall
        do {
            call = BusMethodCall(sender: string(sd_bus_message_get_sender(message)),
                                 path: string(sd_bus_message_get_path(message)),
                                 interface: string(sd_bus_message_get_interface(message)),
                                 member: string(sd_bus_message_get_member(message)),
                                 signature: string(sd_bus_message_get_signature(message, 1)),
                                 arguments: try BusMarshalling.readAll(from: message, limit: .methodCall), handle: reply)
        } catch .tooLarge(let detail) {
            reply.fail(BusMethodCall.limitsExceeded, "the arguments are larger than this service takes: \(detail)")
            return 1
        } catch {
            reply.fail(BusMethodCall.invalidArgs, "\(error)")
            return 1
        }
        connection.enqueue { handler(call) }
        return 1
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    /// Runs `body` under the lock (and wakes the loop: it may have queued a message).
    fileprivate func withMessageLock<T, E: Error>(_ body: (OpaquePointer) throws(E) -> T) throws(E) -> T {
        try withBus { bus throws(E) in try body(bus) }
    }

    /// Drops a message reference under the lock, without waking the loop (nothing to send).
    fileprivate func release(_ message: OpaquePointer) {
        lock.lock()
        defer { lock.unlock() }
        sd_bus_message_unref(message)
    }
}

/// A registration (signal match or exported subtree) that ends when cancelled.
public final class BusSubscription: Sendable {
    private weak let connection: BusConnection?
    private let token: Int

    init(connection: BusConnection, token: Int) {
        self.connection = connection
        self.token = token
    }

    public func cancel() { connection?.cancel(token: token) }
}

/// A signal (or other message) that matched a rule.
public struct BusSignal: Sendable {
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]
}

/// A method call to an exported object, with the means to answer it once.
public struct BusMethodCall: Sendable {
    public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
    public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
    public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
    public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"

    /// The caller's unique bus name (":1.42").
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String
    public var signature: String
    public var arguments: [DBusValue]
    let handle: BusReplyHandle

    /// Answers with `values` (their signatures must be what the method declares).
    public func reply(_ values: [DBusValue] = []) { handle.reply(values) }
    /// Answers with a D-Bus error.
    public func fail(_ name: String, _ message: String) { handle.fail(name, message) }
}

/// Keeps the call message alive until it is answered (once).
///
/// `@unchecked Sendable`: `call` is an sd-bus message, touched (ref, reply, unref) only under the
/// connection's lock; the handle keeps its connection, so that lock outlives the message.
final class BusReplyHandle: @unchecked Sendable {
    private let connection: BusConnection
    private let call: OpaquePointer
    private let answered = Atomic<Bool>(false)

    /// Called from a C callback on the loop thread, with the lock held.
    init(connection: BusConnection, call: OpaquePointer) {
        self.connection = connection
        self.call = sd_bus_message_ref(call)
    }

    deinit { connection.release(call) }

    func reply(_ values: [DBusValue]) {
        guard !answered.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let call = call
        let sent: Result<Void, BusError> = connection.withMessageLock { bus in
            var reply: OpaquePointer?
            guard sd_bus_message_new_method_return(call, &reply) >= 0, let reply else { return .success(()) }
            defer { sd_bus_message_unref(reply) }
            do throws(BusError) {
                try BusMarshalling.append(values, to: reply)
                try BusConnection.check(sent: sd_bus_send(bus, reply, nil), what: "reply")
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let error) = sent {
            answered.store(false, ordering: .releasing)
            fail("org.freedesktop.DBus.Error.Failed", "\(error)")
        }
    }

    func fail(_ name: String, _ message: String) {
        guard !answered.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let call = call
        connection.withMessageLock { _ in
            var error = sd_bus_error()
            _ = sd_bus_error_set(&error, name, message)
            _ = sd_bus_reply_method_error(call, &error)
            sd_bus_error_free(&error)
        }
    }
}
