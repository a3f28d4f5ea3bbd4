import CommandLineIO
import NFCSim
#if canImport(Glibc)
import Glibc
#endif

/// `--save FILE`: keeps the object's memory in FILE, in a format `--dump` reads, after every
/// change a reader makes. The file is replaced atomically (a private temporary file beside it,
/// then rename), so a reader of FILE sees the old object or the new one, never part of one; a
/// symbolic link at FILE is refused, not followed.
///
/// Unchecked Sendable: the host calls ``update(_:)`` from the one thread that runs it, and the
/// command calls ``finish()`` on that thread after the host has stopped.
final class SavedObject: @unchecked Sendable {
    let path: String
    let format: DumpSaveFormat
    private var saved: DumpedChip?
    private var pending: DumpedChip?
    private var failed = false

    /// Checks FILE and writes the object's memory to it now.
    init(path: String, object: Any, kind: String) throws(ContentFailure) {
        self.path = path
        do { format = try DumpSaveFormat(path: path) } catch {
            throw ContentFailure(status: 64, message: "--save \(path): \(error)")
        }
        guard let object = object as? any DumpableObject else {
            throw ContentFailure(status: 64, message: "--save keeps NTAG and Ultralight, MIFARE Classic, ISO 15693, FeliCa and Topaz objects; a \(kind) has no dump format nfcsim --dump reads")
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFLNK {
                throw ContentFailure(status: 73, message: "--save \(path) is a symbolic link; nfcsim does not follow it: give the path of the file itself")
            }
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw ContentFailure(status: 73, message: "--save \(path) exists and is not a regular file; give a file name")
            }
        }
        let chip = object.dumpedChip
        pending = chip
        do { _ = try DumpFile.serialise(chip, as: format) } catch {
            throw ContentFailure(status: 64, message: "--save \(path): \(error)")
        }
        guard flush() else { throw ContentFailure(status: 73, message: "cannot write \(path)") }
    }

    /// What the start line says about the file.
    var summary: String {
        switch format {
        case .flipper: "keeping what is written in \(path) (Flipper Zero .nfc)"
        case .raw: "keeping what is written in \(path) (raw memory image: read it back with --type)"
        }
    }

    /// After a frame: writes the object to FILE when its memory changed.
    func update(_ object: Any?) {
        guard let chip = (object as? any DumpableObject)?.dumpedChip, chip != saved else { return }
        pending = chip
        _ = flush()
    }

    /// At exit: writes what a failed save left unwritten; false when FILE does not hold the object.
    func finish() -> Bool { flush() }

    private func flush() -> Bool {
        guard let chip = pending else { return true }
        do {
            try writeAtomically(path, try DumpFile.serialise(chip, as: format))
            saved = chip
            pending = nil
            failed = false
            return true
        } catch let error as DumpSaveError {
            if !failed { printError("cannot save \(path): \(error)") }
        } catch {
            if !failed { printError("cannot save \(path): \(error)") }
        }
        failed = true
        return false
    }
}

struct SaveFailure: Error, CustomStringConvertible {
    var description: String
}

/// Replaces `path` with `bytes`: a temporary file in the same directory (mode 0600, less what
/// the umask takes), written and synced, then renamed over `path`. rename replaces a symbolic
/// link itself rather than its target.
func writeAtomically(_ path: String, _ bytes: [UInt8]) throws {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
    let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var template = Array("\(directory)/.\(base).XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    guard fd >= 0 else { throw SaveFailure(description: "cannot create a file in \(directory): \(String(cString: strerror(errno)))") }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            let reason = String(cString: strerror(errno))
            close(fd); unlink(temporary)
            throw SaveFailure(description: reason)
        }
        offset += n
    }
    // mkostemp makes the file 0600; the umask may take more.
    let mask = umask(0o077); umask(mask)
    fchmod(fd, 0o600 & ~mask)
    let synced = fsync(fd) == 0
    guard close(fd) == 0, synced else {
        let reason = String(cString: strerror(errno))
        unlink(temporary)
        throw SaveFailure(description: reason)
    }
    guard rename(temporary, path) == 0 else {
        let reason = String(cString: strerror(errno))
        unlink(temporary)
        throw SaveFailure(description: reason)
    }
}
