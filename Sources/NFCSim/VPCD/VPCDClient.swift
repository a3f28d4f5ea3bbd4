#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NDEF
import POSIXEvents
import SystemPackage

/// Why ``VPCDClient/run(arrival:departure:)`` returned.
public enum VPCDStop: Hashable, Sendable {
    /// The departure time came: the card was taken away (connection closed).
    case departed
    /// The object left the field on its own (its presence ended during a command).
    case objectLeft
    /// pcscd closed the connection (it stopped, or dropped the reader).
    case driverClosed
    case stopped
    case signal(Int32)
}

/// Presents a ``VPCDCard`` to pcscd's vpcd driver in server mode (`DEVICENAME /dev/null:PORT`):
/// the card is in the reader while this client is connected to the driver's port, and is taken
/// away by closing the connection (Docs/design/simulators.md §3.1-3.2).
///
/// The client only connects out; it listens on nothing. It is event-driven: ``run(arrival:departure:)``
/// takes turns of a ``PollLoop`` on the caller's thread (the socket and a signal pipe in its poll
/// set), with the arrival and departure times as the only timeouts.
///
/// Unchecked Sendable: only ``stop()`` (an atomic and the loop's wake-up) and
/// ``stopOnSignals(_:)`` are for other threads; the card, the decoder, the socket and the
/// callbacks belong to the one thread that calls ``run(arrival:departure:)`` and ``shutdown()``.
public final class VPCDClient: @unchecked Sendable {
    public let host: String
    public let port: UInt16
    /// Called with one line per message in each direction, when set (`>` driver to card).
    public var trace: (@Sendable (String) -> Void)?
    /// Called once the connection is made (the card is on its way into the reader).
    public var onArrival: (@Sendable () -> Void)?
    /// Called with the card after it has answered each message, when set: `nfcsim --save`
    /// keeps what a reader wrote.
    public var afterMessage: (@Sendable (any VPCDCard) -> Void)?
    /// How long to keep trying while nothing listens on the port yet (pcscd still starting).
    public var connectPatience: Duration = .seconds(5)

    public private(set) var card: any VPCDCard
    private var decoder = VPCDMessageDecoder()
    private var socketFD: Int32 = -1
    /// The socket in `loop` while connected (borrowed: ``disconnect()`` closes it).
    private var socketWatch: PollWatch?
    private let wakeUps: SimulatorLoop
    private var loop: PollLoop { wakeUps.loop }
    private var events: HostEvents { wakeUps.events }
    private var closed = false

    public init(card: any VPCDCard, host: String = "127.0.0.1", port: UInt16 = 35963) throws {
        self.card = card
        self.host = host
        self.port = port
        wakeUps = try SimulatorLoop()
    }

    deinit { shutdown() }

    /// Makes ``run(arrival:departure:)`` return `.stopped` soon; safe from any thread.
    public func stop() { wakeUps.stop() }

    /// Makes SIGINT and SIGTERM (or `signals`) stop ``run(arrival:departure:)`` with `.signal`.
    public func stopOnSignals(_ signals: [Int32] = [SIGINT, SIGTERM]) {
        wakeUps.stopOnSignals(signals)
        // A write to a connection pcscd has closed must fail with EPIPE, not kill the process.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Waits until `arrival` (nil: at once), connects (the card arrives), answers the driver until
    /// `departure` (nil: until stopped), then closes the connection (the card leaves).
    @discardableResult
    public func run(arrival: ContinuousClock.Instant? = nil, departure: ContinuousClock.Instant? = nil) throws -> VPCDStop {
        defer { disconnect() }
        if let arrival, let early = try waitForWakeUp(until: arrival) { return early }
        if let early = try connect() { return early }
        onArrival?()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let departure, ContinuousClock.now >= departure { return .departed }
            guard loop.turn(until: departure) else { return .stopped }
            if let reason = wakeUpReason() { return reason }
            if events.descriptorReady.exchange(false, ordering: .relaxed) {
                let n = recv(socketFD, &buffer, buffer.count, 0)
                if n < 0 {
                    if errno == EAGAIN || errno == EINTR { continue }
                    if errno == ECONNRESET { return .driverClosed }
                    throw VPCDError("receive from vpcd")
                }
                if n == 0 { return .driverClosed }
                quickAcknowledge()
                for message in decoder.feed(buffer[0..<n]) {
                    trace?("> " + Self.describe(message))
                    let reply = card.handle(message)
                    afterMessage?(card)
                    switch reply {
                    case .none: break
                    case .send(let payload):
                        trace?("< " + Hex.spaced(payload))
                        if !(try send(VPCDFraming.frame(payload))) { return .driverClosed }
                    case .leave:
                        trace?("< (the object left the field: closing)")
                        return .objectLeft
                    }
                }
            }
        }
    }

