#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why ``PN532PTYHost/run(until:)`` returned.
public enum PN532HostStop: Hashable, Sendable {
    case deadline
    case stopped
    case signal(Int32)
}

public struct PN532HostError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ what: String, errno code: Int32 = errno) {
        description = "\(what): \(String(cString: strerror(code)))"
    }
    init(message: String) { description = message }
}

/// Serves a ``PN532Emulator`` on a pseudo-terminal, so libnfc's `pn532_uart` driver talks to it
/// as to a PN532 on a serial port (connstring `pn532_uart:<slavePath>`).
///
/// The slave side is put in raw mode before its path is published, and the host keeps its own
/// descriptor to it open for its whole life: libnfc closes its descriptor on every `nfc_close`,
/// and with no slave open a read on the master fails with EIO (Docs/design/simulators.md §1.6).
/// Event-driven: one `poll(2)` on the master and a wake-up pipe; no sleeping loop.
public final class PN532PTYHost: @unchecked Sendable {
    public let slavePath: String
    /// A symbolic link to `slavePath` the host made (and removes when closed).
    public let linkPath: String?
    /// Called with one line per frame in each direction, when set (hex, `>` host to chip).
    public var trace: (@Sendable (String) -> Void)?
    /// Called with each host command's code (``PN532Frame/command(_:_:)``) before the chip
    /// answers it, when set: a test's hook for a fault at a chosen step.
    public var beforeCommand: (@Sendable (UInt8) -> Void)?

    private var emulator: PN532Emulator
    private var decoder = PN532FrameDecoder()
    private let master: Int32
    private let slave: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var closed = false

    /// Creates the pair. `link`, when given, is made a symbolic link to the slave; an existing
    /// symbolic link there is replaced, anything else is an error.
    public init(emulator: PN532Emulator, link: String? = nil) throws {
        self.emulator = emulator
        var m: Int32 = -1, s: Int32 = -1
        guard openpty(&m, &s, nil, nil, nil) == 0 else { throw PN532HostError("openpty") }
        guard let name = ttyname(s) else { let e = errno; close(m); close(s); throw PN532HostError("ttyname", errno: e) }
        let path = String(cString: name)
        for fd in [m, s] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var attributes = termios()
        tcgetattr(s, &attributes)
        cfmakeraw(&attributes)
        tcsetattr(s, TCSANOW, &attributes)
        _ = fcntl(m, F_SETFL, fcntl(m, F_GETFL) | O_NONBLOCK)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            let e = errno; close(m); close(s); throw PN532HostError("pipe", errno: e)
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        master = m; slave = s; wakeRead = fds[0]; wakeWrite = fds[1]
        slavePath = path
        if let link {
            var info = stat()
            if lstat(link, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFLNK else {
                    close(m); close(s); close(fds[0]); close(fds[1])
                    throw PN532HostError(message: "\(link) exists and is not a symbolic link; not replacing it")
                }
                unlink(link)
            }
            guard symlink(path, link) == 0 else {
                let e = errno; close(m); close(s); close(fds[0]); close(fds[1])
                throw PN532HostError("symlink \(link)", errno: e)
            }
        }
        linkPath = link
    }

    deinit { shutdown() }

    /// The connstring libnfc needs (through the link when there is one).
    public var connstring: String { "pn532_uart:\(linkPath ?? slavePath)" }

    /// Makes ``run(until:)`` return `.stopped` soon; safe from any thread.
    public func stop() {
        var byte: UInt8 = 0
        _ = write(wakeWrite, &byte, 1)
    }

    /// Makes SIGINT and SIGTERM (or `signals`) stop ``run(until:)`` with `.signal`: the handler only
    /// writes the signal number to the wake-up pipe (async-signal-safe).
    public func stopOnSignals(_ signals: [Int32] = [SIGINT, SIGTERM]) {
        PN532SignalPipe.fd = wakeWrite
        // A parent may have started us with these signals blocked (a mask survives exec): unblock.
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for number in signals {
            signal(number) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(PN532SignalPipe.fd, &byte, 1)
            }
        }
    }

    /// Serves frames until `deadline`, ``stop()`` or a signal set up with ``stopOnSignals(_:)``.
    @discardableResult
    public func run(until deadline: ContinuousClock.Instant? = nil) throws -> PN532HostStop {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let now = ContinuousClock.now
            if let deadline, now >= deadline { return .deadline }
            if let wake = emulator.nextWakeUp, now >= wake {
                let bytes = emulator.tick(now: now)
                if !bytes.isEmpty { try send(bytes) }
            }
            var timeout: Int32 = -1
            for instant in [deadline, emulator.nextWakeUp].compactMap({ $0 }) {
                let ms = Self.milliseconds(until: instant, from: now)
                timeout = timeout < 0 ? ms : min(timeout, ms)
            }
            var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                throw PN532HostError("poll")
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                let n = read(wakeRead, &buffer, buffer.count)
                let signalNumber = n > 0 ? Int32(buffer[n - 1]) : 0
                return signalNumber == 0 ? .stopped : .signal(signalNumber)
            }
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let n = read(master, &buffer, buffer.count)
                if n < 0 {
                    if errno == EAGAIN || errno == EINTR { continue }
                    throw PN532HostError("read \(slavePath)")
                }
                if n == 0 { continue }
                try receive(Array(buffer[0..<n]))
            }
        }
    }

    private func receive(_ bytes: [UInt8]) throws {
        for item in decoder.feed(bytes) {
            if let trace {
                switch item {
                case .frame(let frame): trace("> " + Self.hex(frame.encoded))
                case .corrupt(let defect): trace("> corrupt frame: \(defect)")
                }
            }
            if let beforeCommand, case .frame(.information(let tfi, let data)) = item,
               tfi == PN532Frame.hostToChip, let code = data.first {
                beforeCommand(code)
            }
            let answer = emulator.handle(item)
            if !answer.immediate.isEmpty { try send(answer.immediate) }
        }
    }

    private func send(_ bytes: [UInt8]) throws {
        trace?("< " + Self.hex(bytes))
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                guard errno == EAGAIN else { throw PN532HostError("write \(slavePath)") }
                var fd = pollfd(fd: master, events: Int16(POLLOUT), revents: 0)
                guard poll(&fd, 1, 1000) > 0 else { throw PN532HostError(message: "the pseudo-terminal stays full") }
                continue
            }
            offset += n
        }
    }

    /// Closes the descriptors and removes the link; the slave path stops existing.
    public func shutdown() {
        guard !closed else { return }
        closed = true
        if let linkPath {
            var target = [CChar](repeating: 0, count: 256)
            let n = readlink(linkPath, &target, target.count - 1)
            if n > 0, String(decoding: target[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) == slavePath { unlink(linkPath) }
        }
        if PN532SignalPipe.fd == wakeWrite { PN532SignalPipe.fd = -1 }
        close(slave); close(master); close(wakeRead); close(wakeWrite)
    }

    private static func milliseconds(until instant: ContinuousClock.Instant, from now: ContinuousClock.Instant) -> Int32 {
        let d = now.duration(to: instant).components
        let ms = d.seconds * 1000 + d.attoseconds / 1_000_000_000_000_000 + 1
        return Int32(clamping: max(ms, 0))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined(separator: " ")
    }
}

/// The wake-up pipe the signal handler writes to (a C handler captures nothing).
enum PN532SignalPipe {
    nonisolated(unsafe) static var fd: Int32 = -1
}
