#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NDEF
import POSIXEvents
import Synchronization
import SystemPackage

/// Why ``PN532PTYHost/run(until:)`` returned.
public enum PN532HostStop: Hashable, Sendable {
    case deadline
    case stopped
    case signal(Int32)
}

/// Serves a ``PN532Emulator`` on a pseudo-terminal, so libnfc's `pn532_uart` driver talks to it
/// as to a PN532 on a serial port (connstring `pn532_uart:<slavePath>`).
///
/// The slave side is put in raw mode before its path is published, and the host keeps its own
/// descriptor to it open for its whole life: libnfc closes its descriptor on every `nfc_close`,
/// and with no slave open a read on the master fails with EIO (Docs/design/simulators.md §1.6).
/// Event-driven: ``run(until:)`` takes turns of a ``PollLoop`` on the caller's thread (the master
/// and a signal pipe in its poll set, the emulator's next tick or the deadline as its timeout).
///
/// Unchecked Sendable: only ``stop()`` (an atomic and the loop's wake-up) and
/// ``stopOnSignals(_:)`` are for other threads; the emulator, the decoder and `trace` belong to
/// the one thread that calls ``run(until:)`` and ``shutdown()``.
public final class PN532PTYHost: @unchecked Sendable {
    public let slavePath: String
    /// A symbolic link to `slavePath` the host made (and removes when closed).
    public let linkPath: String?
    /// Called with one line per frame in each direction, when set (hex, `>` host to chip).
    public var trace: (@Sendable (String) -> Void)?
    /// Called with each host command's code (``PN532Frame/command(_:_:)``) before the chip
    /// answers it, when set: a test's hook for a fault at a chosen step.
    public var beforeCommand: (@Sendable (UInt8) -> Void)?
    /// Called with the object in the field after the chip has answered each frame, when set:
    /// `nfcsim --save` keeps what a reader wrote.
    public var afterFrame: (@Sendable ((any PN532Target)?) -> Void)?

    private var emulator: PN532Emulator
    private var decoder = PN532FrameDecoder()
    private let master: Int32
    private let slave: Int32
    private let wakeUps: SimulatorLoop
    private var loop: PollLoop { wakeUps.loop }
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
        let wakeUps: SimulatorLoop
        do { wakeUps = try SimulatorLoop() } catch { close(m); close(s); throw error }
        master = m; slave = s
        self.wakeUps = wakeUps
        slavePath = path
        if let link {
            var info = stat()
            if lstat(link, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFLNK else {
                    close(m); close(s); wakeUps.shutdown()
                    throw PN532HostError(message: "\(link) exists and is not a symbolic link; not replacing it")
                }
                unlink(link)
            }
            guard symlink(path, link) == 0 else {
                let e = errno; close(m); close(s); wakeUps.shutdown()
                throw PN532HostError("symlink \(link)", errno: e)
            }
        }
        linkPath = link
        // The loop owns the master: shutdown() cancels it, which closes it.
        let events = wakeUps.events
        wakeUps.loop.add(FileDescriptor(rawValue: m), events: .readable) { _ in
            events.descriptorReady.store(true, ordering: .relaxed)
            return .keepWatching
        }
    }

    deinit { shutdown() }

    /// The connstring libnfc needs (through the link when there is one).
    public var connstring: String { "pn532_uart:\(linkPath ?? slavePath)" }

    /// Makes ``run(until:)`` return `.stopped` soon; safe from any thread.
    public func stop() { wakeUps.stop() }

    /// Makes SIGINT and SIGTERM (or `signals`) stop ``run(until:)`` with `.signal`.
    public func stopOnSignals(_ signals: [Int32] = [SIGINT, SIGTERM]) { wakeUps.stopOnSignals(signals) }

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
            let until = [deadline, emulator.nextWakeUp].compactMap { $0 }.min()
            guard loop.turn(until: until) else { return .stopped }
            switch wakeUps.stopReason() {
            case .signal(let number)?: return .signal(number)
            case .stopped?: return .stopped
            case nil: break
            }
            if wakeUps.events.descriptorReady.exchange(false, ordering: .relaxed) {
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
                case .frame(let frame): trace("> " + Hex.spaced(frame.encoded))
                case .corrupt(let defect): trace("> corrupt frame: \(defect)")
                }
            }
            if let beforeCommand, case .frame(.information(let tfi, let data)) = item,
               tfi == PN532Frame.hostToChip, let code = data.first {
                beforeCommand(code)
            }
            let answer = emulator.handle(item)
            if !answer.immediate.isEmpty { try send(answer.immediate) }
            afterFrame?(emulator.target)
        }
    }

    private func send(_ bytes: [UInt8]) throws {
        trace?("< " + Hex.spaced(bytes))
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
        wakeUps.shutdown()
        close(slave)
    }
}
