import CMosquitto
import POSIXEvents
import Glibc

/// One MQTT client connection through libmosquitto, the only place in nfcscan that sees its C
/// pointers.
///
/// The connection runs on a thread of its own that calls `mosquitto_loop` and, when the
/// connection ends or cannot be made, waits and reconnects with exponential backoff. Not
/// `mosquitto_loop_start`: its loop gives up for good on some errors (a TLS failure, a refused
/// login), and a station must keep retrying until the broker is fixed. Not the project's
/// `PollLoop` either: libmosquitto's connect and TLS handshake block, and its keepalive and QoS 1
/// retries would have to be rebuilt around `mosquitto_loop_read/write/misc`.
///
/// Its callbacks only yield into `events`, an `AsyncStream` the owner iterates in its own task, so
/// nothing of the daemon runs on that thread; `publish` only queues the message in libmosquitto
/// (`mosquitto_threaded_set`: the loop's thread writes it), so a caller is never blocked by a slow
/// or absent broker.
///
/// Everything is set in `init` (options, will, credentials, TLS); `start()` starts the thread
/// and the first connection attempt (nothing starts a thread in an initialiser:
/// Docs/architecture.md). A broker that is down or refuses is not an error but a `.disconnected`
/// event, and the client keeps retrying until `close()`.
public final class MosquittoClient: @unchecked Sendable {
    // @unchecked: the libmosquitto handle is not Sendable, but libmosquitto (with
    // mosquitto_threaded_set) makes publish, subscribe and disconnect safe from any thread while
    // one thread runs its loop; the handle is created in init and destroyed in deinit only, after
    // that thread has ended. The rest of the state is behind `state`'s lock.

    /// A message to publish, or the will.
    public struct Message: Sendable, Equatable {
        public var topic: String
        public var payload: [UInt8]
        /// 0, 1 or 2.
        public var qos: Int32
        public var retain: Bool

        public init(topic: String, payload: [UInt8], qos: Int32 = 1, retain: Bool = false) {
            self.topic = topic
            self.payload = payload
            self.qos = qos
            self.retain = retain
        }

        public init(topic: String, text: String, qos: Int32 = 1, retain: Bool = false) {
            self.init(topic: topic, payload: Array(text.utf8), qos: qos, retain: retain)
        }
    }

    /// TLS to the broker: the CA that signs its certificate (nil: the system's, in
    /// `systemCAPath`), and for mutual TLS the client's own.
    public struct TLS: Sendable, Equatable {
        public var caFile: String?
        public var certificateFile: String?
        public var keyFile: String?
        /// Debian's directory of trusted CAs (ca-certificates).
        public static let systemCAPath = "/etc/ssl/certs"

        public init(caFile: String?, certificateFile: String? = nil, keyFile: String? = nil) {
            self.caFile = caFile
            self.certificateFile = certificateFile
            self.keyFile = keyFile
        }
    }

    public struct Options: Sendable, Equatable {
        public var host: String
        public var port: Int32
        public var clientID: String
        /// Seconds between pings; also how soon the broker notices a lost client and sends its will.
        public var keepalive: Int32 = 30
        /// False: the broker keeps the subscriptions and queues QoS 1 messages while the client is
        /// away (a subscriber that must miss nothing); needs a client id that stays the same.
        public var cleanSession = true
        public var will: Message?
        public var username: String?
        public var password: String?
        public var tls: TLS?
        /// Seconds before the first reconnect attempt, doubled on each failure up to the maximum.
        public var reconnectDelay: UInt32 = 1
        public var reconnectDelayMaximum: UInt32 = 60

        public init(host: String, port: Int32, clientID: String) {
            self.host = host
            self.port = port
            self.clientID = clientID
        }
    }

