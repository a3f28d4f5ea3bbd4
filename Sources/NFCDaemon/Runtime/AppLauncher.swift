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
        do { pid = try ChildProcess.spawn(executable, arguments) } catch {
            if let file { Self.remove(file) }
            throw Failure(error.description)
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

    /// When the app exits, its file goes and the child is reaped. Without pidfds (older kernels)
    /// only the time limit removes the file.
    private func watchExit(_ pid: pid_t, file: String?) {
        _ = ChildProcess.onExit(pid, in: loop) { _ in
            if let file { Self.remove(file) }
        }
    }
}
