import DesktopEntries
import NDEF
import NDEFReport
import NFCCopy
import NFCDispatch
import Testing

/// What the person's own default apps are offered when no app asked for an object, and how the
/// offer reads: the object chooses the content, so dangerous links and files are never offered.
@Suite struct DefaultContentTests {
    let composer = NotificationComposer()
    let contacts = DefaultApp(try! installedApp("org.gnome.Contacts", name: "Contacts", "Icon=org.gnome.Contacts\nExec=gnome-contacts %f"))!

    /// The choice when every type has a default app and networks can be joined.
    func choice(_ records: NDEFRecord..., joinable: Bool = true) throws -> DefaultContent? {
        DefaultContent.choice(in: try report(records), hasDefaultApp: { _ in true }, canJoinNetworks: joinable)
    }

    @Test func linksGoToTheAppForTheirScheme() throws {
        for (uri, type) in [("mailto:hello@example.com", "x-scheme-handler/mailto"), ("tel:+15550100", "x-scheme-handler/tel"),
                            ("sms:+15550100?body=hi", "x-scheme-handler/sms"), ("geo:52.52,13.40", "x-scheme-handler/geo"),
                            ("spotify:track:4uLU6hMCjMI75M1A2tKUQC", "x-scheme-handler/spotify")] {
            let content = try #require(try choice(Records.uri(uri)), "\(uri)")
            #expect(content.mimeType == type)
            guard case .schemeLink(let link) = content else { Issue.record("\(uri): \(content)"); continue }
            #expect(link.uri == uri)
        }
    }

    /// Issue 23: a link holding a control character is reported with an error and offered to
    /// nothing: not the browser, not an app for its scheme, not from a smart poster.
    @Test func linksWithControlCharactersAreNeverOffered() throws {
        for uri in ["https://example.com/a\nSet-Cookie: x", "https://example.com/\u{0}", "tel:+15550100\u{7}",
                    "https://example.com/\u{1B}[2J", "mailto:a@example.com\u{7F}", "https://example.com/\r"] {
            #expect(try choice(Records.uri(uri)) == nil, "\(uri.debugDescription)")
            #expect(try choice(Records.absoluteURI(uri)) == nil, "\(uri.debugDescription)")
            // In a smart poster the bad link makes the whole nested message undecodable.
            #expect(((try? choice(try Records.poster(uri, title: "Concert"))) ?? nil) == nil, "\(uri.debugDescription)")
        }
        // After a bad one, a good link in the same message is still offered.
        let content = try #require(try choice(Records.uri("https://example.com/\n"), Records.uri("https://example.com/poster")))
        #expect(content.recordIndex == 1)
    }

    @Test func webLinksStillGoToTheBrowser() throws {
        let content = try #require(try choice(Records.uri("https://example.com/poster")))
        guard case .webLink(let link) = content else { Issue.record("\(content)"); return }
        #expect(link.uri == "https://example.com/poster" && content.mimeType == nil)
    }

    @Test func linksThatRunCodeOrOpenFilesAreNeverOffered() throws {
        for uri in ["javascript:alert(1)", "JavaScript:alert(1)", "vbscript:msgbox", "file:///etc/passwd", "data:text/html,<script>",
                    "view-source:https://example.com", "ms-msdt:/id PCWDiagnostic", "search-ms:query=x", "smb://evil.example/share",
                    "about:config", "blob:https://example.com/1", "tel:+1\u{202E}0010", "mailto:a b@example.com", "sms://user@host/"] {
            #expect(try choice(Records.absoluteURI(uri)) == nil, "\(uri)")
        }
    }

    @Test func aLinkWithoutADefaultAppGivesWayToTheNextRecord() throws {
        let object = try report([Records.uri("spotify:track:1"), Records.uri("tel:+15550100")])
        let content = DefaultContent.choice(in: object, hasDefaultApp: { $0 == "x-scheme-handler/tel" }, canJoinNetworks: false)
        #expect(content?.mimeType == "x-scheme-handler/tel" && content?.recordIndex == 1)
        #expect(DefaultContent.choice(in: object, hasDefaultApp: { _ in false }, canJoinNetworks: true) == nil)
    }

    @Test func mediaRecordsBecomeFilesWithTheirUsualExtension() throws {
        for (type, mime, fileExtension) in [("text/vcard", "text/vcard", "vcf"), ("text/x-vCard", "text/vcard", "vcf"),
                                            ("TEXT/CALENDAR; charset=utf-8", "text/calendar", "ics"), ("image/png", "image/png", "png"),
                                            ("image/jpeg", "image/jpeg", "jpg"), ("application/pdf", "application/pdf", "pdf")] {
            let payload = Array("BEGIN:VCARD\r\nFN:Jane\r\nEND:VCARD\r\n".utf8)
            let content = try #require(try choice(Records.media(type, payload)), "\(type)")
            guard case .mediaFile(let file) = content else { Issue.record("\(type): \(content)"); continue }
            #expect(file.mimeType == mime && file.fileExtension == fileExtension && file.payload == payload, "\(type)")
        }
    }

