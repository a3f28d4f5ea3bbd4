import NDEF
import NDEFReport
import NFCDispatch
import NFCCopy
import Testing

/// The notifications a person sees for an object, in the catalog's words.
@Suite struct NotificationComposerTests {
    let composer = NotificationComposer()

    /// The notification for `records` with one app registered for `filter`.
    func offer(_ filter: HandlerFilter?, app: String = "App", icon: String? = nil, desktopEntry: String? = nil,
               _ records: NDEFRecord...) throws -> NotificationContent {
        var registry = HandlerRegistry()
        if let filter {
            _ = try registry.register(HandlerRequest(appName: app, appIcon: icon, desktopEntry: desktopEntry, filters: [filter]),
                                      owner: ":1.1", handlerPath: "/org/example/App")
        }
        let object = try report(records)
        let offer = try #require(registry.offer(for: object))
        let content = composer.notification(for: offer, report: object)
        Self.checkSafe(content)
        return content
    }

    /// What every notification must be, whatever the object held.
    static func checkSafe(_ content: NotificationContent, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(content.summary.count <= NotificationComposer.summaryLimit, "\(content.summary)", sourceLocation: sourceLocation)
        for text in [content.summary, content.body ?? "", content.plainBody ?? "", content.appName] {
            #expect(!text.unicodeScalars.contains { DisplayText.isUnsafe($0) }, "\(text)", sourceLocation: sourceLocation)
        }
        if let body = content.body {
            #expect(!body.contains("<") && !body.contains(">") && !body.contains("\""), "\(body)", sourceLocation: sourceLocation)
        }
        // The summary and app name: plain text that some servers read as markup all the same.
        for text in [content.summary, content.appName] {
            #expect(!text.contains("<") && !text.contains(">") && !text.contains("&"), "\(text)", sourceLocation: sourceLocation)
        }
        for action in content.actions {
            #expect(action.label.split(separator: " ").count <= 3 && !action.label.isEmpty, sourceLocation: sourceLocation)
        }
    }

    @Test func aWebLinkIsOfferedInTheBrowser() throws {
        let content = try offer(nil, Records.uri("https://www.example.com/poster"))
        #expect(content.summary == "Open https://www.example.com/poster?")
        #expect(content.body == nil && content.plainBody == nil)
        #expect(content.actions == [.init(key: "default", label: "Open in Browser"), .init(key: "open", label: "Open in Browser")])
        #expect(content.appName == "Nearby Items")
        #expect(content.appIcon == "web-browser")
        #expect(content.hints == .init(category: "x-nfcscan.object", desktopEntry: nil, transient: true, urgency: .normal))
        #expect(content.expireTimeout == 15_000)
    }

    @Test func aPostersTitleOrTextIsTheBody() throws {
        let poster = try offer(nil, Records.poster("https://example.com/summer-concert", title: "Summer concert in the park"))
        #expect(poster.summary == "Open https://example.com/summer-concert?")
        #expect(poster.plainBody == "The item says \u{201C}Summer concert in the park\u{201D}.")
        let beside = try offer(nil, Records.uri("http://example.com/"), Records.text("Summer concert"))
        #expect(beside.summary == "Open http://example.com/?")
        #expect(beside.plainBody == "The item says \u{201C}Summer concert\u{201D}.")
    }

    @Test func aContactGoesToItsApp() throws {
        let content = try offer(try .mediaType("text/vcard"), app: "Contacts", icon: "x-office-address-book", desktopEntry: "org.gnome.Contacts",
                                Records.contact("Ann Smith"))
        #expect(content.summary == "Open the contact in Contacts?")
        #expect(content.body == "The item holds a contact: Ann Smith.")
        #expect(content.actions == [.init(key: "default", label: "Open"), .init(key: "open", label: "Open")])
        #expect(content.appName == "Contacts")
        #expect(content.appIcon == "x-office-address-book")
        #expect(content.hints.desktopEntry == "org.gnome.Contacts")
        #expect(content.hints.category == "x-nfcscan.object")
        let nameless = try offer(try .mediaType("text/vcard"), app: "Contacts", Records.media("text/vcard", Array("BEGIN:VCARD\r\nEND:VCARD\r\n".utf8)))
        #expect(nameless.summary == "Open the contact in Contacts?")
        #expect(nameless.body == nil)
    }

