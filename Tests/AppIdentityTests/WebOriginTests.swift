import AppIdentity
import Testing

/// Origins as browsers serialize them, and what a hostile caller might pass as one.
@Suite struct WebOriginTests {
    @Test func secureOriginsAsBrowsersWriteThem() throws {
        let site = try #require(WebOrigin("https://example.com"))
        #expect(site.serialized == "https://example.com")
        #expect(site.displayName == "example.com")
        #expect(WebOrigin("https://shop.example.co.uk:8443")?.displayName == "shop.example.co.uk:8443")
        #expect(WebOrigin("https://xn--hndvrker-9zan.dk")?.host == "xn--hndvrker-9zan.dk")
        #expect(WebOrigin("https://192.0.2.1")?.port == nil)
        #expect(WebOrigin("https://[2001:db8::1]:444")?.displayName == "[2001:db8::1]:444")
    }

    @Test func plainHTTPOnlyOnLoopback() {
        #expect(WebOrigin("http://localhost:8080")?.displayName == "localhost:8080")
        #expect(WebOrigin("http://127.0.0.1:41234")?.serialized == "http://127.0.0.1:41234")
        #expect(WebOrigin("http://[::1]")?.host == "[::1]")
        #expect(WebOrigin("http://example.com") == nil)
        #expect(WebOrigin("http://127.0.0.2") == nil)
    }

    @Test func onlyTheCanonicalSpellingIsTaken() {
        for text in ["https://Example.com", "https://example.com/", "https://example.com:443", "http://localhost:80",
                     "https://example.com:08443", "https://example.com:65536", "https://example.com:", "https://user@example.com",
                     "https://exa mple.com", "https://example..com", "https://-example.com", "https://example.com\u{0}",
                     "https://exa%6dple.com", "https://", "file:///etc/passwd", "chrome-extension://abc", "https://a_b.example",
                     "https://example.com\nhttps://evil.example", "https://[::1", "https://" + String(repeating: "a.", count: 127) + "com"] {
            #expect(WebOrigin(text) == nil, "\(text)")
        }
    }
}
