import AppIdentity
import DesktopEntries
import Testing

/// Who a caller is, from its credentials and what its process's files say.
@Suite struct IdentityResolverTests {
    static let credentials = IdentityResolver.Credentials(pid: 4242, uid: 1000)
    static let terminalCgroup = Array("0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.gnome.Terminal-3342.scope\n".utf8)
    static let calculatorCgroup = Array("0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-flatpak-org.gnome.Calculator-98765.scope\n".utf8)
    static let plainCgroup = Array("0::/user.slice/user-1000.slice/session-2.scope\n".utf8)

    func resolve(cgroup: [UInt8]? = IdentityResolverTests.plainCgroup, flatpak: IdentityResolver.File = .missing,
                 executable: String? = "/usr/bin/foo") -> AppIdentity {
        IdentityResolver.resolve(credentials: Self.credentials, cgroup: cgroup, flatpakInfo: flatpak, executable: executable.map { Array($0.utf8) })
    }

    func entry(_ id: String, name: String = "Calculator", icon: String? = "org.gnome.Calculator") -> DesktopEntry {
        let text = "[Desktop Entry]\nType=Application\nName=\(name)\n" + (icon.map { "Icon=\($0)\n" } ?? "") + "Exec=x\n"
        return try! DesktopEntry(id: DesktopFileID(relativePath: id)!, path: "/a/\(id)", file: DesktopEntryFile(bytes: Array(text.utf8)))
    }

    @Test func aFlatpakAppIsItsAppIDWhateverItsScopeOrExecutable() {
        let flatpak = IdentityResolver.File.contents(Array(FlatpakInfoTests.calculator.utf8))
        let identity = resolve(cgroup: Self.terminalCgroup, flatpak: flatpak, executable: "/app/bin/gnome-calculator")
        #expect(identity.sandbox == .flatpak)
        #expect(identity.appID == "org.gnome.Calculator")
        #expect(identity.key == "org.gnome.Calculator")
        #expect(identity.flatpak?.instanceID == "3372089519")
        #expect(identity.scope?.applicationID == "org.gnome.Terminal")
        #expect(identity.executable == "/app/bin/gnome-calculator")
        #expect(identity.pid == 4242 && identity.uid == 1000)
        #expect(identity.problems.isEmpty)
        #expect(resolve(cgroup: nil, flatpak: flatpak, executable: nil).key == "org.gnome.Calculator")
    }

    @Test func anAppOnTheHostIsItsScopesAppID() {
        let identity = resolve(cgroup: Self.terminalCgroup, executable: "/usr/libexec/gnome-terminal-server")
        #expect(identity.sandbox == .none)
        #expect(identity.appID == "org.gnome.Terminal")
        #expect(identity.key == "org.gnome.Terminal")
        #expect(identity.flatpak == nil)
    }

    @Test func withoutAnAppUnitTheExecutableIsTheKey() {
        let identity = resolve()
        #expect(identity.appID == nil)
        #expect(identity.sandbox == .none)
        #expect(identity.key == "/usr/bin/foo")
        #expect(resolve(executable: "/usr/bin/foo (deleted)").key == "/usr/bin/foo", "a binary an upgrade replaced")
        #expect(resolve(cgroup: nil).key == "/usr/bin/foo")
    }

    @Test func aSandboxThatCannotBeReadIsUnknownAndHasNoKey() {
        let unreadable = resolve(cgroup: Self.calculatorCgroup, flatpak: .unreadable("Permission denied"))
        #expect(unreadable.sandbox == .unknown)
        #expect(unreadable.appID == nil)
        #expect(unreadable.key == nil)
        #expect(unreadable.problems == ["/.flatpak-info: Permission denied"])
        let malformed = resolve(cgroup: Self.terminalCgroup, flatpak: .contents(Array("[Application]\nname=../x\n".utf8)))
        #expect(malformed.sandbox == .unknown)
        #expect(malformed.key == nil)
        #expect(malformed.problems.count == 1)
    }

    @Test func badExecutablePathsAreDropped() {
        for path in ["relative/foo", "", "/usr/bin/\u{0}x", "/" + String(repeating: "a", count: 5000)] {
            let identity = resolve(executable: path)
            #expect(identity.executable == nil, "\(path.prefix(20))")
            #expect(identity.key == nil)
            #expect(identity.problems.count == 1)
        }
        let invalid = IdentityResolver.resolve(credentials: Self.credentials, cgroup: nil, flatpakInfo: .missing, executable: [0x2F, 0xFF])
        #expect(invalid.executable == nil)
        #expect(resolve(executable: nil).key == nil)
    }

    @Test func anAppUnitThatDoesNotParseIsLogged() {
        let identity = resolve(cgroup: Array("0::/a/app--x-1.scope\n".utf8))
        #expect(identity.appID == nil)
        #expect(identity.key == "/usr/bin/foo")
        #expect(identity.problems.count == 1)
    }

    @Test func theNameShownComesFromTheEntryTheIDTheExecutableOrThePID() {
        let calculator = resolve(cgroup: Self.calculatorCgroup)
        #expect(calculator.desktopFileID?.value == "org.gnome.Calculator.desktop")
        #expect(calculator.displayName(entry: entry("org.gnome.Calculator.desktop")) == .entry("Calculator"))
        #expect(calculator.icon(entry: entry("org.gnome.Calculator.desktop")) == "org.gnome.Calculator")
        // Another app's entry is not this one's.
        #expect(calculator.displayName(entry: entry("org.example.Other.desktop")) == .appID("org.gnome.Calculator"))
        #expect(calculator.icon(entry: entry("org.example.Other.desktop")) == nil)
        #expect(calculator.displayName(entry: nil) == .appID("org.gnome.Calculator"))
        #expect(calculator.icon(entry: entry("org.gnome.Calculator.desktop", icon: nil)) == nil)

        #expect(resolve().displayName(entry: nil) == .executable("foo"))
        #expect(resolve().displayName(entry: entry("foo.desktop")) == .executable("foo"), "no app ID, no entry")
        #expect(resolve(executable: "/opt/x/evil\u{202E}txt.exe").displayName(entry: nil) == .executable("evil\u{FFFD}txt.exe"))
        #expect(resolve(executable: "/opt/a\nb").displayName(entry: nil).text == "a\u{FFFD}b")
        // A combining mark after a slash makes one Character of both: the path is split by scalars.
        #expect(resolve(executable: "/opt/a/\u{301}b").displayName(entry: nil) == .executable("\u{301}b"))
        #expect(resolve(executable: "/\u{487}x").key == "/\u{487}x", "found by the cgroup fuzz target")
        #expect(resolve(executable: "/opt/x)\u{301} (deleted)").executable == "/opt/x)\u{301}")
        #expect(resolve(executable: nil).displayName(entry: nil) == .process(4242))
        #expect(resolve(executable: nil).displayName(entry: nil).text == "pid 4242")
        #expect(resolve(cgroup: Self.calculatorCgroup, flatpak: .unreadable("x")).displayName(entry: entry("org.gnome.Calculator.desktop")) == .executable("foo"))
    }
}
