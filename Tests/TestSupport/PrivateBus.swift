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
        // Not the test's own output: a test process that crashes leaves dbus-daemon behind, and
        // `swift test` would wait for it to close the pipe before reporting the crash.
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        address = "unix:path=\(socket)"
        let deadline = Date().addingTimeInterval(10)
        // The socket file appears at bind(2), a moment before dbus-daemon listens: wait until it accepts.
        while !Self.accepts(socket) {
            if Date() > deadline { throw CocoaError(.fileNoSuchFile) }
            usleep(10_000)
        }
    }

    private static func accepts(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: bytes) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
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
