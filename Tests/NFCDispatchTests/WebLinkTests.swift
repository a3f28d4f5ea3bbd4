import NDEF
import NDEFReport
import NFCDispatch
import Testing

/// When no app asked for an object and no default app is known, only a web link is offered.
@Suite struct WebLinkTests {
    func offered(_ records: NDEFRecord...) throws -> WebLink? {
        guard case .webLink(let link)? = HandlerRegistry().offer(for: try report(records)) else { return nil }
        return link
    }

    @Test func theFirstWebLinkOfAnyLinkRecordIsOffered() throws {
        #expect(try offered(Records.uri("https://example.com/poster")) == WebLink("https://example.com/poster", recordIndex: 0))
        #expect(try offered(Records.text("Hi"), Records.poster("http://example.com/p", title: "T"))?.recordIndex == 1)
        #expect(try offered(Records.absoluteURI("HTTPS://example.com/"))?.uri == "HTTPS://example.com/")
        #expect(try offered(Records.uri("HtTp://example.com"))?.uri == "HtTp://example.com")
        #expect(try offered(Records.uri("tel:+15551234"), Records.uri("https://example.com/b"))?.uri == "https://example.com/b")
    }

    @Test func noOtherSchemeIsEverOffered() throws {
        for uri in ["javascript:alert(1)", "JAVASCRIPT:alert(1)", "JavaScript://example.com/%0aalert(1)", "file:///etc/passwd",
                    "FILE://localhost/etc/passwd", "data:text/html,<script>alert(1)</script>", "data:text/html;base64,PHNjcmlwdD4=",
                    "tel:+15551234", "mailto:a@example.com", "sms:+1555", "ftp://example.com/x", "vbscript:msgbox(1)",
                    "myapp://open?x=1", "intent://scan/#Intent;scheme=zxing;end", "about:blank", "chrome://settings",
                    "httpx://example.com", "https-evil://example.com", " https://example.com", "https:example.com",
                    "http:/example.com", "https:///etc/passwd", "http://"] {
            #expect(try offered(Records.uri(uri)) == nil, "\(uri)")
        }
        #expect(try offered(Records.text("https://example.com")) == nil)
        #expect(try offered(Records.contact("https://example.com")) == nil)
        #expect(try offered(.empty) == nil)
    }

    @Test func malformedOrDisguisedWebLinksAreNotOffered() throws {
        for uri in ["http://example.com/\nevil", "http://exa\rmple.com", "https://example.com/a b", "https://example.com/\t",
                    "https://example.com/\u{0}", "https://example.com/\u{1B}[2J", "https://\u{202E}moc.elpmaxe/", "https://exa\u{2066}mple.com",
                    "https://example.com/\u{85}", "https://example.com/\u{2028}", "https://example.com/\u{A0}", "https://example.com/<script>",
                    "https://example.com/\"onmouseover", "https://bank.example@evil.example/", "https://user:pass@example.com/",
                    "https://example.com:443x/", "https://[::1/", "https://example.com/" + String(repeating: "a", count: 8200)] {
            #expect(try offered(Records.uri(uri)) == nil, "\(uri.prefix(60))")
        }
        // The next good link is still found.
        #expect(try offered(Records.uri("http://example.com/\nevil"), Records.uri("https://example.com/ok"))?.recordIndex == 1)
    }

    @Test func internationalLinksAndPortsAreFine() throws {
        #expect(try offered(Records.uri("https://café.example/menü")) != nil)
        #expect(try offered(Records.uri("https://example.com:8443/a?b=c&d#e")) != nil)
        #expect(try offered(Records.uri("https://[2001:db8::1]/")) != nil)
    }

    @Test func theRegistryOffersTheLinkOnlyWhenNoHandlerMatches() throws {
        let object = try report(Records.uri("https://example.com/poster"), Records.contact("Ann"))
        var registry = HandlerRegistry()
        #expect(registry.offer(for: object) == .webLink(WebLink("https://example.com/poster", recordIndex: 0)!))
        _ = try registry.register(HandlerRequest(appName: "Contacts", filters: [try .mediaType("text/vcard")]), owner: ":1.1", handlerPath: "/a")
        guard case .handler(let match)? = registry.offer(for: object) else { Issue.record("no handler offer"); return }
        #expect(match.app.appName == "Contacts")
        #expect(registry.offer(for: try report(Records.uri("javascript:alert(1)"))) == nil)
    }
}
