import AppIdentity
import Testing

/// `/.flatpak-info` as Flatpak writes it, and as no Flatpak would.
@Suite struct FlatpakInfoTests {
    /// As flatpak 1.14 lays it out for GNOME Calculator from Flathub.
    static let calculator = """
        [Application]
        name=org.gnome.Calculator
        runtime=runtime/org.gnome.Platform/x86_64/46

        [Instance]
        instance-id=3372089519
        instance-path=/home/ada/.var/app/org.gnome.Calculator
        app-path=/var/lib/flatpak/app/org.gnome.Calculator/x86_64/stable/8d2f05b4a1c0e6f3/files
        app-commit=8d2f05b4a1c0e6f3a9b7c5d3e1f20418a6b4c2d0e8f6a4b2c0d8e6f4a2b0c8d6
        app-extensions=org.gnome.Calculator.Locale=2b3c4d5e6f
        runtime-path=/var/lib/flatpak/runtime/org.gnome.Platform/x86_64/46/0123456789abcdef/files
        runtime-commit=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
        runtime-extensions=org.gnome.Platform.Locale=3c4d5e6f70;org.freedesktop.Platform.GL.default=4d5e6f7081
        branch=stable
        arch=x86_64
        flatpak-version=1.14.4
        session-bus-proxy=true
        system-bus-proxy=true
        devel=false

        [Context]
        shared=network;ipc;
        sockets=x11;wayland;pulseaudio;fallback-x11;
        devices=dri;
        filesystems=xdg-run/gvfsd;xdg-download;

        [Session Bus Policy]
        org.gtk.vfs.*=talk
        org.gtk.vfs=talk
        ca.desrt.dconf=talk

        [Environment]
        GTK_USE_PORTAL=1
        LD_LIBRARY_PATH=/app/lib

        """

    func info(_ text: String) throws(FlatpakInfoProblem) -> FlatpakInfo { try FlatpakInfo(bytes: Array(text.utf8)) }

    func problem(_ bytes: [UInt8]) -> FlatpakInfoProblem? {
        do { _ = try FlatpakInfo(bytes: bytes); return nil } catch { return error }
    }

    func problem(_ text: String) -> FlatpakInfoProblem? { problem(Array(text.utf8)) }

    @Test func flatpaksOwnLayoutGivesTheAppIDAndItsInstance() throws {
        let read = try info(Self.calculator)
        #expect(read.kind == .application)
        #expect(read.appID == "org.gnome.Calculator")
        #expect(read.runtime == "runtime/org.gnome.Platform/x86_64/46")
        #expect(read.instanceID == "3372089519")
        #expect(read.branch == "stable")
        #expect(read.arch == "x86_64")
        #expect(read.flatpakVersion == "1.14.4")
    }

    @Test func anOlderFlatpakWithoutAnInstanceGroup() throws {
        let read = try info("[Application]\nname=org.example.Old\nruntime=runtime/org.freedesktop.Platform/x86_64/1.6\n")
        #expect(read.appID == "org.example.Old")
        #expect(read.instanceID == nil)
        #expect(read.branch == nil)
    }

    @Test func aRuntimeRunOnItsOwnIsNamedByItsRuntimeGroup() throws {
        let read = try info("[Runtime]\nname=org.gnome.Sdk\n\n[Instance]\ninstance-id=12\n")
        #expect(read.kind == .runtime)
        #expect(read.appID == "org.gnome.Sdk")
        #expect(read.runtime == nil)
    }

    @Test func malformedFilesAreRefusedWithTheirLine() {
        #expect(problem("")?.line == 0)
        #expect(problem("[Instance]\ninstance-id=1\n")?.detail == "no [Application] group")
        #expect(problem("[Application]\nruntime=x\n")?.line == 1)
        #expect(problem("[Application]\nname=org.example.A\nname=org.example.B\n")?.line == 3, "one file never names two apps")
        #expect(problem("[Application]\nname=org.example.A\n[Application]\nname=org.example.B\n")?.line == 3)
        #expect(problem("[Application]\nname=org.example.A\n[Runtime]\nname=org.example.B\n")?.line == 3)
        #expect(problem("[Application]\nname=../../etc\n")?.line == 2)
        #expect(problem("[Application]\nname=org.example\\sApp\n")?.line == 2)
        #expect(problem("[Application]\nname=\n")?.line == 2)
        #expect(problem("[Application]\nname=org.example.A\\\n")?.line == 2)
        #expect(problem("name=org.example.A\n")?.line == 1)
        #expect(problem("[Application]\nname org.example.A\n")?.line == 2)
        #expect(problem("[Application]\nname=org.example.A\n[Instance]\nbranch=a\\qb\n")?.line == 4)
        #expect(problem("[Application]\nna me=org.example.A\n")?.line == 2)
    }

    @Test func hostileBytesAreRefusedNotTrapped() {
        #expect(problem(Array("[Application]\nname=org.example.".utf8) + [0xFF, 0xFE])?.line == 2)
        #expect(problem(Array("[Application]\nname=org.example.A".utf8) + [0] + Array("B\n".utf8))?.line == 2)
        #expect(problem([UInt8](repeating: 0, count: 100))?.line == 1)
        let big = Self.calculator + String(repeating: "# padding\n", count: 7000)
        #expect(big.utf8.count > FlatpakInfo.maximumBytes)
        #expect(problem(big)?.line == 0)
        #expect(problem([UInt8](repeating: UInt8(ascii: "["), count: 100_000))?.line == 0)
        let groups = (0..<100).map { "[G\($0)]\n" }.joined()
        #expect(problem("[Application]\nname=org.example.A\n" + groups) != nil)
    }

    @Test func windowsLineEndingsAndCommentsAreLaidOutAsGLibReadsThem() throws {
        let read = try info("# written by hand\r\n[Application]\r\nname = org.example.A\r\n")
        #expect(read.appID == "org.example.A")
    }
}
