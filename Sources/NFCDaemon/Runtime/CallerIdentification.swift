import AppIdentity
import DBusValues
import Glibc
import POSIXEvents
import Synchronization
import Systemd

/// Who a D-Bus caller is, learnt from the bus and the kernel, never from what the caller says:
/// the thin I/O edge of ``IdentityResolver`` (AppIdentity), which decides.
///
/// 1. `org.freedesktop.DBus.GetConnectionCredentials` of the caller's unique name: `ProcessID`
///    and `UnixUserID` (with the bus call's own timeout). When the bus also hands a `ProcessFD`
///    (a pidfd: dbus-broker, dbus-daemon 1.15.6 and later), its `Pid:` must be the same process.
/// 2. `/proc/PID` opened once as a directory; everything else is read relative to that
///    descriptor, so a PID taken by another process after the first exits reads nothing of it
///    (the kernel answers ESRCH), and its start time (`stat`, field 22) is read before and after:
///    a change, or a process gone, is nil. After the reads the pidfd (when there is one) must
///    not have ended, and the bus must still give the same PID and UID for the name: a caller
///    that ended before `/proc/PID` was opened, its PID given to another, has lost its name.
/// 3. `cgroup` (bounded: ``SystemdScope/maximumBytes``), `root/.flatpak-info` through the
///    process's own root, the magic link xdg-desktop-portal reads it through too (opened
///    `O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY`, a regular file of at most
///    ``FlatpakInfo/maximumBytes``; ENOENT: not sandboxed), and `readlink exe`.
///
/// The files under `root/` are served by whatever file system the caller's root holds, which a
/// caller in a namespace of its own could make one that never answers (FUSE): so they are read
/// on a thread of their own, and the caller waits for that thread at most ``deadline`` (nil
/// then). A thread stuck that way stays stuck; at most ``maximumStuckReads`` are allowed at once
/// and beyond that callers are not identified (nil) until one comes back.
public enum CallerIdentification {
    /// How long the bus call, and then the reads, may take each.
    public static let deadline: Duration = .seconds(2)
    public static let maximumStuckReads = 4

    /// The caller `uniqueName` (`:1.42`) on `bus`, or nil when the bus does not answer in time,
    /// answers without a process ID, or the process cannot be read as one (gone, replaced,
    /// its files out of reach within the deadline).
    public static func identify(_ uniqueName: String, bus: BusConnection, deadline: Duration = deadline) async -> AppIdentity? {
        guard let before = await credentials(of: uniqueName, bus: bus, deadline: deadline) else { return nil }
        defer { if let fd = before.processFD { close(fd) } }
        let pid = before.credentials.pid
        guard let read = await onThread(deadline: deadline, { readProcess(pid) }) ?? nil else { return nil }
        // The PID read is still the caller's: with a pidfd, its process has not ended; and the
        // bus still gives the same process for the name (a caller that ended while its files
        // were read, its PID given to another process, has lost its name by now).
        if let fd = before.processFD, hasEnded(fd) { return nil }
        guard let after = await credentials(of: uniqueName, bus: bus, deadline: deadline) else { return nil }
        if let fd = after.processFD { close(fd) }
        guard after.credentials == before.credentials else { return nil }
        return IdentityResolver.resolve(credentials: before.credentials, cgroup: read.cgroup, flatpakInfo: read.flatpakInfo,
                                        executable: read.executable)
    }

