import Glibc
import POSIXEvents
import SystemPackage

/// A program the daemon starts (an app, the fallback link opener): started without a shell and
/// with nothing of the daemon's but its environment, and its exit seen through a pidfd in the
/// daemon's ``PollLoop`` (which also reaps it), so no thread or task waits on it.
enum ChildProcess {
    struct Failure: Error, Sendable, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// posix_spawn with /dev/null as standard input (or `input`, and `output` as standard output:
    /// the sheet's pipes), descriptors above 2 closed, default signals and an empty signal mask
    /// (the daemon's service framework blocks some), a new session.
    static func spawn(_ executable: String, _ arguments: [String], input: FileDescriptor? = nil,
                      output: FileDescriptor? = nil) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input.rawValue, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let output { posix_spawn_file_actions_adddup2(&actions, output.rawValue, 1) }
        guard let closeFrom = closeFromAction, closeFrom(&actions, 3) == 0 else {
            throw Failure("this C library cannot close the daemon's descriptors in a child (posix_spawn_file_actions_addclosefrom_np)")
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | Self.setsid))
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard status == 0 else { throw Failure("\(executable) could not be started (errno \(status))") }
        return pid
    }

    /// glibc's POSIX_SPAWN_SETSID (2.26), hidden from Swift behind _GNU_SOURCE.
    private static let setsid: Int32 = 0x80

    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34), hidden from Swift behind
    /// _GNU_SOURCE, so looked up by name.
    private static let closeFromAction: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// glibc's pidfd_open (2.36), looked up by name for the same reason.
    private static let pidfdOpen: (@convention(c) (pid_t, UInt32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (pid_t, UInt32) -> Int32).self)
    }()

    /// Calls `exited` with the child's wait status once it exits (nil when the loop ends first);
    /// false, and `exited` never called, where pidfds are missing (kernels before 5.3).
    /// `before` runs just before the child is reaped (its pid is still its own then).
    static func onExit(_ pid: pid_t, in loop: PollLoop, _ exited: @escaping @Sendable (Int32?) -> Void,
                       before: @escaping @Sendable () -> Void = {}) -> Bool {
        guard let descriptor = pidfdOpen.map({ $0(pid, 0) }), descriptor >= 0 else { return false }
        _ = loop.add(FileDescriptor(rawValue: descriptor), events: .readable) { _ in
            before()
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG) == pid
            exited(reaped ? status : nil)
            return .stopWatching
        }
        return true
    }

    /// Waits for the child's exit; after `deadline` it is sent SIGTERM and waited for again.
    /// Returns its exit status (128 + the signal's number when a signal ended it), or nil when its
    /// exit cannot be seen (no pidfds, or the loop ended).
    static func exitStatus(_ pid: pid_t, in loop: PollLoop, deadline: Duration) async -> Int32? {
        let (exits, exit) = AsyncStream.makeStream(of: Int32?.self, bufferingPolicy: .bufferingNewest(1))
        guard onExit(pid, in: loop, { status in
            exit.yield(status)
            exit.finish()
        }) else { return nil }
        return await withTaskGroup(of: Int32??.self) { group in
            group.addTask {
                for await status in exits { return .some(status) }
                return .some(nil)
            }
            group.addTask {
                try? await Task.sleep(for: deadline)
                return nil
            }
            while let first = await group.next() {
                if let status = first {
                    group.cancelAll()
                    return status.map { wait in (wait & 0x7f) == 0 ? (wait >> 8) & 0xff : 128 + (wait & 0x7f) }
                }
                kill(pid, SIGTERM)   // the deadline passed first: the exit follows
            }
            return nil
        }
    }
}
