import Glibc
import POSIXEvents
import SystemPackage

/// An app's request that nothing be read in the background (a wallet, payment or smart-card app
/// using the reader), held as long as the app keeps open the file descriptor `Inhibit` gave it,
/// like logind's inhibitors: closing it, or the app ending, releases it without a call.
///
/// The daemon keeps the read end of a pipe whose write end the app holds; end of file on the
/// read end (every copy of the write end closed) is the release. Event-driven, no polling: the read
/// end is one more descriptor in the daemon's ``PollLoop`` (one thread for every inhibitor and
/// descriptor watch, not a thread each), which owns and closes it.
///
/// Not a dispatch read source: the release is a hang-up (EPOLLHUP), and libdispatch's epoll
/// backend answers a hang-up by waking the source, whose queue may then unregister it and free
/// its epoll record while the manager thread is still using that record: a use-after-free that
/// crashed nfcscand with SIGSEGV in `_dispatch_event_loop_drain` within a few inhibit/release
/// rounds (issue 11; Tests/Reliability/inhibit-session-rounds.sh; upstream
/// swift-corelibs-libdispatch#949). No descriptor whose peer can hang up goes to a dispatch source.
final class Inhibitor: Sendable {
    let id: Int
    let who: String
    let why: String
    let owner: String
    private let loop: PollLoop
    private let watch: PollWatch
    /// Called once: by the watch at end of file, or by ``cancel()``, whichever comes first.
    private let release: LockedValue<(@Sendable () -> Void)?>

    /// Bounds on what an app may make the daemon keep and log.
    static let maximumTextLength = 256
    static let maximumPerOwner = 8

    /// Creates the pipe and watches its read end on `loop`; returns the inhibitor and the write end
    /// to hand to the app (close it with ``handedOver(_:)`` after the reply is sent: the bus
    /// carries a duplicate). `released` is called once: on the loop's thread when the app lets
    /// go, or from ``cancel()``.
    static func make(id: Int, who: String, why: String, owner: String, loop: PollLoop,
                     released: @escaping @Sendable () -> Void) -> (Inhibitor, FileDescriptor)? {
        // The app's end stays blocking (it is the app's); the daemon's end never blocks.
        guard let (readEnd, writeEnd) = try? FileDescriptor.pipe(options: [.closeOnExec]) else { return nil }
        _ = fcntl(readEnd.rawValue, F_SETFL, O_NONBLOCK)
        let release = LockedValue<(@Sendable () -> Void)?>(released)
        let watch = loop.add(readEnd, events: .readable) { _ in
            // Bytes written by the app mean nothing; end of file (or an error) is the release.
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(readEnd.rawValue, &buffer, buffer.count)
            guard count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) else { return .keepWatching }
            Self.fire(release)
            return .stopWatching
        }
        return (Inhibitor(id: id, who: who, why: why, owner: owner, loop: loop, watch: watch, release: release), writeEnd)
    }

    private init(id: Int, who: String, why: String, owner: String, loop: PollLoop, watch: PollWatch,
                 release: LockedValue<(@Sendable () -> Void)?>) {
        self.id = id
        self.who = who
        self.why = why
        self.owner = owner
        self.loop = loop
        self.watch = watch
        self.release = release
    }

    private static func fire(_ release: LockedValue<(@Sendable () -> Void)?>) {
        let handler = release.withLock { handler in
            defer { handler = nil }
            return handler
        }
        handler?()
    }

    /// Closes the daemon's copy of the write end once the reply carrying it is sent.
    static func handedOver(_ writeEnd: FileDescriptor) { try? writeEnd.close() }

    /// Releases it from the daemon's side (the daemon is stopping): the read end is closed by the
    /// loop, and `released` is called if the app had not let go already.
    func cancel() {
        loop.remove(watch)
        Self.fire(release)
    }
}
