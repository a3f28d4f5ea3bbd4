import AppIdentity
import Testing

/// `/proc/PID/cgroup` as desktops leave it, and as a hostile process might make it.
@Suite struct SystemdScopeTests {
    static let userSlice = "/user.slice/user-1000.slice/user@1000.service/app.slice/"

    func scope(_ cgroup: String) -> SystemdScope? { SystemdScope(cgroup: Array(cgroup.utf8)) }
    func unit(_ name: String) -> SystemdScope? { SystemdScope(unitName: Array(name.utf8)) }

    @Test func gnomeStartsAnAppInAScopeNamedForIt() throws {
        let found = try #require(scope("0::\(Self.userSlice)app-gnome-org.gnome.Terminal-3342.scope\n"))
        #expect(found.applicationID == "org.gnome.Terminal")
        #expect(found.launcher == "gnome")
        #expect(found.kind == .scope)
        #expect(found.unit == "app-gnome-org.gnome.Terminal-3342.scope")
        #expect(scope("0::\(Self.userSlice)app-gnome-org.gnome.Nautilus-1234.scope")?.applicationID == "org.gnome.Nautilus")
    }

    @Test func kdeNamesNoLauncherAndARandomUUID() {
        let found = unit("app-org.kde.konsole-1d8a5c3e0f2b4a7d9c6e8f1a2b3c4d5e.scope")
        #expect(found?.applicationID == "org.kde.konsole")
        #expect(found?.launcher == nil)
    }

    @Test func flatpakStartsItsAppsThroughItsOwnLauncher() {
        let found = scope("0::\(Self.userSlice)app-flatpak-org.gnome.Calculator-98765.scope\n")
        #expect(found?.applicationID == "org.gnome.Calculator")
        #expect(found?.launcher == "flatpak")
    }

    @Test func servicesWithAndWithoutARandomInstance() {
        #expect(unit("app-org.gnome.Evolution\\x2dalarm\\x2dnotify@autostart.service")?.applicationID == "org.gnome.Evolution-alarm-notify")
        #expect(unit("app-gnome-org.gnome.SettingsDaemon.Wacom@a1b2.service")?.applicationID == "org.gnome.SettingsDaemon.Wacom")
        #expect(unit("app-gnome-org.gnome.SettingsDaemon.Wacom@a1b2.service")?.launcher == "gnome")
        #expect(unit("app-org.example.Tool.service")?.applicationID == "org.example.Tool")
        #expect(unit("app-org.example.Tool.service")?.kind == .service)
        #expect(unit("app-kde-org.example.Tool.service")?.launcher == "kde")
    }

    @Test func escapedDashesBelongToTheID() {
        #expect(unit("app-gnome-org.gnome.Evolution\\x2dalarm\\x2dnotify-2437.scope")?.applicationID == "org.gnome.Evolution-alarm-notify")
        #expect(unit("app-gnome-firefox\\x2desr-2211.scope")?.applicationID == "firefox-esr")
        #expect(unit("app-firefox\\x2desr-2211.scope")?.applicationID == "firefox-esr")
        #expect(unit("app-firefox\\x2desr-2211.scope")?.launcher == nil)
        #expect(unit("app-gnome-firefox\\x2Desr-2211.scope")?.applicationID == "firefox-esr", "hex digits of either case")
    }

    @Test func unescapedDashesAfterALauncherAreKeptInTheID() {
        // A launcher that forgot to escape: the first part is the launcher, the rest the ID.
        #expect(unit("app-gnome-firefox-esr-2211.scope")?.applicationID == "firefox-esr")
        // Without a launcher, the specification's reading: the part before the first dash is one.
        #expect(unit("app-firefox-esr-2211.scope")?.applicationID == "esr")
        #expect(unit("app-firefox-esr-2211.scope")?.launcher == "firefox")
        #expect(unit("app-firefox-2211.scope")?.applicationID == "firefox")
    }

    @Test func unitsThatAreNotAppsNameNone() {
        #expect(scope("0::/user.slice/user-1000.slice/user@1000.service/app.slice/run-u123.scope\n") == nil)
        #expect(scope("0::/user.slice/user-1000.slice/session-2.scope\n") == nil)
        #expect(scope("0::/user.slice/user-1000.slice/user@1000.service/app.slice/dbus.service\n") == nil)
        #expect(scope("0::/user.slice/user-1000.slice/user@1000.service/app.slice\n") == nil)
        #expect(scope("0::/system.slice/nfcscand.service\n") == nil)
        #expect(scope("0::/\n") == nil)
        #expect(scope("") == nil)
        #expect(unit("app-gnome.slice") == nil)
    }

