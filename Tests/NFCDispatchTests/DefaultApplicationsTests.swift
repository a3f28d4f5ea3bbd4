import DesktopEntries
import Testing

/// The person's default apps, found as the XDG MIME Applications spec (and so `xdg-mime` and GIO)
/// find them.
@Suite struct DefaultApplicationsTests {
    @Test func theFilesAreReadInTheSpecsOrder() {
        let files = MimeAppsList.searchPath(environment: [
            "HOME": "/home/ann", "XDG_CONFIG_DIRS": "/etc/xdg:relative/ignored", "XDG_DATA_DIRS": "/usr/share",
            "XDG_CURRENT_DESKTOP": "ubuntu:GNOME",
        ])
        #expect(files.map(\.path) == [
            "/home/ann/.config/ubuntu-mimeapps.list", "/home/ann/.config/gnome-mimeapps.list", "/home/ann/.config/mimeapps.list",
            "/etc/xdg/ubuntu-mimeapps.list", "/etc/xdg/gnome-mimeapps.list", "/etc/xdg/mimeapps.list",
            "/home/ann/.local/share/applications/ubuntu-mimeapps.list", "/home/ann/.local/share/applications/gnome-mimeapps.list",
            "/home/ann/.local/share/applications/mimeapps.list",
            "/usr/share/applications/ubuntu-mimeapps.list", "/usr/share/applications/gnome-mimeapps.list",
            "/usr/share/applications/mimeapps.list",
        ])
        #expect(files.map(\.desktopSpecific) == [true, true, false, true, true, false, true, true, false, true, true, false])
        let plain = MimeAppsList.searchPath(environment: ["XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d", "XDG_CURRENT_DESKTOP": "../x"])
        #expect(plain.map(\.path) == ["/c/mimeapps.list", "/etc/xdg/mimeapps.list", "/d/applications/mimeapps.list",
                                      "/usr/local/share/applications/mimeapps.list", "/usr/share/applications/mimeapps.list"])
    }

    @Test func groupsAreReadAndDesktopSpecificFilesOnlySetDefaults() {
        let groups: [(name: String, entries: [(key: String, value: String)])] = [
            ("Default Applications", [("Text/VCard", "contacts.desktop;;other.desktop;")]),
            ("Added Associations", [("x-scheme-handler/tel", "phone.desktop")]),
            ("Removed Associations", [("text/vcard", "bad.desktop")]),
            ("Something Else", [("text/vcard", "ignored.desktop")]),
        ]
        let list = MimeAppsList(groups: groups, desktopSpecific: false)
        #expect(list.defaults == ["text/vcard": ["contacts.desktop", "other.desktop"]])
        #expect(list.added == ["x-scheme-handler/tel": ["phone.desktop"]] && list.removed == ["text/vcard": ["bad.desktop"]])
        let specific = MimeAppsList(groups: groups, desktopSpecific: true)
        #expect(specific.added.isEmpty && specific.removed.isEmpty && specific.defaults == list.defaults)
    }

    @Test func theFirstInstalledDefaultWins() {
        let person = MimeAppsList(defaults: ["text/vcard": ["gone.desktop", "contacts.desktop"]])
        let system = MimeAppsList(defaults: ["text/vcard": ["system.desktop"]])
        let lookup = DefaultApplications(lists: [person, system])
        #expect(lookup.defaultApp(for: "TEXT/VCARD", declaring: ["declared.desktop"], isInstalled: { $0 != "gone.desktop" }) == "contacts.desktop")
        #expect(lookup.defaultApp(for: "text/vcard", declaring: [], isInstalled: { $0 == "system.desktop" }) == "system.desktop")
    }

    @Test func withoutADefaultTheMostPreferredAssociationIsTaken() {
        let person = MimeAppsList(added: ["x-scheme-handler/mailto": ["mutt.desktop"]], removed: ["x-scheme-handler/mailto": ["thunderbird.desktop"]])
        let system = MimeAppsList(added: ["x-scheme-handler/mailto": ["thunderbird.desktop", "evolution.desktop"]])
        let lookup = DefaultApplications(lists: [person, system])
        #expect(lookup.defaultApp(for: "x-scheme-handler/mailto", declaring: [], isInstalled: { _ in true }) == "mutt.desktop")
        #expect(lookup.defaultApp(for: "x-scheme-handler/mailto", declaring: [], isInstalled: { $0 != "mutt.desktop" }) == "evolution.desktop",
                "the person removed thunderbird; a later list cannot add it back")
        #expect(lookup.defaultApp(for: "x-scheme-handler/mailto", declaring: ["thunderbird.desktop", "geary.desktop"],
                                  isInstalled: { !["mutt.desktop", "evolution.desktop"].contains($0) }) == "geary.desktop")
        #expect(lookup.defaultApp(for: "x-scheme-handler/geo", declaring: [], isInstalled: { _ in true }) == nil)
    }

    @Test func aListsOwnRemovalDoesNotHideItsOwnAddition() {
        // The spec's ordering: each list's additions count before its removals join the blacklist.
        let list = MimeAppsList(added: ["text/calendar": ["cal.desktop"]], removed: ["text/calendar": ["cal.desktop"]])
        #expect(DefaultApplications(lists: [list]).defaultApp(for: "text/calendar", declaring: [], isInstalled: { _ in true }) == "cal.desktop")
    }

    @Test func aFileIsReadWithItsListsEscapesAndComments() throws {
        let text = """
        # written by a settings app
        [Default Applications]
        text/vcard=org.gnome.Contacts.desktop;
        x-scheme-handler/mailto=thunderbird.desktop;org.gnome.Evolution.desktop

        [Added Associations]
        x-scheme-handler/tel=org.gnome.Calls.desktop;
        """
        let list = MimeAppsList(file: try DesktopEntryFile(bytes: Array(text.utf8), keys: .mimeTypes), desktopSpecific: false)
        #expect(list.defaults["x-scheme-handler/mailto"] == ["thunderbird.desktop", "org.gnome.Evolution.desktop"])
        #expect(list.added["x-scheme-handler/tel"] == ["org.gnome.Calls.desktop"])
        let entry = try DesktopEntry(id: #require(DesktopFileID(relativePath: "contacts.desktop")), path: "/x/contacts.desktop",
                                     file: DesktopEntryFile(bytes: Array("[Desktop Entry]\nType=Application\nName=Contacts\nExec=contacts %f\nMimeType=text/vCard;text/x-vcard;\n".utf8)))
        #expect(entry.mimeTypes == ["text/vcard", "text/x-vcard"])
        #expect(throws: DesktopEntryProblem.self) { try DesktopEntryFile(bytes: Array("[Default Applications]\ntext/vcard/x=a.desktop\n".utf8), keys: .mimeTypes) }
    }

    /// Tools that append to mimeapps.list leave groups repeated; GLib (and so the person's desktop)
    /// continues the first group and lets the last of a repeated key count (checked against
    /// GLib.KeyFile with these bytes). A desktop entry stays strict.
    @Test func aRepeatedGroupOrKeyInMimeappsListIsReadAsGLibReadsIt() throws {
        let text = """
        [Default Applications]
        x-scheme-handler/mailto=a.desktop
        [Added Associations]
        text/plain=b.desktop;
        [Default Applications]
        x-scheme-handler/tel=c.desktop
        x-scheme-handler/mailto=d.desktop
        """
        let file = try DesktopEntryFile(bytes: Array(text.utf8), keys: .mimeTypes)
        #expect(file.groups.map(\.name) == ["Default Applications", "Added Associations"])
        let list = MimeAppsList(file: file, desktopSpecific: false)
        #expect(list.defaults["x-scheme-handler/mailto"] == ["d.desktop"])
        #expect(list.defaults["x-scheme-handler/tel"] == ["c.desktop"])
        #expect(list.added["text/plain"] == ["b.desktop"])
        #expect(throws: DesktopEntryProblem(line: 3, "group [Desktop Entry] appears twice")) {
            try DesktopEntryFile(bytes: Array("[Desktop Entry]\nName=A\n[Desktop Entry]\nName=B\n".utf8))
        }
        #expect(throws: DesktopEntryProblem(line: 3, "key Exec appears twice in [Desktop Entry]")) {
            try DesktopEntryFile(bytes: Array("[Desktop Entry]\nExec=a\nExec=b\n".utf8))
        }
    }
}
