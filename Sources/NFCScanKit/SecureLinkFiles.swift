import Authenticity
import Glibc
import LibCrypto

/// The files behind secure-link checks (Docs/authenticity.md), read and written here, at the edge:
/// the keys (`$XDG_CONFIG_HOME/nfcscan/secure-links`, refused unless the user's own with mode
/// 0600) and the read counters (`$XDG_STATE_HOME/nfcscan/secure-link-counters`). nfcscan and
/// nfcscand each use their own user's.
public enum SecureLinkFiles {
    public static func keysPath(environment: [String: String]) -> String? {
        UserFiles.configDirectory(environment).map { $0 + "/secure-links" }
    }

    public static func countersPath(environment: [String: String]) -> String? {
        UserFiles.stateDirectory(environment).map { $0 + "/secure-link-counters" }
    }

    /// The templates in the keys file at `path`: none when there is no file; an error naming the
    /// file (and line) when it cannot be used, for the person to fix.
    public static func loadTemplates(path: String) throws(SecureLinkFilesError) -> [SecureLinkTemplate] {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ENOENT { return [] }
            if errno == ELOOP { throw .init("\(path): refused: a symbolic link; make it a regular file with chmod 600 \(path)") }
            throw .init("\(path): cannot be read (\(String(cString: strerror(errno))))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .init("\(path): cannot be read (\(String(cString: strerror(errno))))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .init("\(path): refused: not a regular file") }
        guard info.st_uid == getuid() else { throw .init("\(path): refused: it holds keys and is not yours (owner \(info.st_uid))") }
        guard info.st_mode & 0o077 == 0 else {
            throw .init("\(path): refused: it holds keys and others may read it (mode \(String(info.st_mode & 0o777, radix: 8))); run chmod 600 \(path)")
        }
        guard let bytes = readAll(fd, limit: SecureLinkKeysFile.maximumBytes + 1) else {
            throw .init("\(path): cannot be read (\(String(cString: strerror(errno))))")
        }
        do { return try SecureLinkKeysFile.parse(bytes) } catch { throw .init(error.description(file: path)) }
    }

    /// At most `limit` bytes from `fd`; nil on a read error.
    static func readAll(_ fd: Int32, limit: Int) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while out.count < limit {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, limit - out.count)) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            out += buffer[0..<n]
        }
        return out
    }
}

/// Why the keys file is not used: the whole sentence, file (and line) first.
public struct SecureLinkFilesError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// The counters in a file, read, decided on and written back under an exclusive lock (`flock` on
/// the file `…-counters.lock` beside it), so nfcscan and nfcscand of one user never lose each
/// other's counters; written to a temporary file and renamed over, so a crash leaves the old
/// file or the new one. A file that cannot be written keeps the counters in memory instead
/// (a replay is still found while the process runs).
public final class SecureLinkCounterFile: SecureLinkCounters {
    public let path: String
    private let fallback = SecureLinkCounterMemory()

    public init(path: String) {
        self.path = path
    }

    public func remember(uid: [UInt8], counter: Int) -> Bool {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        guard !directory.isEmpty, Self.makeDirectories(directory) else { return fallback.remember(uid: uid, counter: counter) }
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard lock >= 0 else { return fallback.remember(uid: uid, counter: counter) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 { guard errno == EINTR else { return fallback.remember(uid: uid, counter: counter) } }
        var table = SecureLinkCounterTable()
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        if fd >= 0 {
            var info = stat()
            if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
               let bytes = SecureLinkFiles.readAll(fd, limit: SecureLinkCounterTable.maximumFileBytes) {
                table = SecureLinkCounterTable(text: bytes)
            }
            close(fd)
        }
        let replayed = table.remember(uid: uid, counter: counter)
        if !replayed, !write(table.text) { return fallback.remember(uid: uid, counter: counter) }
        return replayed
    }

    /// Whether counters can be kept at `path`: its directory exists or was made (mode 0700) and
    /// this user may write in it.
    public static func canKeep(at path: String) -> Bool {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        return !directory.isEmpty && makeDirectories(directory) && access(directory, W_OK) == 0
    }

    private func write(_ bytes: [UInt8]) -> Bool {
        let temporary = path + ".new"
        // A file left at the temporary name (a crash, or planted) is removed, never written through.
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { close(fd); unlink(temporary); return false }
            written += n
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, path) == 0 else { unlink(temporary); return false }
        return true
    }

    /// Creates `directory` and its parents (mode 0700) as needed.
    private static func makeDirectories(_ directory: String) -> Bool {
        var info = stat()
        if stat(directory, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR }
        let parent = String(directory[..<(directory.lastIndex(of: "/") ?? directory.startIndex)])
        if !parent.isEmpty, !makeDirectories(parent) { return false }
        return mkdir(directory, 0o700) == 0 || errno == EEXIST
    }
}

extension AuthenticityChecks {
    /// The checks as nfcscan and nfcscand run them for the user whose `environment` this is:
    /// OpenSSL's arithmetic, the user's trust anchors for signed messages (``PersonTrust``), and
    /// their secure-link templates and counters. A keys file that cannot be used is passed to
    /// `problem` (the sentence to show or log) and no link is checked; everything else is still
    /// checked.
    public static func forUser(environment: [String: String], problem: (String) -> Void) -> AuthenticityChecks {
        var checks = AuthenticityChecks.openSSL
        checks.trustAnchors = PersonTrust.directory(environment: environment).map(PersonTrust.anchors(in:)) ?? []
        guard let keys = SecureLinkFiles.keysPath(environment: environment) else { return checks }
        do {
            checks.secureLinks = try SecureLinkFiles.loadTemplates(path: keys)
        } catch {
            problem(error.description)
        }
        guard !checks.secureLinks.isEmpty else { return checks }
        let counters = SecureLinkFiles.countersPath(environment: environment)
        if let counters, SecureLinkCounterFile.canKeep(at: counters) {
            checks.secureLinkCounters = SecureLinkCounterFile(path: counters)
        } else {
            // Said, not lost silently: replays are then found only while this process runs.
            problem("the read counters of secure links can't be kept in \(counters ?? "$XDG_STATE_HOME/nfcscan (no HOME)"): "
                    + "a copied link is recognised only while this program runs")
        }
        return checks
    }
}
