import Foundation
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
    /// The fallback program; `xdg-open` from PATH unless the configuration names another.
    let fallback: String

    /// Whether the fallback must leave the service's sandbox (``TransientUnit``).
    let outsideSandbox: Bool
    /// How long the portal, and then the fallback program, may take: a program still running
    /// then is stopped (SIGTERM) and the link counts as not opened.
    let deadline: Duration

    public init(bus: BusConnection, fallback: String = "xdg-open", deadline: Duration = .seconds(10),
                outsideSandbox: Bool = TransientUnit.underSystemd) {
        self.bus = bus
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
            do {
                try await spawn(fallbackCommand(uri))
                return fallback
            } catch {
                throw .noOpener("the portal: \(portalProblem); \(fallback): \(error)")
            }
        }
    }

    /// Runs the program without a shell (the link is one argument, never parsed) and waits for
    /// it: xdg-open exits once it handed the link on, with a status saying whether it could.
    private func spawn(_ arguments: [String]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
                return
            }
            // The deadline: a program that never exits is stopped, which ends the wait above.
            let deadline = deadline
            Task {
                try? await Task.sleep(for: deadline)
                if process.isRunning { process.terminate() }
            }
        }
        if status != 0 { throw Failure.noOpener("\(arguments.joined(separator: " ")) exited with status \(status)") }
    }
}