    @Test func linksTextsNetworksAndNumbersGoToTheirApps() throws {
        let link = try offer(try .uri(scheme: "https", host: "example.com"), app: "Concerts", Records.uri("https://example.com/tickets/42"))
        #expect(link.summary == "Open the link in Concerts?")
        #expect(link.body == "The item links to https://example.com/tickets/42.")
        let text = try offer(try .mediaType("text/plain"), app: "Notes", Records.text("Buy milk"))
        #expect(text.summary == "Open the text in Notes?")
        #expect(text.body == "The item says \u{201C}Buy milk\u{201D}.")
        let wifi = try offer(try .mediaType("application/vnd.wfa.wsc"), app: "Settings", Records.wifi("Café"))
        #expect(wifi.summary == "Open the Wi-Fi network in Settings?")
        #expect(wifi.body == "The item holds a Wi-Fi network: Café.")
        let phone = try offer(try .uri(scheme: "tel"), app: "Calls", Records.uri("tel:+15551234"))
        #expect(phone.summary == "Open the phone number in Calls?")
        #expect(phone.body == "The item holds a phone number: +15551234.")
        let poster = try offer(try .uri(scheme: "https"), app: "Posters", Records.poster("https://example.com/p", title: "Summer"))
        #expect(poster.summary == "Open the link in Posters?")
        #expect(poster.body == "The item links to https://example.com/p.")
    }

    @Test func anAppRecordOpensTheAppAndSaysWhatElseTheObjectHolds() throws {
        let content = try offer(try .androidPackage("com.example.concerts"), app: "Concerts",
                                Records.app("com.example.concerts"), Records.uri("https://example.com/c"))
        #expect(content.summary == "Open Concerts?")
        #expect(content.body == "The item links to https://example.com/c.")
        let alone = try offer(try .androidPackage("com.example.concerts"), app: "Concerts", Records.app("com.example.concerts"))
        #expect(alone.summary == "Open Concerts?")
        #expect(alone.body == nil)
    }