    /// What happens to the connection, in the order libmosquitto reports it.
    public enum Event: Sendable, Equatable {
        /// The broker answered CONNECT: `code` 0 is accepted; otherwise `reason` says why not
        /// (bad credentials, not authorised), and libmosquitto retries.
        case connected(code: Int32, reason: String)
        /// The connection ended or could not be made; `code` 0 means `close()` asked for it. One
        /// ending may be reported twice (by libmosquitto and by the loop); what matters is the last event.
        case disconnected(code: Int32, reason: String)
        /// The broker acknowledged the message `publish` returned this id for (PUBACK at QoS 1),
        /// or, at QoS 0, it was written to the socket.
        case published(messageID: Int32)
        /// A message on a subscribed topic. Payloads over `maximumPayload` are not delivered
        /// (a broker's message is untrusted input).
        case message(topic: String, payload: [UInt8], retained: Bool)
    }

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var code: Int32
        public var description: String
    }

    /// Messages on subscribed topics larger than this are dropped rather than delivered.
    public static let maximumPayload = 64 * 1024

    /// The connection's events. Unbounded: acknowledgements are bounded by the caller's own
    /// publishes in flight, connection changes by the reconnect backoff, and messages by what the
    /// caller subscribes to.
    public let events: AsyncStream<Event>

    private let handle: OpaquePointer
    private let sink: Sink
    private let loop: Loop

    /// libmosquitto opened (on first use: CNFC/CMosquitto/shim.h) and its global set-up done, once
    /// per process before the first handle; nil when ready, else what is wrong.
    private static let libraryProblem: String? = {
        guard lazy_mosquitto_available() else { return "libmosquitto is not installed (Debian: apt install libmosquitto1)" }
        return lazy_mosquitto_lib_init() == MOSQ_ERR_SUCCESS.rawValue ? nil : "libmosquitto did not initialise"
    }()

    /// Creates the client and starts connecting. Throws only for what retrying cannot fix: a
    /// library that does not initialise, options libmosquitto rejects (an unreadable CA file).
    public init(_ options: Options) throws(Failure) {
        if let problem = Self.libraryProblem { throw Failure(code: -1, description: problem) }
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        events = stream
        sink = Sink(continuation)
        guard let handle = lazy_mosquitto_new(options.clientID, options.cleanSession, Unmanaged.passUnretained(sink).toOpaque()) else {
            throw Failure(code: Int32(errno), description: "mosquitto_new failed: \(String(cString: strerror(errno)))")
        }
        self.handle = handle
        do throws(Failure) {
            try Self.check(lazy_mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311), "protocol version")
            if let will = options.will {
                try Self.check(will.payload.withUnsafeBytes {
                    lazy_mosquitto_will_set(handle, will.topic, Int32($0.count), $0.baseAddress, will.qos, will.retain)
                }, "will")
            }
            if options.username != nil || options.password != nil {
                try Self.check(lazy_mosquitto_username_pw_set(handle, options.username, options.password), "username and password")
            }
            if let tls = options.tls {
                try Self.check(lazy_mosquitto_tls_set(handle, tls.caFile, tls.caFile == nil ? TLS.systemCAPath : nil, tls.certificateFile, tls.keyFile, nil), "TLS files")
            }
        } catch {
            lazy_mosquitto_destroy(handle)
            throw error
        }
        lazy_mosquitto_connect_callback_set(handle) { _, context, code in
            Sink.of(context).wasAccepted = code == 0
            Sink.of(context).yield(.connected(code: code, reason: String(cString: lazy_mosquitto_connack_string(code))))
        }
        lazy_mosquitto_disconnect_callback_set(handle) { _, context, code in
            Sink.of(context).yield(.disconnected(code: code, reason: MosquittoClient.describe(code)))
        }
        lazy_mosquitto_publish_callback_set(handle) { _, context, messageID in
            Sink.of(context).yield(.published(messageID: messageID))
        }
        lazy_mosquitto_message_callback_set(handle) { _, context, message in
            guard let message, let topic = message.pointee.topic,
                  message.pointee.payloadlen >= 0, Int(message.pointee.payloadlen) <= MosquittoClient.maximumPayload else { return }
            let payload = message.pointee.payload.map {
                Array(UnsafeRawBufferPointer(start: $0, count: Int(message.pointee.payloadlen)))
            } ?? []
            Sink.of(context).yield(.message(topic: String(cString: topic), payload: payload, retained: message.pointee.retain))
        }
        lazy_mosquitto_threaded_set(handle, true)
        loop = Loop(handle: handle, options: options, sink: sink)
    }

    /// Starts the connection's thread: connecting, then reconnecting until `close()`. Once; a
    /// no-op after the first call or after `close()`.
    public func start() {
        let loop = self.loop
        guard loop.begin() else { return }
        // The thread holds the loop, not the client: a client dropped without close() still
        // ends it from deinit.
        NamedThread.start(name: "mosquitto \(loop.options.host):\(loop.options.port)") { loop.run() }
    }

    deinit {
        close()
        lazy_mosquitto_destroy(handle)
    }

    /// Queues `message` and returns the id its `.published` event will carry. Never waits for the
    /// network; fails only when the message cannot be queued (payload too large, bad topic, closed).
    /// Messages queued while disconnected are sent once the connection is back.
    @discardableResult
    public func publish(_ message: Message) throws(Failure) -> Int32 {
        var messageID: Int32 = 0
        let code = message.payload.withUnsafeBytes {
            lazy_mosquitto_publish(handle, &messageID, message.topic, Int32(clamping: $0.count), $0.baseAddress, message.qos, message.retain)
        }
        // MOSQ_ERR_NO_CONN: libmosquitto has queued it (QoS > 0) and sends it after reconnecting.
        if code != MOSQ_ERR_SUCCESS.rawValue, code != MOSQ_ERR_NO_CONN.rawValue {
            throw Failure(code: code, description: "publishing on \(message.topic): \(Self.describe(code))")
        }
        return messageID
    }

    /// Subscribes to `pattern`. With clean sessions subscriptions are not kept across reconnects:
    /// subscribe again on every `.connected`.
    public func subscribe(_ pattern: String, qos: Int32 = 1) throws(Failure) {
        try Self.check(lazy_mosquitto_subscribe(handle, nil, pattern, qos), "subscribing to \(pattern)")
    }

    /// Disconnects cleanly (the broker does not send the will) and ends the connection's thread;
    /// `events` finishes. Idempotent.
    public func close() {
        // DISCONNECT first, so the loop's last turn writes it; a no-op while not connected.
        lazy_mosquitto_disconnect(handle)
        if loop.stop() { sink.finish() }
    }

    /// libmosquitto's words for an error code, with errno's for MOSQ_ERR_ERRNO.
    static func describe(_ code: Int32) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return String(cString: lazy_mosquitto_strerror(code))
    }

    private static func check(_ code: Int32, _ what: String) throws(Failure) {
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw Failure(code: code, description: "\(what): \(Self.describe(code))") }
    }
}