    @Test func filesWhoseAppsWouldRunThemAreNeverOffered() throws {
        for type in ["application/x-shellscript", "application/x-desktop", "text/html", "image/svg+xml", "application/x-executable",
                     "application/octet-stream", "application/x-msdownload", "text/x-python"] {
            #expect(try choice(Records.media(type, Array("#!/bin/sh\nrm -rf ~\n".utf8))) == nil, "\(type)")
        }
        #expect(try choice(Records.media("image/png", [])) == nil, "an empty payload is no picture")
    }

    @Test func aWiFiNetworkIsJoinedWithTheSettingsNetworkManagerTakes() throws {
        let record = try Records.wifi(ssid: Array("CafeGuest".utf8), key: Array("correct horse".utf8), authentication: 0x0020, encryption: 0x0008)
        let content = try #require(try choice(record))
        guard case .wifiNetwork(let network) = content else { Issue.record("\(content)"); return }
        #expect(network.name == "CafeGuest" && network.security == .wpaPersonal(passphrase: "correct horse"))
        let settings = network.networkManagerSettings
        #expect(settings["connection"]?["type"] == .string("802-11-wireless"))
        #expect(settings["802-11-wireless"]?["ssid"] == .bytes(Array("CafeGuest".utf8)))
        #expect(settings["802-11-wireless-security"] == ["key-mgmt": .string("wpa-psk"), "psk": .string("correct horse")])
        #expect(try self.choice(record, joinable: false) == nil, "without NetworkManager nothing is offered")
    }

    @Test func openAndWEPNetworks() throws {
        let open = try #require(WiFiCredentials(record: recordOf(try Records.wifi(ssid: [0xFF, 0x00, 0x41], authentication: 0x0001, encryption: 0x0001)), recordIndex: 0))
        #expect(open.security == .open && open.name == "ff0041" && open.networkManagerSettings["802-11-wireless-security"] == nil)
        let wep = try #require(WiFiCredentials(record: recordOf(try Records.wifi(ssid: Array("Old".utf8), key: Array("0123456789".utf8), authentication: 0x0001, encryption: 0x0002)), recordIndex: 0))
        #expect(wep.networkManagerSettings["802-11-wireless-security"]?["wep-key-type"] == .uint32(1))
    }

