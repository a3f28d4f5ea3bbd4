#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a command-line tool's lines go.
public enum StandardStream: Sendable {
    case output
    case error

    var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }
}

/// Writes one whole line with as few write calls as the kernel allows: unbuffered, so it reaches a
/// pipe at once (scripts and tests read the simulator's lines while it runs), and lines from
/// concurrent writers do not interleave.
public func writeLine(_ line: String, to stream: StandardStream = .output) {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(stream.descriptor, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
    }
}