    @Test func theLastAppUnitOfThePathCounts() {
        let nested = "0::\(Self.userSlice)app-gnome-org.gnome.Terminal-3342.scope/app-org.example.Inner-7.scope/sub\n"
        #expect(scope(nested)?.applicationID == "org.example.Inner")
        // The last one does not parse: an earlier one is not taken instead.
        #expect(scope("0::\(Self.userSlice)app-gnome-org.gnome.Terminal-3342.scope/app--x-1.scope\n") == nil)
        // A D-Bus-activated app in its slice, as dbus-broker starts one, names no app unit.
        #expect(scope("0::\(Self.userSlice)app-dbus\\x2d:1.2\\x2dorg.gnome.Terminal.slice/dbus-:1.2-org.gnome.Terminal@0.service\n") == nil)
    }

    @Test func cgroupV1TakesTheSystemdHierarchyAndTheUnifiedLineWins() {
        let v1 = """
            12:pids:/user.slice/user-1000.slice/user@1000.service
            11:memory:/user.slice/user-1000.slice/user@1000.service
            1:name=systemd:\(Self.userSlice)app-gnome-org.gnome.gedit-4021.scope
            """
        #expect(scope(v1)?.applicationID == "org.gnome.gedit")
        let hybrid = v1 + "\n0::\(Self.userSlice)app-gnome-org.gnome.Maps-99.scope\n"
        #expect(scope(hybrid)?.applicationID == "org.gnome.Maps")
        #expect(scope("1:name=systemd,foo:\(Self.userSlice)app-org.example.A-1.scope")?.applicationID == "org.example.A")
        // The kernel writes one line of each: two are refused.
        #expect(scope("0::/a/app-org.example.A-1.scope\n0::/a/app-org.example.B-1.scope\n") == nil)
        #expect(scope("1:name=systemd:/app-org.example.A-1.scope\n2:name=systemd:/app-org.example.B-1.scope\n") == nil)
        // A colon in the path itself is part of it.
        #expect(scope("0::/a:b/app-org.example.A-1.scope")?.applicationID == "org.example.A")
    }

    @Test func hostileLinesAreRefused() {
        #expect(unit("app-.scope") == nil)
        #expect(unit("app--x-1.scope") == nil)
        #expect(unit("app-gnome--1.scope") == nil)
        #expect(unit("app-org.example.A.scope") == nil, "a scope without its random part")
        #expect(unit("app-org.example.A-.scope") == nil)
        #expect(unit("app-org.example.A-12_3.scope") == nil, "a random part of letters and digits only")
        #expect(unit("app-org.example.A\\x00-1.scope") == nil, "an escaped NUL")
        #expect(unit("app-org.example.A\u{0}-1.scope") == nil)
        #expect(unit("app-org\\x2f..\\x2fetc-1.scope") == nil, "an escaped slash")
        #expect(unit("app-org.example\\q-1.scope") == nil)
        #expect(unit("app-org.example\\x2-1.scope") == nil)
        #expect(unit("app-org.example\\x-1.scope") == nil)
        #expect(unit("app-org..example-1.scope") == nil)
        #expect(unit("app-.org.example-1.scope") == nil)
        #expect(unit("app-org.example.-1.scope") == nil)
        #expect(unit("app-1org.example-1.scope") == nil)
        #expect(unit("app-org.exämple-1.scope") == nil)
        #expect(unit("app-org.example App-1.scope") == nil)
        #expect(unit("app-" + String(repeating: "a", count: 300) + "-1.scope") == nil)
        #expect(SystemdScope(unitName: [0x61, 0x70, 0x70, 0x2D, 0xFF, 0xFE, 0x2D, 0x31] + Array(".scope".utf8)) == nil)
        #expect(SystemdScope(cgroup: Array("0::/app-org.example.A-1.scope".utf8) + [0xC3, 0x28]) == nil)
        #expect(scope("0::/app-org.example.A-1.scope\u{0}\u{0}") == nil)
    }

    @Test func boundsRefuseTheWholeFile() {
        let good = "0::\(Self.userSlice)app-gnome-org.gnome.Terminal-3342.scope\n"
        let longLine = "5:cpu:/" + String(repeating: "x", count: SystemdScope.maximumLineBytes) + "\n"
        #expect(scope(longLine + good) == nil)
        let filler = String(repeating: "5:cpu:/\(String(repeating: "x", count: 1000))\n", count: 100)
        #expect(filler.utf8.count > 64 * 1024)
        #expect(scope(filler + good) == nil)
        #expect(scope(String(repeating: "\n", count: SystemdScope.maximumBytes - good.utf8.count) + good)?.applicationID == "org.gnome.Terminal")
        #expect(scope(String(repeating: "\n", count: SystemdScope.maximumBytes - good.utf8.count + 1) + good) == nil)
    }

    @Test func applicationIDRules() {
        for id in ["org.gnome.Calculator", "firefox-esr", "vlc", "_x", "org.gnome.2048", "com.example.my_app", "a-b.c-d"] {
            #expect(ApplicationID.isValid(id), "\(id)")
        }
        for id in ["", ".", "a.", ".a", "a..b", "1a", "-a", "a/b", "a b", "a\u{0}b", "é", String(repeating: "a", count: 256)] {
            #expect(!ApplicationID.isValid(id), "\(id)")
        }
        #expect(ApplicationID.isValid(String(repeating: "a", count: 255)))
    }
}
