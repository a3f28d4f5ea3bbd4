import Dispatch
import Glibc

/// An app's request that nothing be read in the background (a wallet, payment or smart-card app
/// using the reader), held as long as the app keeps open the file descriptor `Inhibit` gave it,
/// like logind's inhibitors: closing it, or the app ending, releases it without a call.
///
/// The daemon keeps the read end of a pipe whose write end the app holds; end of file on the
/// read end (every copy of the write end closed) is the release. Event-driven: a dispatch read
/// source, no polling.
final class Inhibitor: @unchecked Sendable {
    let id: Int
    let who: String
    let why: String
    let owner: String
    private let source: DispatchSourceRead

    /// Bounds on what an app may make the daemon keep and log.
    static let maximumTextLength = 256
    static let maximumPerOwner = 8

    /// Creates the pipe; returns the inhibitor and the write end to hand to the app (close it
    /// after the reply is sent: the bus carries a duplicate).
    static func make(id: Int, who: String, why: String, owner: String,
                     released: @escaping @Sendable () -> Void) -> (Inhibitor, Int32)? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        return (Inhibitor(id: id, who: who, why: why, owner: owner, readEnd: fds[0], released: released), fds[1])
    }

    private init(id: Int, who: String, why: String, owner: String, readEnd: Int32, released: @escaping @Sendable () -> Void) {
        self.id = id
        self.who = who
        self.why = why
        self.owner = owner
        source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .global())
        let source = source
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(readEnd, &buffer, buffer.count)
            // Bytes written by the app mean nothing; end of file (or an error) is the release.
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) {
                source.cancel()
            }
        }
        source.setCancelHandler {
            close(readEnd)
            released()
        }
        source.resume()
    }

    /// Closes the daemon's copy of the write end once the reply carrying it is sent.
    static func handedOver(_ writeEnd: Int32) { close(writeEnd) }

    /// Releases it from the daemon's side (the daemon is stopping).
    func cancel() { source.cancel() }
}
