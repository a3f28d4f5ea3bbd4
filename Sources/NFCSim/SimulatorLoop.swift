#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import POSIXEvents
import Synchronization
import SystemPackage

/// Why a simulator's system call failed, or what it refused (the PN532 host's and the vpcd
/// client's errors: one description, errno's text after what was being done).
public struct SimulatorError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ what: String, errno code: Int32 = errno) {
        description = "\(what): \(String(cString: strerror(code)))"
    }
    init(message: String) { description = message }
}

public typealias PN532HostError = SimulatorError
public typealias VPCDError = SimulatorError

/// The poll loop a simulator's one thread turns (``PN532PTYHost``, ``VPCDClient``), with the two
/// ways in from elsewhere: ``stop()`` from another thread, and signals, whose handler may only
/// write their number to a pipe the loop watches (async-signal-safe). Each simulator adds its own
/// descriptor (the pty's master, the socket to vpcd) to ``loop`` and reads ``events``.
///
/// Unchecked Sendable: ``stop()`` (an atomic and the loop's wake-up) is for any thread, as
/// ``stopOnSignals(_:)`` is for the process's set-up; the rest belongs to the simulator's thread.
final class SimulatorLoop: @unchecked Sendable {
    let loop: PollLoop
    let events = HostEvents()
    private let signalWrite: Int32
    private var closed = false

    /// Why the loop was woken, when it is to stop.
    enum StopReason: Equatable {
        case stopped
        case signal(Int32)
    }

    init() throws(SimulatorError) {
        let signals: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do {
            loop = try PollLoop()
            signals = try FileDescriptor.pipe(options: [.closeOnExec, .nonBlocking])
        } catch {
            throw SimulatorError("pipe", errno: error.rawValue)
        }
        signalWrite = signals.writeEnd.rawValue
        // The loop owns the signal pipe's read end: shutdown() cancels it, which closes it.
        let events = events
        loop.add(signals.readEnd, events: .readable) { _ in
            var bytes = [UInt8](repeating: 0, count: 16)
            let n = read(signals.readEnd.rawValue, &bytes, bytes.count)
            if n > 0 { events.signal.store(Int32(bytes[n - 1]), ordering: .relaxed) }
            return .keepWatching
        }
    }

    /// Makes the next turn return soon with ``StopReason/stopped``; safe from any thread.
    func stop() {
        events.stopped.store(true, ordering: .relaxed)
        loop.wake()
    }

    /// Makes SIGINT and SIGTERM (or `signals`) wake the loop with ``StopReason/signal(_:)``.
    func stopOnSignals(_ signals: [Int32]) {
        SimulatorSignalPipe.fd = signalWrite
        // A parent may have started us with these signals blocked (a mask survives exec): unblock.
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for number in signals {
            signal(number) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SimulatorSignalPipe.fd, &byte, 1)
            }
        }
    }

    /// A signal that arrived or a ``stop()``, taken (the next call says nil until another).
    func stopReason() -> StopReason? {
        let number = events.signal.exchange(0, ordering: .relaxed)
        if number != 0 { return .signal(number) }
        if events.stopped.exchange(false, ordering: .relaxed) { return .stopped }
        return nil
    }

    /// Closes the loop (and the descriptors it owns) and the signal pipe.
    func shutdown() {
        guard !closed else { return }
        closed = true
        if SimulatorSignalPipe.fd == signalWrite { SimulatorSignalPipe.fd = -1 }
        loop.cancel()
        close(signalWrite)
    }
}

/// What the loop's handlers saw (not the simulator itself: the loop would keep it alive).
final class HostEvents: Sendable {
    /// The pty's master (the socket to vpcd) has something to read, or hung up.
    let descriptorReady = Atomic<Bool>(false)
    let stopped = Atomic<Bool>(false)
    /// The last signal number the handler wrote; 0: none.
    let signal = Atomic<Int32>(0)
}

/// The pipe the signal handler writes to (a C handler captures nothing). One per process: the
/// last simulator to ask for signals gets them.
enum SimulatorSignalPipe {
    nonisolated(unsafe) static var fd: Int32 = -1
}