    /// Closes every descriptor; the card leaves if it was still in.
    public func shutdown() {
        guard !closed else { return }
        closed = true
        disconnect()
        wakeUps.shutdown()
    }

    private func disconnect() {
        if let socketWatch { loop.remove(socketWatch) }
        socketWatch = nil
        events.descriptorReady.store(false, ordering: .relaxed)
        if socketFD >= 0 { close(socketFD); socketFD = -1 }
        decoder = VPCDMessageDecoder()
    }

    /// Sleeps in the loop until `instant`; a reason to stop, or nil when the time came.
    private func waitForWakeUp(until instant: ContinuousClock.Instant) throws -> VPCDStop? {
        while ContinuousClock.now < instant {
            guard loop.turn(until: instant) else { return .stopped }
            if let reason = wakeUpReason() { return reason }
        }
        return nil
    }

    /// Why the loop was woken, when it was to stop: a signal, or ``stop()``.
    private func wakeUpReason() -> VPCDStop? {
        switch wakeUps.stopReason() {
        case .signal(let number)?: .signal(number)
        case .stopped?: .stopped
        case nil: nil
        }
    }

    /// Connects to the driver; while the port refuses (pcscd not listening yet) tries again every
    /// 100 ms for ``connectPatience``, still stoppable.
    private func connect() throws -> VPCDStop? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw VPCDError(message: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        let giveUp = ContinuousClock.now + connectPatience
        while true {
            var lastError: Int32 = 0
            var entry: UnsafeMutablePointer<addrinfo>? = list
            while let info = entry {
                let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.pointee.ai_protocol)
                if fd >= 0 {
                    if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                        var one: Int32 = 1
                        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                        socketFD = fd
                        // Borrowed: disconnect() removes it from the loop, then closes it.
                        let events = events
                        socketWatch = loop.add(FileDescriptor(rawValue: fd), events: .readable, ownership: .borrowed) { _ in
                            events.descriptorReady.store(true, ordering: .relaxed)
                            return .keepWatching
                        }
                        quickAcknowledge()
                        return nil
                    }
                    lastError = errno
                    close(fd)
                } else {
                    lastError = errno
                }
                entry = info.pointee.ai_next
            }
            guard lastError == ECONNREFUSED, ContinuousClock.now < giveUp else {
                throw VPCDError("cannot connect to vpcd at \(host) port \(port)" + (lastError == ECONNREFUSED
                    ? " (is pcscd running with a vpcd reader on this port? see nfcsim vpcd --help)" : ""), errno: lastError)
            }
            if let early = try waitForWakeUp(until: min(giveUp, .now + .milliseconds(100))) { return early }
        }
    }

    /// Acknowledges what arrives at once rather than after Linux's delayed-ACK timer (40 ms).
    /// vpcd writes a message's 2-byte length and its body in two small writes without
    /// TCP_NODELAY, so Nagle holds the body until the length is acknowledged: without this every
    /// APDU waited about 40 ms (found by Benchmarks/read-bench.sh). The kernel leaves quick-ACK
    /// mode on its own, so it is set again after every receive.
    private func quickAcknowledge() {
        var one: Int32 = 1
        _ = setsockopt(socketFD, Int32(IPPROTO_TCP), TCP_QUICKACK, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Writes all of `bytes`; false when the driver has closed the connection.
    private func send(_ bytes: [UInt8]) throws -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(socketFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE || errno == ECONNRESET { return false }
                throw VPCDError("send to vpcd")
            }
            offset += n
        }
        return true
    }


    static func describe(_ message: VPCDMessage) -> String {
        switch message {
        case .control(.powerOff): "power off"
        case .control(.powerOn): "power on"
        case .control(.reset): "reset"
        case .control(.getATR): "get ATR"
        case .unknownControl(let byte): "unknown control \(Hex.spaced([byte]))"
        case .apdu(let bytes): Hex.spaced(bytes)
        }
    }
}