    @Test func networksThatCannotBeJoinedAsTheyAreAreNotOffered() throws {
        let cases: [(String, NDEFRecord)] = [
            ("enterprise", try Records.wifi(ssid: Array("Corp".utf8), key: Array("password1".utf8), authentication: 0x0010)),
            ("short key", try Records.wifi(ssid: Array("Cafe".utf8), key: Array("short".utf8), authentication: 0x0020)),
            ("no key", try Records.wifi(ssid: Array("Cafe".utf8), authentication: 0x0020)),
            ("control in key", try Records.wifi(ssid: Array("Cafe".utf8), key: Array("pass\u{7}word".utf8), authentication: 0x0020)),
            ("long SSID", try Records.wifi(ssid: Array(repeating: 0x41, count: 33), authentication: 0x0001)),
            ("open with a key", try Records.wifi(ssid: Array("Cafe".utf8), key: Array("password1".utf8), authentication: 0x0001)),
        ]
        for (name, record) in cases { #expect(try choice(record) == nil, "\(name)") }
    }

    @Test func theKeyIsNeverDescribed() throws {
        let record = try Records.wifi(ssid: Array("CafeGuest".utf8), key: Array("s3cret-passphrase".utf8), authentication: 0x0020)
        let network = try #require(WiFiCredentials(record: recordOf(record), recordIndex: 0))
        var dumped = ""
        dump(network, to: &dumped)
        for text in [String(describing: network), String(reflecting: network), "\(network)", dumped] {
            #expect(!text.contains("s3cret"), "\(text)")
        }
        let notification = try #require(composer.defaultOffer(.wifiNetwork(network), app: nil, report: try report(record)))
        #expect(notification.summary == "Join the network CafeGuest?")
        #expect(!"\(notification)".contains("s3cret"))
    }

    @Test func offersSayWhatHappensInWhichApp() throws {
        let cases: [(NDEFRecord, DefaultApp?, String, String)] = [
            (Records.contact("Jane Doe"), contacts, "Add Jane Doe to Contacts?", "Add"),
            (Records.media("text/vcard", Array("BEGIN:VCARD\r\nEND:VCARD\r\n".utf8)), contacts, "Add the contact to Contacts?", "Add"),
            (Records.uri("tel:+1-555-0100"), nil, "Call +1-555-0100?", "Call"),
            (Records.uri("mailto:hello@example.com?subject=Hi"), nil, "Write to hello@example.com?", "Write"),
            (Records.uri("sms:+15550100"), nil, "Send a message to +15550100?", "Message"),
            (Records.uri("geo:52.52,13.40"), try #require(DefaultApp(try installedApp("org.gnome.Maps", name: "Maps", "Exec=maps %u"))), "Open the location in Maps?", "Open"),
            (Records.media("text/calendar", Array("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8)), try #require(DefaultApp(try installedApp("cal", name: "Calendar", "Exec=cal %f"))), "Add the event to Calendar?", "Add"),
        ]
        for (record, app, summary, button) in cases {
            let object = try report(record)
            let content = try #require(DefaultContent.choice(in: object, hasDefaultApp: { _ in true }, canJoinNetworks: true))
            let notification = try #require(composer.defaultOffer(content, app: app, report: object))
            NotificationComposerTests.checkSafe(notification)
            #expect(notification.summary == summary)
            #expect(notification.actions.map(\.label) == [button, button])
            #expect(notification.hints.desktopEntry == app?.id.name)
        }
    }

    @Test func hostileNamesAreShownSafelyAndShortened() throws {
        let name = "<b>Jane</b>\u{202E}evil\u{7}" + String(repeating: "x", count: 200)
        let object = try report(Records.contact(name))
        let content = try #require(DefaultContent.choice(in: object, hasDefaultApp: { _ in true }, canJoinNetworks: true))
        let notification = try #require(composer.defaultOffer(content, app: contacts, report: object))
        NotificationComposerTests.checkSafe(notification)
        #expect(notification.summary.hasPrefix("Add ＜b＞Jane＜/b＞") && notification.summary.hasSuffix("… to Contacts?"))
        let ssid = Array("Cafe\u{1B}[31m\n".utf8)
        let wifi = try report(Records.wifi(ssid: ssid, authentication: 0x0001))
        let network = try #require(DefaultContent.choice(in: wifi, hasDefaultApp: { _ in true }, canJoinNetworks: true))
        let joined = try #require(composer.defaultOffer(network, app: nil, report: wifi))
        NotificationComposerTests.checkSafe(joined)
    }

    @Test func everyOfferReadsWellInEveryLanguage() {
        for language in ScanCopy.Language.allCases {
            let copy = ScanCopy.catalog(for: language)
            for (key, offer) in DefaultAppOffer.samples("Example") {
                #expect(CopyRules.problems(in: copy.notificationDefault(offer)).isEmpty, "\(language) \(key): \(copy.notificationDefault(offer))")
                #expect(CopyRules.problems(in: copy.action(offer), isSentence: false).isEmpty, "\(language) \(key)")
            }
        }
    }

    private func recordOf(_ record: NDEFRecord) throws -> ReportValue {
        try #require(try report(record)["records"]?.arrayValue?.first)
    }

    @Test func thePersonsDefaultAppTakesWhatNoAppAskedFor() throws {
        let index = ApplicationIndex(entries: [
            try installedApp("org.gnome.Contacts", name: "Contacts", "DBusActivatable=true\nExec=gnome-contacts %U\nMimeType=text/vcard;"),
            try installedApp("org.gnome.Calendar", name: "Calendar", "DBusActivatable=true\nMimeType=text/calendar;"),
            try installedApp("thunderbird", name: "Thunderbird", "Exec=thunderbird %u\nMimeType=x-scheme-handler/mailto;"),
            try installedApp("mutt", name: "Mutt", "Exec=mutt %u\nMimeType=x-scheme-handler/mailto;"),
            try installedApp("viewer", name: "Viewer", "Exec=viewer\nMimeType=image/png;"),
            try installedApp("dialer", name: "Dialer", "Exec=dialer %f\nMimeType=x-scheme-handler/tel;"),
        ])
        let person = MimeAppsList(defaults: ["x-scheme-handler/mailto": ["mutt.desktop"]])
        let defaults = PersonalDefaults(applications: DefaultApplications(lists: [person]), index: index)
        #expect(defaults.app(for: "x-scheme-handler/mailto")?.name == "Mutt", "the person's choice over the first declared")
        #expect(defaults.app(for: "text/vcard")?.name == "Contacts")
        #expect(defaults.app(for: "text/calendar") == nil, "no Exec line: this version does not open files over D-Bus")
        #expect(defaults.app(for: "image/png") == nil, "an Exec line with no %f or %u cannot be handed the picture")
        #expect(defaults.app(for: "x-scheme-handler/tel") == nil, "a link cannot be handed to an app that takes only files")
        let choice = try #require(defaults.choice(for: try report(Records.uri("tel:+15550100"), Records.uri("mailto:a@example.com")),
                                                  canJoinNetworks: false))
        #expect(choice.content.recordIndex == 1 && choice.app?.name == "Mutt")
        let web = try #require(defaults.choice(for: try report(Records.uri("https://example.com/")), canJoinNetworks: false))
        #expect(web.app == nil)
    }
}
