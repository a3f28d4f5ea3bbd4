import NDEF
import NDEFReport
import NFCCopy
import NFCDispatch
import Testing

/// Objects are untrusted: nothing they hold may act as markup, reorder text, reach a terminal, or
/// crowd out the notification.
@Suite struct HostileContentTests {
    static let hostile: [String] = [
        #"<a href="file:///etc/passwd">x</a>"#,
        "<img src=\"file:///etc/passwd\" onerror=alert(1)>",
        "<b>Bank</b> &amp; <i>it's</i> \"quoted\"",
        "\u{202E}gpj.exe",
        "a\u{2066}b\u{2067}c\u{2068}d\u{2069}e\u{200F}",
        "\u{1B}[31mred\u{1B}[0m\u{1B}]0;title\u{07}",
        "nul\u{0}byte",
        "line\nbreak\r\u{2028}\u{85}",
        String(repeating: "A", count: 10_240),
        "javascript:alert(1)",
        "JAVASCRIPT:alert(1)",
        "file:///etc/passwd",
    ]

    @Test func escapeNeutralisesMarkupCharacters() {
        #expect(NotificationMarkup.escape(#"&<>'""#) == "&amp;&lt;&gt;&#39;&quot;")
        #expect(NotificationMarkup.escape(#"<a href="file:///etc/passwd">x</a>"#)
                == "&lt;a href=&quot;file:///etc/passwd&quot;&gt;x&lt;/a&gt;")
        #expect(NotificationMarkup.escape("&amp;") == "&amp;amp;")
        #expect(NotificationMarkup.escape("a\u{202E}b\u{1B}c\u{0}") == "a\\u{202e}b\\u{1b}c\\u{0}")
        #expect(NotificationMarkup.escape("Café 你好 🙂") == "Café 你好 🙂")
    }

    @Test func valuesAreNeutralisedAndShortened() {
        #expect(NotificationMarkup.value("\u{202E}gpj.exe") == "\\u{202e}gpj.exe")
        let long = NotificationMarkup.value(String(repeating: "A", count: 10_240))
        #expect(long == String(repeating: "A", count: 80) + "…")
        #expect(NotificationMarkup.value("short") == "short")
    }

    @Test(arguments: hostile)
    func hostileTextStaysText(_ value: String) throws {
        var registry = HandlerRegistry()
        let request = try HandlerRequest(appName: "Notes", filters: [try .mediaType("text/plain"), try .mediaType("text/vcard")])
        _ = try registry.register(request, owner: ":1.1", handlerPath: "/a")
        let composer = NotificationComposer()
        for records in [[try Records.text(value)], [Records.contact(value)]] {
            let object = try report(records)
            let content = composer.notification(for: try #require(registry.offer(for: object)), report: object)
            NotificationComposerTests.checkSafe(content)
            let body = try #require(content.body)
            let plain = try #require(content.plainBody)
            #expect(body == NotificationMarkup.escape(plain))
            #expect(plain.count < 140, "\(plain.prefix(200))")
            #expect(!body.contains("<a") && !body.contains("<img"))
        }
    }

    @Test(arguments: hostile)
    func hostileTitlesBesideAWebLinkStayText(_ value: String) throws {
        let object = try report(Records.poster("https://example.com/p", title: value))
        let offer = try #require(HandlerRegistry().offer(for: object))
        let content = NotificationComposer().notification(for: offer, report: object)
        NotificationComposerTests.checkSafe(content)
        #expect(content.summary == "Open https://example.com/p?")
    }

    @Test func hostileLinksAreNeverOfferedAndNeverShownRaw() throws {
        for uri in ["javascript:alert(1)", "JAVASCRIPT:alert(1)", "file:///etc/passwd", "http://example.com/\nSafe link", "https://example.com/\u{202E}gpj.exe"] {
            let object = try report(Records.uri(uri))
            #expect(HandlerRegistry().offer(for: object) == nil, "\(uri)")
            // An app that asked for every link of the scheme still can't match a malformed one.
            var registry = HandlerRegistry()
            let scheme = String(uri.prefix { $0 != ":" })
            guard let filter = try? HandlerFilter.uri(scheme: scheme) else {
                #expect(["javascript", "file"].contains(scheme.lowercased()), "\(scheme) refused")
                continue
            }
            _ = try registry.register(HandlerRequest(appName: "App", filters: [filter]), owner: ":1.1", handlerPath: "/a")
            if let offer = registry.offer(for: object) {
                let content = NotificationComposer().notification(for: offer, report: object)
                NotificationComposerTests.checkSafe(content)
                #expect(!uri.contains("\n") && !uri.contains("\u{202E}"), "a malformed link matched: \(uri)")
            }
        }
    }

    @Test func aHostileLinkBesideTheMatchedRecordIsShownSafely() throws {
        // An app record matched; the object's other link is shown escaped, never as markup.
        var registry = HandlerRegistry()
        _ = try registry.register(HandlerRequest(appName: "Concerts", filters: [try .androidPackage("com.example.concerts")]),
                                  owner: ":1.1", handlerPath: "/a")
        let object = try report(Records.app("com.example.concerts"), Records.uri("https://example.com/<img src=x>\"'&"))
        let content = NotificationComposer().notification(for: try #require(registry.offer(for: object)), report: object)
        NotificationComposerTests.checkSafe(content)
        #expect(content.body == "The item links to https://example.com/&lt;img src=x&gt;&quot;&#39;&amp;.")
        // Issue 23: a link with a control character in it is no link: the notification does not mention it.
        let escaped = try report(Records.app("com.example.concerts"), Records.uri("https://example.com/\u{1B}[2J"))
        let plain = NotificationComposer().notification(for: try #require(registry.offer(for: escaped)), report: escaped)
        NotificationComposerTests.checkSafe(plain)
        #expect(plain.body == nil)
    }

    /// The issue's dangerous links: schemes never opened for the person are never delivered to an
    /// app either, whoever asks; a link with user information goes to no app and shows its real host.
    @Test func dangerousLinksReachNoApp() throws {
        for scheme in ["javascript", "JavaScript", "file", "data", "vbscript", "view-source", "smb"] {
            #expect(throws: FilterError.unsafeScheme(scheme)) { try HandlerFilter.uri(scheme: scheme) }
            #expect(throws: FilterError.unsafeScheme(scheme)) { try HandlerFilter(fields: ["uri-scheme": scheme]) }
        }
        var registry = HandlerRegistry()
        _ = try registry.register(HandlerRequest(appName: "Bank", filters: [try .uri(scheme: "https", host: "evil.example")]),
                                  owner: ":1.1", handlerPath: "/a")
        let disguised = try report(Records.uri("https://bank.example@evil.example/login"))
        #expect(registry.match(disguised) == nil)
        #expect(registry.offer(for: disguised) == nil)
        #expect(LinkText("https://bank.example@evil.example/login") == .whole("https://evil.example/login"))
        #expect(LinkText("http://user:pw@www.evil.example") == .whole("http://www.evil.example"))
        #expect(LinkText("https://example.com/a@b") == .whole("https://example.com/a@b"))
        for language in ScanCopy.Language.allCases {
            let said = ContentDescription.lines(for: disguised, copy: ScanCopy.catalog(for: language)).joined(separator: " ")
            #expect(said.contains("evil.example/login") && !said.contains("bank.example"), "\(language): \(said)")
        }
    }

    /// The issue's markup in the title: an app name and a contact's name with markup reach the
    /// notification's summary and app name inert (no `<`, `>` or `&` any server reads as markup).
    @Test func summaryAndAppNameAreNeverMarkup() throws {
        var registry = HandlerRegistry()
        let app = "<b>Bank</b> & <a href='x'>"
        _ = try registry.register(HandlerRequest(appName: app, filters: [try .uri(scheme: "https")]), owner: ":1.1", handlerPath: "/a")
        let object = try report(Records.uri("https://example.com/x"))
        let content = NotificationComposer().notification(for: try #require(registry.offer(for: object)), report: object)
        for text in [content.summary, content.appName] {
            #expect(!text.contains("<") && !text.contains(">") && !text.contains("&"), "\(text)")
        }
        #expect(content.appName == "＜b＞Bank＜/b＞ ＆ ＜a href='x'＞")
        NotificationComposerTests.checkSafe(content)
    }
}