/// The connection's thread and what it shares with `close()`. Held by the thread, not by the
/// client, so that dropping the client (deinit) can still stop it.
private final class Loop: @unchecked Sendable {
    // @unchecked: the handle is used as MosquittoClient's note says (the thread's loop, and
    // thread-safe calls elsewhere); everything else is a Sendable let.
    let handle: OpaquePointer
    let options: MosquittoClient.Options
    let sink: Sink
    /// Whether close() asked the thread to end, and whether it runs (has not ended); the backoff
    /// waits on it, woken by stop().
    struct Flags: Sendable {
        var stopping = false
        var running = false
    }
    let state = ThreadCondition(Flags())

    init(handle: OpaquePointer, options: MosquittoClient.Options, sink: Sink) {
        self.handle = handle
        self.options = options
        self.sink = sink
    }

    /// The loop's thread: connect, run the connection until it ends, wait, connect again; until close().
    func run() {
        var delay = options.reconnectDelay
        var first = true
        while !isStopping {
            let code = first ? lazy_mosquitto_connect(handle, options.host, options.port, options.keepalive) : lazy_mosquitto_reconnect(handle)
            first = false
            if code == MOSQ_ERR_SUCCESS.rawValue {
                var result: Int32
                repeat { result = lazy_mosquitto_loop(handle, 500, 1) } while result == MOSQ_ERR_SUCCESS.rawValue && !isStopping
                if isStopping { break }
                // libmosquitto reports a lost connection through the disconnect callback, and so a
                // closed one (MOSQ_ERR_NO_CONN: the socket was closed, the callback has run: close()'s
                // DISCONNECT can be written before `stopping` is set); a refused CONNECT only through
                // the connect callback: say it ended either way.
                if result != MOSQ_ERR_CONN_LOST.rawValue, result != MOSQ_ERR_NO_CONN.rawValue {
                    sink.yield(.disconnected(code: result, reason: MosquittoClient.describe(result)))
                }
                if sink.wasAccepted { delay = options.reconnectDelay }
            } else {
                sink.yield(.disconnected(code: code, reason: MosquittoClient.describe(code)))
            }
            state.wait(timeout: .seconds(delay)) { $0.stopping }
            delay = min(delay * 2, max(options.reconnectDelay, options.reconnectDelayMaximum))
        }
        // Whatever the DISCONNECT close() queued is written before the thread ends.
        _ = lazy_mosquitto_loop(handle, 100, 1)
        state.withLock { $0.running = false }
    }

    var isStopping: Bool { state.withLock { $0.stopping } }

    /// Marks the thread as running, unless it was started or stopped before; true if it may start.
    func begin() -> Bool {
        state.withLock { flags in
            guard !flags.running, !flags.stopping else { return false }
            flags.running = true
            return true
        }
    }

    /// Ends the thread (if it runs) and waits for it; true the first time.
    func stop() -> Bool {
        let first = state.withLock { flags in
            defer { flags.stopping = true }
            return !flags.stopping
        }
        state.wait { !$0.running }
        return first
    }
}

/// Where the C callbacks put their events: libmosquitto hands its `void *` back to them, so
/// this object, owned by the client for the handle's whole life, is what that pointer names.
private final class Sink: @unchecked Sendable {
    // @unchecked: `wasAccepted` is written and read on the loop's thread only (the connect
    // callback runs inside mosquitto_loop there).
    let continuation: AsyncStream<MosquittoClient.Event>.Continuation
    /// Whether the last CONNECT was accepted, so the backoff starts again from its minimum.
    var wasAccepted = false

    init(_ continuation: AsyncStream<MosquittoClient.Event>.Continuation) { self.continuation = continuation }

    static func of(_ context: UnsafeMutableRawPointer?) -> Sink {
        Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
    }

    func yield(_ event: MosquittoClient.Event) { continuation.yield(event) }
    func finish() { continuation.finish() }
}
