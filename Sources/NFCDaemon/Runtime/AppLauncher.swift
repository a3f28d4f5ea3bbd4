import DesktopEntries
import Glibc
import POSIXEvents
import SystemPackage

/// Starts an installed app through its desktop entry's `Exec` line (``AppLaunch``): no shell —
/// the argument vector is the line's, with each field code's value as whole arguments
/// (``ExecCommandLine/expanded(_:)``), the program found in PATH — and nothing of the daemon's
/// but the environment: standard input is /dev/null, every descriptor above 2 is closed in the
/// child, signals are back to their defaults, and the app leads a session of its own.
///
/// The object goes to a private file: `$XDG_RUNTIME_DIR/nfcscan/` (0700, the person's) holds
/// `scan-<random>.<suffix>` (0600, made anew, never followed through a link). It is removed
/// when the app exits (a pidfd in the daemon's ``PollLoop``, which also reaps the child) or
/// after ``fileLifetime``, whichever comes first.
struct AppLauncher: Sendable {
    /// Long enough for an app to start and read its file; the file holds what the object holds.
    static let fileLifetime: Duration = .seconds(60)

    struct Failure: Error, Sendable, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Where the private files go; nil: apps that take a file cannot be started.
    let runtimeDirectory: String?
    let searchPath: String
    let loop: PollLoop
    /// Under systemd the app is started in a transient unit of its own (``TransientUnit``).
    let outsideSandbox: Bool

    /// Starts the app; returns how (for the log) and the private file, if one was made (the
    /// caller removes it after ``fileLifetime`` at the latest).
    func start(_ launch: AppLaunch) throws(Failure) -> (how: String, file: String?) {
        guard let program = ApplicationDirectoryReader.executable(launch.exec.program, searchPath: searchPath) else {
            throw Failure("\(launch.exec.program) is not an installed program (PATH: \(searchPath))")
        }
        var values = launch.values
        var file: String?
        if let contents = launch.file {
            let path = try privateFile(contents)
            file = path
            values.files = [path]
        }
        var arguments = launch.exec.expanded(values)
        arguments[0] = program
        arguments = TransientUnit.command(arguments, outside: outsideSandbox, wait: true)
        guard let executable = ApplicationDirectoryReader.executable(arguments[0], searchPath: searchPath) else {
            if let file { Self.remove(file) }
            throw Failure("\(arguments[0]) is not installed")
        }
        let pid: pid_t
        do { pid = try Self.spawn(executable, arguments) } catch {
            if let file { Self.remove(file) }
            throw error
        }
        watchExit(pid, file: file)
        return ("\(program), process \(pid)", file)
    }

    /// Removes a private file (again is harmless).
    static func remove(_ path: String) { unlink(path) }

    /// Writes `file` to a new file only the person may read.
    private func privateFile(_ file: AppLaunch.File) throws(Failure) -> String {
        guard (1...16).contains(file.suffix.utf8.count),
              file.suffix.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }) else {
            throw Failure("\"\(file.suffix)\" is not a file extension")
        }
        guard let runtimeDirectory, runtimeDirectory.hasPrefix("/") else {
            throw Failure("XDG_RUNTIME_DIR is not set: there is nowhere private to put the object for the app")
        }
        let directory: PrivateDirectory
        do { directory = try PrivateDirectory.runtime(in: runtimeDirectory) } catch {
            throw Failure(error.description)
        }
        let name = "scan-\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).\(file.suffix)"
        do { try directory.create(name, with: file.contents) } catch { throw Failure(error.description) }
        let path = directory.path + "/" + name
        return path
    }

    /// posix_spawn with /dev/null as standard input, descriptors above 2 closed, default signals
    /// and an empty signal mask (the daemon's service framework blocks some), a new session.
    private static func spawn(_ executable: String, _ arguments: [String]) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
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

    /// When the app exits, its file goes and the child is reaped. Without pidfds (older kernels)
    /// only the time limit removes the file.
    private func watchExit(_ pid: pid_t, file: String?) {
        guard let descriptor = Self.pidfdOpen.map({ $0(pid, 0) }), descriptor >= 0 else { return }
        _ = loop.add(FileDescriptor(rawValue: descriptor), events: .readable) { _ in
            var status: Int32 = 0
            waitpid(pid, &status, WNOHANG)
            if let file { Self.remove(file) }
            return .stopWatching
        }
    }
}
