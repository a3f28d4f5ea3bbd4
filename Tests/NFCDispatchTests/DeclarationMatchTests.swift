import DesktopEntries
import NDEFReport
import NFCDispatch
import Testing

/// Which app an object goes to when installed apps declare filters beside the running ones.
@Suite struct DeclarationMatchTests {
    static func declaration(_ id: String, name: String, filters: String, dbus: Bool = false) throws -> AppDeclaration {
        let text = "[Desktop Entry]\nType=Application\nName=\(name)\n" + (dbus ? "DBusActivatable=true\n" : "Exec=app %u\n")
            + "X-NFCScan-Filters=\(filters)\n"
        let entry = try DesktopEntry(id: DesktopFileID(relativePath: id + ".desktop")!, path: "/apps/\(id).desktop",
                                     file: DesktopEntryFile(bytes: Array(text.utf8)))
        return try #require(try AppDeclaration(entry))
    }

    /// Issue 20: a desktop entry cannot ask for the links never handed on either.
    @Test func aDeclarationOfADangerousSchemeIsRefused() throws {
        for scheme in ["file", "javascript", "data"] {
            #expect(throws: (any Error).self, "\(scheme)") {
                try Self.declaration("org.example.Viewer", name: "Viewer", filters: "uri-scheme=\(scheme)")
            }
        }
    }

    @Test func aDeclaredAppReceivesWhatItAsksForWhileNotRunning() throws {
        var registry = HandlerRegistry()
        registry.declarations = [try Self.declaration("org.example.Posters", name: "Posters", filters: "uri-scheme=https,uri-host=example.com", dbus: true)]
        let match = try #require(registry.match(try report(Records.uri("https://example.com/a"))))
        guard case .declared(let declaration) = match.app else { Issue.record("\(match.app)"); return }
        #expect(declaration.launch == .dbusActivation(busName: "org.example.Posters", objectPath: "/org/example/Posters"))
        #expect(registry.offer(for: try report(Records.uri("https://other.example/"))) == WebLink("https://other.example/", recordIndex: 0).map(Offer.webLink))
    }

    @Test func theMostSpecificFilterWinsAcrossRunningAndInstalledApps() throws {
        var (registry, _) = try makeRegistry([("Browser-ish", [try .uri(scheme: "https")])])
        registry.declarations = [try Self.declaration("org.example.Posters", name: "Posters", filters: "uri-scheme=https,uri-host=example.com")]
        #expect(winner(registry, try report(Records.uri("https://example.com/a"))) == "Posters")
        #expect(winner(registry, try report(Records.uri("https://elsewhere.example/a"))) == "Browser-ish")
    }

    @Test func equallySpecificFiltersGoToTheRunningApp() throws {
        var (registry, _) = try makeRegistry([("Running", [try .mediaType("text/vcard")])])
        registry.declarations = [try Self.declaration("org.example.Contacts", name: "Installed", filters: "media-type=text/vcard")]
        #expect(winner(registry, try report(Records.contact("Ann"))) == "Running")
    }

    @Test func aRunningAppsDeclarationGoesToItsRegistrationNotASecondInstance() throws {
        var registry = HandlerRegistry()
        let id = try registry.register(HandlerRequest(appName: "Posters", desktopEntry: "org.example.Posters.desktop",
                                                      filters: [try .mediaType("text/vcard")]), owner: ":1.7", handlerPath: "/org/example/Posters")
        registry.declarations = [try Self.declaration("org.example.Posters", name: "Posters", filters: "uri-scheme=https,uri-host=example.com", dbus: true)]
        // The desktop entry asks for the link; the running app registered only for contacts: it gets the link all the same.
        let match = try #require(registry.match(try report(Records.uri("https://example.com/a"))))
        #expect(match.app.registration?.id == id)
        #expect(match.filter == (try .uri(scheme: "https", host: "example.com")))
        // Once it has ended, the declaration is the installed app's again.
        registry.removeAll(owner: ":1.7")
        guard case .declared? = registry.match(try report(Records.uri("https://example.com/a")))?.app else { Issue.record("not declared"); return }
    }

    @Test func installedAppsTieInIDOrder() throws {
        var registry = HandlerRegistry()
        registry.declarations = [try Self.declaration("org.example.A", name: "A", filters: "media-type=text/vcard"),
                                 try Self.declaration("org.example.B", name: "B", filters: "media-type=text/vcard")]
        #expect(winner(registry, try report(Records.contact("Ann"))) == "A")
    }
}