    /// `GetConnectionCredentials` read into ``IdentityResolver/Credentials``, with the
    /// `ProcessFD` when the bus sent one (the caller's to close).
    static func credentials(of uniqueName: String, bus: BusConnection,
                            deadline: Duration) async -> (credentials: IdentityResolver.Credentials, processFD: Int32?)? {
        guard let reply = try? await bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                              interface: "org.freedesktop.DBus", member: "GetConnectionCredentials",
                                              [.string(uniqueName)], timeout: deadline),
              let fields = reply.first?.stringKeyedValue else { return nil }
        var processFD: Int32?
        for (key, value) in fields {
            if case .unixFD(let fd) = value {
                // The decoder gave us a duplicate: ours to close.
                if key == "ProcessFD", fd >= 0 { processFD = fd } else if fd >= 0 { close(fd) }
            }
        }
        guard case .uint32(let pid)? = fields["ProcessID"], pid > 0,
              case .uint32(let uid)? = fields["UnixUserID"] else {
            if let processFD { close(processFD) }
            return nil
        }
        if let processFD, pidOfPidfd(processFD) != pid {
            close(processFD)
            return nil
        }
        return (IdentityResolver.Credentials(pid: pid, uid: uid), processFD)
    }

    /// Whether a pidfd's process has ended (it polls readable then).
    static func hasEnded(_ pidfd: Int32) -> Bool {
        var entry = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) != 0
    }

    /// What ``IdentityResolver`` is given from `/proc/PID`.
    struct ProcessFiles: Sendable {
        var cgroup: [UInt8]?
        var flatpakInfo: IdentityResolver.File
        var executable: [UInt8]?
    }

    /// Reads the process's files; nil when it is gone or its PID now names another process.
    static func readProcess(_ pid: UInt32) -> ProcessFiles? {
        let directory = open("/proc/\(pid)", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return nil }
        defer { close(directory) }
        guard let started = startTime(directory) else { return nil }
        let files = ProcessFiles(cgroup: readBounded(directory, "cgroup", maximumBytes: SystemdScope.maximumBytes),
                                 flatpakInfo: flatpakInfo(directory), executable: link(directory, "exe"))
        guard startTime(directory) == started else { return nil }
        return files
    }

    /// `root/.flatpak-info`, as xdg-desktop-portal reads it: through the process's root, the
    /// last component never a link, a regular file, bounded.
    static func flatpakInfo(_ directory: Int32) -> IdentityResolver.File {
        let fd = openat(directory, "root/.flatpak-info", O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            return code == ENOENT ? .missing : .unreadable(String(cString: strerror(code)))
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return .unreadable(String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .unreadable("not a regular file") }
        guard status.st_size <= FlatpakInfo.maximumBytes else { return .unreadable("\(status.st_size) bytes") }
        guard let bytes = readAll(fd, maximumBytes: FlatpakInfo.maximumBytes) else {
            return .unreadable("more than \(FlatpakInfo.maximumBytes) bytes, or a read failed")
        }
        return .contents(bytes)
    }

    /// `stat`'s field 22, starttime: after the command in parentheses (which may itself hold
    /// spaces and parentheses, so the last `)` ends it), the 20th field.
    static func startTime(_ directory: Int32) -> [UInt8]? {
        guard let bytes = readBounded(directory, "stat", maximumBytes: 4096),
              let end = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[(end + 1)...].split(separator: UInt8(ascii: " "))
        // fields[0] is field 3 (state): field 22 is fields[19].
        guard fields.count > 19 else { return nil }
        return Array(fields[19])
    }

    /// A /proc file (its size says 0: read to the end), nil when it cannot be read or holds more
    /// than `maximumBytes`.
    static func readBounded(_ directory: Int32, _ name: String, maximumBytes: Int) -> [UInt8]? {
        let fd = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return readAll(fd, maximumBytes: maximumBytes)
    }

    /// Reads to the end; nil past `maximumBytes` or on an error.
    static func readAll(_ fd: Int32, maximumBytes: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0, errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
            filled += n
        }
        return filled > maximumBytes ? nil : Array(bytes.prefix(filled))
    }

    /// `readlinkat`, nil on an error or a target longer than PATH_MAX.
    static func link(_ directory: Int32, _ name: String) -> [UInt8]? {
        let capacity = Int(PATH_MAX) + 1
        var buffer = [UInt8](repeating: 0, count: capacity)
        let n = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: capacity) { readlinkat(directory, name, $0, capacity) }
        }
        guard n > 0, n < capacity else { return nil }
        return Array(buffer.prefix(n))
    }

    /// The `Pid:` line of a pidfd's fdinfo (Linux 5.4); nil when there is none.
    static func pidOfPidfd(_ fd: Int32) -> UInt32? {
        let directory = open("/proc/self/fdinfo", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return nil }
        defer { close(directory) }
        guard let bytes = readBounded(directory, "\(fd)", maximumBytes: 4096) else { return nil }
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.starts(with: "Pid:".utf8) {
            let digits = line.dropFirst(4).filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
            return UInt32(String(decoding: digits, as: UTF8.self))
        }
        return nil
    }

    // MARK: Reading with a deadline

    private static let stuckReads = Mutex(0)

    /// `body` on a thread of its own; nil when it has not returned within `deadline`, or when
    /// ``maximumStuckReads`` threads are still running.
    static func onThread<T: Sendable>(deadline: Duration, _ body: @escaping @Sendable () -> T) async -> T? {
        let admitted = stuckReads.withLock { running -> Bool in
            guard running < maximumStuckReads else { return false }
            running += 1
            return true
        }
        guard admitted else { return nil }
        let answer = OneAnswer<T>()
        return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            answer.waiting(continuation)
            NamedThread.start(name: "nfcscand-caller") {
                let value = body()
                stuckReads.withLock { $0 -= 1 }
                answer.give(value)
            }
            answer.timer(Task {
                try? await Task.sleep(for: deadline)
                answer.give(nil)
            })
        }
    }
}

/// One continuation answered once, by whichever comes first (the thread or its deadline).
private final class OneAnswer<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T?, Never>?
        var timer: Task<Void, Never>?
        var done = false
    }

    private let state = Mutex(State())

    func waiting(_ continuation: CheckedContinuation<T?, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    func timer(_ task: Task<Void, Never>) {
        let cancel = state.withLock { state -> Bool in
            guard !state.done else { return true }
            state.timer = task
            return false
        }
        if cancel { task.cancel() }
    }

    func give(_ value: T?) {
        let (continuation, timer) = state.withLock { state -> (CheckedContinuation<T?, Never>?, Task<Void, Never>?) in
            guard !state.done else { return (nil, nil) }
            state.done = true
            defer { state.continuation = nil; state.timer = nil }
            return (state.continuation, state.timer)
        }
        timer?.cancel()
        continuation?.resume(returning: value)
    }
}
