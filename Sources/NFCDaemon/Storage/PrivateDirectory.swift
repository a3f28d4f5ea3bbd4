import Glibc
import SystemPackage

/// A directory of the daemon's own (the broker's spool, the runtime directory's marker), reached
/// as a careful daemon reaches it: every file is opened relative to one directory descriptor that
/// was checked once, so nothing planted in the person's directories later redirects a read or a
/// write.
///
/// - The base (`$XDG_STATE_HOME`, `$STATE_DIRECTORY`, `$XDG_RUNTIME_DIR`) is the person's setting
///   and may be a link; it must belong to the person and be writable by no one else.
/// - The directories of ours below it are made 0700 when missing, never followed when they are
///   links, and must belong to the person with no access for anyone else: one that fails is
///   refused with a sentence saying what to fix, never used, never chmodded behind the person.
/// - Files are opened `O_NOFOLLOW | O_CLOEXEC`, must be regular files within a size bound, and
///   are replaced by writing a temporary file made `O_EXCL` beside them, fsynced, renamed over
///   them and the directory fsynced.
///
/// Sendable: the only state is the descriptor, set once in `init` and closed in `deinit`; the
/// calls made on it (`openat`, `renameat`, `unlinkat`, `fsync`) are thread-safe.
public final class PrivateDirectory: Sendable {
    /// The directory's path, for log lines and errors only (never opened again by name).
    public let path: String
    private let directory: FileDescriptor
    private var descriptor: Int32 { directory.rawValue }

