#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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

public struct VPCDError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ what: String, errno code: Int32 = errno) {
        description = "\(what): \(String(cString: strerror(code)))"
    }
    init(message: String) { description = message }
}

/// Presents a ``VPCDCard`` to pcscd's vpcd driver in server mode (`DEVICENAME /dev/null:PORT`):
/// the card is in the reader while this client is connected to the driver's port, and is taken
/// away by closing the connection (Docs/design/simulators.md §3.1-3.2).
///
/// The client only connects out; it listens on nothing. It is event-driven: one `poll(2)` on the
/// socket and a wake-up pipe, with the arrival and departure times as the only timeouts.
public final class VPCDClient: @unchecked Sendable {
    public let host: String
    public let port: UInt16
    /// Called with one line per message in each direction, when set (`>` driver to card).
    public var trace: (@Sendable (String) -> Void)?
    /// Called once the connection is made (the card is on its way into the reader).
    public var onArrival: (@Sendable () -> Void)?
    /// How long to keep trying while nothing listens on the port yet (pcscd still starting).
    public var connectPatience: Duration = .seconds(5)

    public private(set) var card: any VPCDCard
    private var decoder = VPCDMessageDecoder()
    private var socketFD: Int32 = -1
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var closed = false

    public init(card: any VPCDCard, host: String = "127.0.0.1", port: UInt16 = 35963) throws {
        self.card = card
        self.host = host
        self.port = port
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw VPCDError("pipe") }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wakeRead = fds[0]; wakeWrite = fds[1]
    }

    deinit { shutdown() }

    /// Makes ``run(arrival:departure:)`` return `.stopped` soon; safe from any thread.
    public func stop() {
        var byte: UInt8 = 0
        _ = write(wakeWrite, &byte, 1)
    }

    /// Makes SIGINT and SIGTERM (or `signals`) stop ``run(arrival:departure:)`` with `.signal`:
    /// the handler only writes the signal number to the wake-up pipe (async-signal-safe).
    public func stopOnSignals(_ signals: [Int32] = [SIGINT, SIGTERM]) {
        VPCDSignalPipe.fd = wakeWrite
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for number in signals {
            signal(number) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(VPCDSignalPipe.fd, &byte, 1)
            }
        }
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
            let now = ContinuousClock.now
            if let departure, now >= departure { return .departed }
            let timeout = departure.map { Self.milliseconds(until: $0, from: now) } ?? -1
            var fds = [pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                throw VPCDError("poll")
            }
            if fds[1].revents & Int16(POLLIN) != 0 { return wakeUpReason() }
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
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
                    switch card.handle(message) {
                    case .none: break
                    case .send(let payload):
                        trace?("< " + Self.hex(payload))
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
        if VPCDSignalPipe.fd == wakeWrite { VPCDSignalPipe.fd = -1 }
        close(wakeRead); close(wakeWrite)
    }

    private func disconnect() {
        if socketFD >= 0 { close(socketFD); socketFD = -1 }
        decoder = VPCDMessageDecoder()
    }

    /// Waits for the wake-up pipe until `instant`; a reason to stop, or nil when the time came.
    private func waitForWakeUp(until instant: ContinuousClock.Instant) throws -> VPCDStop? {
        while true {
            let now = ContinuousClock.now
            if now >= instant { return nil }
            var fd = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fd, 1, Self.milliseconds(until: instant, from: now))
            if ready < 0 {
                if errno == EINTR { continue }
                throw VPCDError("poll")
            }
            if ready > 0 { return wakeUpReason() }
        }
    }

    private func wakeUpReason() -> VPCDStop {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(wakeRead, &buffer, buffer.count)
        let number = n > 0 ? Int32(buffer[n - 1]) : 0
        return number == 0 ? .stopped : .signal(number)
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

    private static func milliseconds(until instant: ContinuousClock.Instant, from now: ContinuousClock.Instant) -> Int32 {
        let d = now.duration(to: instant).components
        let ms = d.seconds * 1000 + d.attoseconds / 1_000_000_000_000_000 + 1
        return Int32(clamping: max(ms, 0))
    }

    static func describe(_ message: VPCDMessage) -> String {
        switch message {
        case .control(.powerOff): "power off"
        case .control(.powerOn): "power on"
        case .control(.reset): "reset"
        case .control(.getATR): "get ATR"
        case .unknownControl(let byte): "unknown control \(hex([byte]))"
        case .apdu(let bytes): hex(bytes)
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return bytes.map { String([digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]]) }.joined(separator: " ")
    }
}

/// The wake-up pipe the signal handler writes to (a C handler captures nothing).
enum VPCDSignalPipe {
    nonisolated(unsafe) static var fd: Int32 = -1
}
