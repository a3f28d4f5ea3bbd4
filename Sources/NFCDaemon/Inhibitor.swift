import Foundation
import Glibc

/// An app's request that nothing be read in the background (a wallet, payment or smart-card app
/// using the reader), held as long as the app keeps open the file descriptor `Inhibit` gave it,
/// like logind's inhibitors: closing it, or the app ending, releases it without a call.
///
/// The daemon keeps the read end of a pipe whose write end the app holds; end of file on the
/// read end (every copy of the write end closed) is the release. Event-driven, no polling: a
/// thread of its own sleeps in poll(2) on the read end and a wake-up pipe (for ``cancel()``).
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
    /// The wake-up pipe's write end while the watch runs; nil once it ended (its descriptors are
    /// closed then, so a late ``cancel()`` must not write to a number the process may reuse).
    private let wake: LockedValue<Int32?>

    /// Bounds on what an app may make the daemon keep and log.
    static let maximumTextLength = 256
    static let maximumPerOwner = 8

    /// Creates the pipes and starts watching; returns the inhibitor and the write end to hand to
    /// the app (close it after the reply is sent: the bus carries a duplicate). `released` is
    /// called once, on the watch's thread, when the app lets go or after ``cancel()``.
    static func make(id: Int, who: String, why: String, owner: String,
                     released: @escaping @Sendable () -> Void) -> (Inhibitor, Int32)? {
        var held: [Int32] = [-1, -1]
        guard pipe(&held) == 0 else { return nil }
        var wakeup: [Int32] = [-1, -1]
        guard pipe(&wakeup) == 0 else {
            close(held[0]); close(held[1])
            return nil
        }
        for fd in held + wakeup { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(held[0], F_SETFL, O_NONBLOCK)
        let inhibitor = Inhibitor(id: id, who: who, why: why, owner: owner, wake: LockedValue(wakeup[1]))
        let (readEnd, wakeRead, wake) = (held[0], wakeup[0], inhibitor.wake)
        let thread = Thread { watch(readEnd: readEnd, wakeRead: wakeRead, wake: wake, released: released) }
        thread.name = "nfcscand-inhibitor"
        thread.start()
        return (inhibitor, held[1])
    }

    private init(id: Int, who: String, why: String, owner: String, wake: LockedValue<Int32?>) {
        self.id = id
        self.who = who
        self.why = why
        self.owner = owner
        self.wake = wake
    }

    /// Sleeps until the app lets go (end of file or an error on the read end) or the daemon
    /// cancels, then closes every descriptor of the watch and reports the release.
    private static func watch(readEnd: Int32, wakeRead: Int32, wake: LockedValue<Int32?>,
                              released: @Sendable () -> Void) {
        var buffer = [UInt8](repeating: 0, count: 64)
        var fds = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            if fds[1].revents != 0 { break }
            guard fds[0].revents != 0 else { continue }
            // Bytes written by the app mean nothing; end of file (or an error) is the release.
            let count = read(readEnd, &buffer, buffer.count)
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { break }
        }
        wake.withLock { writeEnd in
            if let end = writeEnd { close(end) }
            writeEnd = nil
        }
        close(wakeRead)
        close(readEnd)
        released()
    }

    /// Closes the daemon's copy of the write end once the reply carrying it is sent.
    static func handedOver(_ writeEnd: Int32) { close(writeEnd) }

    /// Releases it from the daemon's side (the daemon is stopping).
    func cancel() {
        wake.withLock { writeEnd in
            guard let end = writeEnd else { return }
            var one: UInt8 = 1
            _ = write(end, &one, 1)
        }
    }
}
