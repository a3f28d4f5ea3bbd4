import Glibc
import POSIXEvents
import Systemd

/// Opens a web link in the person's browser the desktop's standard way: the XDG desktop portal's
/// OpenURI when a portal runs (it asks the desktop, respecting the person's default browser and
/// any sandbox), else `xdg-open`. Only ever handed `http`/`https` links (`WebLink` checks).
public struct LinkOpener: Sendable {
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case noOpener(String)
        public var description: String {
            switch self { case .noOpener(let detail): "no way to open the link: \(detail)" }
        }
    }

    let bus: BusConnection
    /// The daemon's loop, which sees the fallback program exit (``ChildProcess``).
    let loop: PollLoop
    /// The fallback program; `xdg-open` from PATH unless the configuration names another.
    let fallback: String

    /// Whether the fallback must leave the service's sandbox (``TransientUnit``).
    let outsideSandbox: Bool
    /// How long the portal, and then the fallback program, may take: a program still running
    /// then is stopped (SIGTERM) and the link counts as not opened.
    let deadline: Duration

    public init(bus: BusConnection, loop: PollLoop, fallback: String = "xdg-open", deadline: Duration = .seconds(10),
                outsideSandbox: Bool = TransientUnit.underSystemd) {
        self.bus = bus
        self.loop = loop
        self.fallback = fallback
        self.deadline = deadline
        self.outsideSandbox = outsideSandbox
    }

    /// The fallback command line for `uri`.
    func fallbackCommand(_ uri: String) -> [String] {
        TransientUnit.command([fallback, uri], outside: outsideSandbox)
    }

    /// Returns how the link was handed on ("portal" or the program's name).
    public func open(_ uri: String) async throws(Failure) -> String {
        do {
            _ = try await bus.call(destination: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
                                   interface: "org.freedesktop.portal.OpenURI", member: "OpenURI",
                                   [.string(""), .string(uri), .vardict([:])], timeout: deadline)
            return "portal"
        } catch let error {
            let portalProblem = error.description
            if let problem = await spawn(fallbackCommand(uri)) {
                throw .noOpener("the portal: \(portalProblem); \(fallback): \(problem)")
            }
            return fallback
        }
    }

    /// Runs the program without a shell (the link is one argument, never parsed) and waits for
    /// it: xdg-open exits once it handed the link on, with a status saying whether it could. A
    /// program still running at the deadline is stopped, and the link counts as not opened.
    /// Returns what went wrong, or nil.
    private func spawn(_ arguments: [String]) async -> String? {
        let pid: pid_t
        do { pid = try ChildProcess.spawn("/usr/bin/env", ["env"] + arguments) } catch { return error.description }
        // Without pidfds the exit cannot be seen: the link counts as handed on once started.
        guard let status = await ChildProcess.exitStatus(pid, in: loop, deadline: deadline), status != 0 else { return nil }
        return "\(arguments.joined(separator: " ")) exited with status \(status)"
    }
}