    /// Issue 23: a link that won't open, or opens unprotected, reads as the command line shows it,
    /// never like a working one; user information still gives way to the real host.
    @Test func aLinkIsNamedWithItsSchemeAndOneWithoutIsCalledIncomplete() throws {
        func body(_ uri: String) throws -> String? {
            try offer(try .androidPackage("com.example.menu"), app: "Menu", Records.app("com.example.menu"), Records.uri(uri)).plainBody
        }
        #expect(try body("example.com/menu") == "The item's link won't open: example.com/menu.")
        #expect(try body("http://example.com/menu") == "The item links to http://example.com/menu.")
        #expect(try body("https://bank.example@evil.example/login") == "The item links to https://evil.example/login.")
        let long = try #require(try body("example.com/" + String(repeating: "m", count: 300)))
        #expect(long.hasPrefix("The item's link won't open: example.com/mmm") && long.hasSuffix("….")
                && long.count < 160)
        let unprotected = try offer(nil, Records.uri("http://example.com/menu"))
        #expect(unprotected.summary == "Open http://example.com/menu?")
    }

    @Test func otherMediaIsNamedAsTheItem() throws {
        let content = try offer(try .mediaType("image/*"), app: "Viewer", Records.media("image/png"))
        #expect(content.summary == "Open the item in Viewer?")
        #expect(content.body == nil)
        let external = try offer(try .externalType("example.com:ticket"), app: "Tickets", Records.external("example.com:ticket"))
        #expect(external.summary == "Open the item in Tickets?")
    }

    @Test func failuresSayWhatHappenedWithoutButtons() throws {
        let request = try HandlerRequest(appName: "Contacts", appIcon: "contacts", desktopEntry: "org.gnome.Contacts", filters: [try .mediaType("text/vcard")])
        var registry = HandlerRegistry()
        let id = try registry.register(request, owner: ":1.1", handlerPath: "/a")
        let failed = composer.handlerFailed(.registered(try #require(registry.registration(id))))
        #expect(failed.summary == "The item couldn't be sent to Contacts. Try again.")
        #expect(failed.actions.isEmpty && failed.body == nil)
        #expect(failed.hints == .init(category: "x-nfcscan.object.error", desktopEntry: "org.gnome.Contacts"))
        #expect(failed.appIcon == "contacts")
        let browser = composer.browserFailed()
        #expect(browser.summary == "The link couldn't be opened. Try again.")
        #expect(browser.actions.isEmpty)
        Self.checkSafe(failed)
        Self.checkSafe(browser)
    }

    @Test func longValuesAreShortenedToFit() throws {
        let name = String(repeating: "N", count: 64)
        let content = try offer(try .mediaType("application/vnd.bluetooth.ep.oob"), app: name,
                                Records.media("application/vnd.bluetooth.ep.oob", [0x08, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]))
        #expect(content.summary.count == 60)
        #expect(content.summary.hasPrefix("Open the Bluetooth device in NNNN") && content.summary.hasSuffix("…?"))
        let link = try offer(nil, Records.uri("https://example.com/" + String(repeating: "a", count: 500)))
        #expect(link.summary.hasPrefix("Open https://example.com/aaa") && link.summary.hasSuffix("…?"))
        let failed = composer.handlerFailed(.registered(try #require(try HandlerRegistry.registered(name))))
        #expect(failed.summary.count <= 60)
    }

    @Test func aLongHostKeepsItsEndSoTheOwnerShows() throws {
        let host = "login.bank.example." + String(repeating: "a", count: 100) + ".evil.example"
        let content = try offer(nil, Records.uri("https://\(host)/x"))
        #expect(content.summary.hasPrefix("Open https://…"))
        #expect(content.summary.hasSuffix(".evil.example?"))
        let short = try offer(nil, Records.uri("https://bank.example.evil.example/" + String(repeating: "p", count: 100)))
        #expect(short.summary.hasPrefix("Open https://bank.example.evil.example/ppp"))
    }
}

extension HandlerRegistry {
    /// A registration for `app`, as the daemon would hold it.
    static func registered(_ app: String) throws -> HandlerRegistration? {
        var registry = HandlerRegistry()
        let id = try registry.register(HandlerRequest(appName: app, filters: [try .uri(scheme: "https")]), owner: ":1.1", handlerPath: "/a")
        return registry.registration(id)
    }
}

/// A signed object's notification: a broken signature warns first, a trusted one names its signer.
@Suite struct SignedNotificationTests {
    /// `report` with every record marked `status` (as NFCObjects marks them), the last as the
    /// Signature record signed by `signer`.
    private func marked(_ status: String, signer: String? = nil) throws -> ReportValue {
        let sig = SignatureRecord(signatureType: 0x0B, signature: .bytes([1]), certificates: [[0x30]])
        let plain = try report(Records.uri("https://example.com/poster"), NDEFRecord(tnf: .wellKnown, type: "Sig", payload: try sig.payload()))
        let records = (plain["records"]?.arrayValue ?? []).map { record -> ReportValue in
            guard case .object(var fields) = record else { return record }
            fields.append(.init("signed", .string(status)))
            if record["kind"] == .string("signature"), let signer { fields.append(.init("signed_by", .string(signer))) }
            return .object(fields)
        }
        return .object([.init("records", .array(records))])
    }

    @Test func aBrokenSignatureWarnsBeforeTheOffer() throws {
        let object = try marked("failed")
        let content = NotificationComposer().notification(for: try #require(HandlerRegistry().offer(for: object)), report: object)
        #expect(content.summary == "Open https://example.com/poster?")
        #expect(content.plainBody == "Careful: this item was changed after it was signed.")
    }

    @Test func aTrustedSignatureNamesItsSigner() throws {
        let object = try marked("verified", signer: "Example <b>Ltd</b>")
        let content = NotificationComposer().notification(for: try #require(HandlerRegistry().offer(for: object)), report: object)
        NotificationComposerTests.checkSafe(content)
        #expect(content.plainBody == "Signed by Example <b>Ltd</b>.")
        #expect(content.body == "Signed by Example &lt;b&gt;Ltd&lt;/b&gt;.")
    }
}
