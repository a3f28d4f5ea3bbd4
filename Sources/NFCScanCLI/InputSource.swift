#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a command's input bytes from a file or standard input, bounded in size.
///
/// Plain POSIX reads keep start-up fast (scripts call `nfcscan decode` in loops).
enum InputSource {
    /// Far above any real object's memory (the largest hold 64 KiB; Type 4 objects rarely more
    /// than a few), low enough that a wrong file cannot exhaust memory.
    static let maxBytes = 16 << 20

    static func read(path: String?) throws(CommandFailure) -> [UInt8] {
        let fd: Int32
        let name: String
        if let path, path != "-" {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            name = path
            guard fd >= 0 else {
                throw CommandFailure(message: "cannot open \(path): \(String(cString: strerror(errno)))", status: ExitStatus.noInput)
            }
        } else {
            if isatty(STDIN_FILENO) == 1 {
                throw CommandFailure(message: "no input: give a FILE, or pipe the bytes in (e.g. `xxd -r -p poster.hex | nfcscan decode`)",
                                     status: ExitStatus.usage)
            }
            fd = STDIN_FILENO
            name = "standard input"
        }
        defer { if fd != STDIN_FILENO { close(fd) } }

        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CommandFailure(message: "cannot read \(name): \(String(cString: strerror(errno)))", status: ExitStatus.noInput)
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= maxBytes else {
                throw CommandFailure(message: "\(name) is larger than \(maxBytes >> 20) MiB: not a message", status: ExitStatus.dataError)
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
