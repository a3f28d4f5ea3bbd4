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

    public init(bus: BusConnection, fallback: String = "xdg-open") {
        self.bus = bus
        self.fallback = fallback
    }

    /// Returns how the link was handed on ("portal" or the program's name).
    public func open(_ uri: String) async throws(Failure) -> String {
        do {
            _ = try await bus.call(destination: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
                                   interface: "org.freedesktop.portal.OpenURI", member: "OpenURI",
                                   [.string(""), .string(uri), .vardict([:])], timeout: .seconds(10))
            return "portal"
        } catch let error {
            let portalProblem = error.description
            do {
                try spawn([fallback, uri])
                return fallback
            } catch {
                throw .noOpener("the portal: \(portalProblem); \(fallback): \(error)")
            }
        }
    }

    /// Starts the program without a shell (the link is one argument, never parsed) and reaps it
    /// in the background; fails only when it cannot be started.
    private func spawn(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }
}