    /// Why a directory or one of its files was refused, in a sentence that says what to do.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public var description: String
        /// The call's errno when a system call failed (ENOSPC: the disk is full), else 0.
        public var code: Int32 = 0
    }

    /// Opens `base`/`components…`, making each missing component 0700; the checks are in the
    /// type's documentation.
    public init(base: String, components: [String], user: uid_t = geteuid()) throws(Failure) {
        guard !base.isEmpty else { throw Failure(description: "no base directory given") }
        try Self.makeBase(base)
        var current = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else { throw Self.failure("cannot open \(base)") }
        var path = base
        do throws(Failure) {
            try Self.check(current, path: path, user: user, ours: false)
            for component in components {
                guard !component.isEmpty, !component.contains("/"), component != ".", component != ".." else {
                    throw Failure(description: "\(component) is not a directory name")
                }
                path += "/" + component
                if mkdirat(current, component, 0o700) != 0, errno != EEXIST { throw Self.failure("cannot create \(path)") }
                let next = openat(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard next >= 0 else {
                    throw errno == ELOOP || errno == ENOTDIR
                        ? Failure(description: "\(path) is a symbolic link or not a directory; nfcscand follows none: remove it (nfcscand makes its own)")
                        : Self.failure("cannot open \(path)")
                }
                close(current)
                current = next
                try Self.check(current, path: path, user: user, ours: true)
            }
        } catch {
            close(current)
            throw error
        }
        self.path = path
        directory = FileDescriptor(rawValue: current)
    }

    deinit { try? directory.close() }

    /// nfcscand's own directory in `runtimeDirectory` ($XDG_RUNTIME_DIR/nfcscan, which the unit's
    /// RuntimeDirectory= makes): the unlock marker, the private files handed to apps.
    public static func runtime(in runtimeDirectory: String) throws(Failure) -> PrivateDirectory {
        try PrivateDirectory(base: runtimeDirectory, components: ["nfcscan"])
    }

    /// Makes `base` and its missing parents 0700 (as `mkdir -p` would); what exists is left as it is.
    private static func makeBase(_ base: String) throws(Failure) {
        var made = ""
        for part in base.split(separator: "/", omittingEmptySubsequences: true) {
            made += "/" + part
            if mkdir(made, 0o700) != 0, errno != EEXIST { throw failure("cannot create \(made)") }
        }
    }

    /// The person's own directory: owned by `user`; ours also refuses any access for others,
    /// the base only writing by others (a home directory is often 0755).
    private static func check(_ descriptor: Int32, path: String, user: uid_t, ours: Bool) throws(Failure) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("cannot inspect \(path)") }
        guard status.st_uid == user else {
            throw Failure(description: "\(path) belongs to user \(status.st_uid), not to \(user) who runs nfcscand; remove it or give it back (chown)")
        }
        let mode = status.st_mode & 0o7777
        if ours, mode & 0o077 != 0 {
            throw Failure(description: "\(path) is open to others (mode \(String(mode, radix: 8))); make it private: chmod 700 \(path)")
        }
        if !ours, mode & 0o022 != 0 {
            throw Failure(description: "\(path) is writable by others (mode \(String(mode, radix: 8))); nfcscand keeps nothing there: chmod go-w \(path)")
        }
    }

    // MARK: Files

    /// What `name` holds: nil when there is no such file; a failure when it is not a regular file
    /// (a link, a directory, a device), larger than `maximumBytes`, or unreadable.
    public func read(_ name: String, maximumBytes: Int) throws(Failure) -> [UInt8]? {
        let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw Failure(description: "\(path)/\(name) is a symbolic link", code: ELOOP) }
            throw Self.failure("cannot open \(path)/\(name)")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw Self.failure("cannot inspect \(path)/\(name)") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw Failure(description: "\(path)/\(name) is not a regular file") }
        guard status.st_size <= maximumBytes else {
            throw Failure(description: "\(path)/\(name) holds \(status.st_size) bytes, more than the \(maximumBytes) it may")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0, errno == EINTR { continue }
            if n < 0 { throw Self.failure("cannot read \(path)/\(name)") }
            if n == 0 { break }
            filled += n
        }
        return Array(bytes.prefix(filled))
    }

    /// Replaces `name` with `bytes` so that a crash leaves the old or the new file whole: a new
    /// temporary file (`O_EXCL`: nothing planted is written through), fsynced, renamed over `name`
    /// (a link at `name` is replaced, not followed), then the directory fsynced.
    public func replace(_ name: String, with bytes: [UInt8]) throws(Failure) {
        var temporary = ""
        var made = false
        for _ in 0..<8 where !made {
            temporary = ".\(name).\(UInt32.random(in: 0...UInt32.max)).tmp"
            do throws(Failure) {
                try create(temporary, with: bytes, synced: true)
                made = true
            } catch where error.code == EEXIST {
                continue
            }
        }
        guard made else { throw Failure(description: "cannot create a file in \(path): every name tried exists", code: EEXIST) }
        guard renameat(descriptor, temporary, descriptor, name) == 0 else {
            let failure = Self.failure("cannot rename into \(path)/\(name)")
            unlinkat(descriptor, temporary, 0)
            throw failure
        }
        syncDirectory()
    }

    /// Makes `name`, which must not exist (`O_EXCL`: a link or file already there is refused,
    /// never written through), holding `bytes`, readable by the person alone; fsynced when
    /// `synced`. A file that could not be written whole is removed.
    public func create(_ name: String, with bytes: [UInt8], synced: Bool = false) throws(Failure) {
        let fd = openat(descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.failure("cannot create \(path)/\(name)") }
        do throws(Failure) {
            do { _ = try FileDescriptor(rawValue: fd).writeAll(bytes) } catch {
                throw Failure(description: "cannot write \(path)/\(name): \(error)", code: (error as? Errno)?.rawValue ?? 0)
            }
            if synced, fsync(fd) != 0 { throw Self.failure("cannot sync \(path)/\(name)") }
            close(fd)
        } catch {
            close(fd)
            unlinkat(descriptor, name, 0)
            throw error
        }
    }

    /// Opens `name` for reading and writing in place (never following a link), for a record
    /// updated with ``RecordFile/overwrite(_:at:)``; nil when there is no such file.
    public func openForUpdate(_ name: String) throws(Failure) -> RecordFile? {
        let fd = openat(descriptor, name, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw Self.failure("cannot open \(path)/\(name)")
        }
        let file = RecordFile(FileDescriptor(rawValue: fd), what: "\(path)/\(name)")
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw Failure(description: "\(path)/\(name) is not a regular file")
        }
        return file
    }

    /// Removes `name` (a link is removed, not followed); nothing when it is not there.
    public func remove(_ name: String) {
        unlinkat(descriptor, name, 0)
    }

    /// Moves `name` out of the way as `name.rejected`, for a person to look at: what nfcscand
    /// could not trust is neither used nor destroyed.
    public func setAside(_ name: String) throws(Failure) {
        guard renameat(descriptor, name, descriptor, name + ".rejected") == 0 else { throw Self.failure("cannot set aside \(path)/\(name)") }
        syncDirectory()
    }

    /// The names in the directory (without `.` and `..`), at most `maximum` of them.
    public func names(maximum: Int) throws(Failure) -> [String] {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            throw Self.failure("cannot list \(path)")
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while names.count < maximum, let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    private func syncDirectory() {
        fsync(descriptor)
    }

    fileprivate static func failure(_ what: String) -> Failure {
        let code = errno
        return Failure(description: "\(what): \(String(cString: strerror(code)))", code: code)
    }
}

/// A small file of fixed-size records updated in place (the spool's `counters`): an update takes
/// no new space, so it still works on a full disk. Closed when released.
public final class RecordFile {
    private let file: FileDescriptor
    private let what: String

    fileprivate init(_ file: FileDescriptor, what: String) {
        self.file = file
        self.what = what
    }

    deinit { try? file.close() }

    /// Writes `bytes` at `offset` and syncs the data.
    public func overwrite(_ bytes: [UInt8], at offset: Int) throws(PrivateDirectory.Failure) {
        do {
            _ = try file.writeAll(toAbsoluteOffset: Int64(offset), bytes)
        } catch {
            throw PrivateDirectory.Failure(description: "cannot write \(what): \(error)", code: (error as? Errno)?.rawValue ?? 0)
        }
        guard fdatasync(file.rawValue) == 0 else { throw PrivateDirectory.failure("cannot sync \(what)") }
    }
}
