import AppIdentity
import Foundation
import Glibc
@testable import NFCDaemon
import Systemd
import TestSupport
import Testing

/// CallerIdentification against a real dbus-daemon: the test process identifies itself, and a
/// process in a sandbox laid out as Flatpak lays it out (Tests/Support/flatpak_sandbox.sh).
@Suite(.serialized) struct CallerIdentificationTests {
    @Test func theTestProcessIsIdentifiedFromTheBusAndItsOwnFiles() async throws {
        let bus = try PrivateBus()
        let caller = try BusConnection.connect(address: bus.address)
        let daemon = try BusConnection.connect(address: bus.address)
        defer { caller.close(); daemon.close() }

        let identity = try #require(await CallerIdentification.identify(caller.uniqueName, bus: daemon))
        #expect(identity.pid == UInt32(getpid()))
        #expect(identity.uid == getuid())
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(identity.executable == exe)
        #expect(identity.sandbox == .none)
        #expect(identity.flatpak == nil)
        #expect(identity.key == identity.appID ?? exe)
        #expect(identity.problems.isEmpty)
    }

    @Test func aNameNoOneHoldsIsNotIdentified() async throws {
        let bus = try PrivateBus()
        let daemon = try BusConnection.connect(address: bus.address)
        defer { daemon.close() }
        #expect(await CallerIdentification.identify(":1.999", bus: daemon) == nil)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap")))
    func aSandboxedCallerIsItsFlatpakAppID() async throws {
        let bus = try PrivateBus()
        let daemon = try BusConnection.connect(address: bus.address)
        defer { daemon.close() }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/bash")
        child.arguments = [Repository.path("Tests/Support/flatpak_sandbox.sh"), "org.example.Sandboxed", "--", "/usr/bin/python3", "-c",
                           "import dbus, sys; bus = dbus.SessionBus(); print(bus.get_unique_name(), flush=True); sys.stdin.read()"]
        child.environment = ProcessInfo.processInfo.environment.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 }
        let input = Pipe(), output = Pipe()
        child.standardInput = input
        child.standardOutput = output
        try child.run()
        defer {
            try? input.fileHandleForWriting.close()
            child.waitUntilExit()
        }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            line.append(more)
        }
        let name = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(name.hasPrefix(":"))

        let identity = try #require(await CallerIdentification.identify(name, bus: daemon))
        #expect(identity.sandbox == .flatpak)
        #expect(identity.appID == "org.example.Sandboxed")
        #expect(identity.key == "org.example.Sandboxed")
        #expect(identity.flatpak?.branch == "stable")
        #expect(identity.pid != UInt32(getpid()))
        #expect(identity.uid == getuid())
        #expect(identity.executable?.hasPrefix("/usr/bin/python3") == true)
    }
}
