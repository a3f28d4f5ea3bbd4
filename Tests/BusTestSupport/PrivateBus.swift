import Foundation
import Glibc

/// A dbus-daemon of the test's own (session configuration, socket in a temporary directory),
/// killed when the value goes away.
public final class PrivateBus: @unchecked Sendable {
    public let address: String
    private let process: Process
    private let directory: URL

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("systemd-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("bus").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--config-file=/usr/share/dbus-1/session.conf", "--nofork", "--nopidfile",
                             "--address=unix:path=\(socket)"]
        try process.run()
        address = "unix:path=\(socket)"
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) {
            if Date() > deadline { throw CocoaError(.fileNoSuchFile) }
            usleep(10_000)
        }
    }

    deinit {
        // SIGKILL: Foundation's Process starts children with signals blocked, so dbus-daemon
        // would never see the SIGTERM of terminate().
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}
