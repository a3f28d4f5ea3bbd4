import NDEF
import NDEFReport
@testable import NFCDispatch
import Testing

/// Each kind of filter, against records from real encoded messages.
@Suite struct HandlerFilterTests {
    /// Whether `filter` matches some record of `records`.
    func matches(_ filter: HandlerFilter, _ records: NDEFRecord...) throws -> Bool {
        let (registry, _) = try makeRegistry([("App", [filter])])
        return registry.match(try report(records)) != nil
    }

    @Test func uriSchemeMatchesURIAbsoluteURIAndSmartPosterLinks() throws {
        let https = try HandlerFilter.uri(scheme: "HTTPS")
        #expect(try matches(https, Records.uri("https://example.com/a")))
        #expect(try matches(https, Records.uri("HTTPS://EXAMPLE.COM/a")))
        #expect(try matches(https, Records.absoluteURI("https://example.com/a")))
        #expect(try matches(https, Records.poster("https://example.com/a", title: "Hi")))
        #expect(try !matches(https, Records.uri("http://example.com/a")))
        #expect(try !matches(https, Records.text("https://example.com/a")))
        #expect(try matches(HandlerFilter.uri(scheme: "geo"), Records.uri("geo:52.5,13.4")))
    }

    @Test func uriHostIsExactAndCaseInsensitiveIgnoringPortAndUser() throws {
        let host = try HandlerFilter.uri(scheme: "https", host: "Example.COM")
        #expect(try matches(host, Records.uri("https://example.com/a")))
        #expect(try matches(host, Records.uri("https://EXAMPLE.com:8443/a?b#c")))
        #expect(try matches(host, Records.uri("https://example.com")))
        #expect(try !matches(host, Records.uri("https://www.example.com/a")))
        #expect(try !matches(host, Records.uri("https://example.com.evil.example/a")))
        #expect(try !matches(host, Records.uri("https://evil.example/example.com")))
        #expect(try !matches(host, Records.uri("http://example.com/a")))
        #expect(try matches(HandlerFilter.uri(scheme: "http", host: "[::1]"), Records.uri("http://[::1]:8080/x")))
    }

    @Test func pathPrefixMatchesOnSegmentBoundaries() throws {
        let posters = try HandlerFilter.uri(scheme: "https", host: "example.com", pathPrefix: "/posters")
        #expect(try matches(posters, Records.uri("https://example.com/posters")))
        #expect(try matches(posters, Records.uri("https://example.com/posters/")))
        #expect(try matches(posters, Records.uri("https://example.com/posters/summer?x=1")))
        #expect(try !matches(posters, Records.uri("https://example.com/posters-old")))
        #expect(try !matches(posters, Records.uri("https://example.com/Posters")))
        #expect(try !matches(posters, Records.uri("https://example.com/")))
        #expect(try !matches(posters, Records.uri("https://example.com/?p=/posters")))
        let below = try HandlerFilter.uri(scheme: "https", host: "example.com", pathPrefix: "/posters/")
        #expect(try matches(below, Records.uri("https://example.com/posters/summer")))
        #expect(try !matches(below, Records.uri("https://example.com/posters")))
    }

    @Test func pathsAreNormalisedBeforeMatching() throws {
        let posters = try HandlerFilter.uri(scheme: "https", host: "example.com", pathPrefix: "/posters")
        #expect(try matches(posters, Records.uri("https://example.com/other/../posters/x")))
        #expect(try matches(posters, Records.uri("https://example.com/%70osters/x")))
        #expect(try matches(posters, Records.uri("https://example.com/./posters")))
        #expect(try !matches(posters, Records.uri("https://example.com/posters/../admin")))
        #expect(try !matches(posters, Records.uri("https://example.com/posters/%2E%2E/admin")))
        // A prefix of "/" is no prefix at all.
        #expect(try HandlerFilter.uri(scheme: "https", host: "example.com", pathPrefix: "/") == HandlerFilter.uri(scheme: "https", host: "example.com"))
    }

    @Test func malformedURIsMatchNoURIFilter() throws {
        let https = try HandlerFilter.uri(scheme: "https")
        for uri in ["https://example.com/a b", "https://example.com/\n", "https://exa\u{202E}mple.com/", "https://example.com/<x>",
                    "https://example.com:port/", "https://[::1/", "ht!tps://example.com", ":https://x", "https//example.com"] {
            #expect(try !matches(https, Records.uri(uri)), "\(uri)")
        }
    }

    @Test func mediaTypesExactAndWildcardIgnoringCaseAndParameters() throws {
        let vcard = try HandlerFilter.mediaType("Text/VCard")
        #expect(try matches(vcard, Records.contact("Ann Smith")))
        #expect(try matches(vcard, Records.media("TEXT/vcard; charset=utf-8", Array("BEGIN:VCARD\r\nEND:VCARD\r\n".utf8))))
        #expect(try !matches(vcard, Records.media("text/x-vcard", Array("BEGIN:VCARD\r\nEND:VCARD\r\n".utf8))))
        let images = try HandlerFilter.mediaType("image/*")
        #expect(try matches(images, Records.media("image/png")))
        #expect(try matches(images, Records.media("IMAGE/JPEG")))
        #expect(try !matches(images, Records.media("imagex/png")))
        #expect(try !matches(images, Records.media("text/plain")))
        #expect(try matches(HandlerFilter.mediaType("application/vnd.wfa.wsc"), Records.wifi("Café")))
        #expect(try !matches(images, Records.external("image:png")))
    }

    @Test func aTextRecordCountsAsTextPlain() throws {
        #expect(try matches(HandlerFilter.mediaType("text/plain"), Records.text("Hello")))
        #expect(try matches(HandlerFilter.mediaType("text/*"), Records.text("Hello")))
        #expect(try !matches(HandlerFilter.mediaType("text/html"), Records.text("Hello")))
    }

    @Test func externalTypesIgnoreCase() throws {
        let ticket = try HandlerFilter.externalType("Example.com:Ticket")
        #expect(try matches(ticket, Records.external("example.com:ticket")))
        #expect(try matches(ticket, Records.external("EXAMPLE.COM:TICKET")))
        #expect(try !matches(ticket, Records.external("example.com:tickets")))
        #expect(try !matches(ticket, Records.media("example.com:ticket")))
    }

    @Test func androidPackagesMatchExactly() throws {
        let concerts = try HandlerFilter.androidPackage("com.example.concerts")
        #expect(try matches(concerts, Records.uri("https://example.com"), Records.app("com.example.concerts")))
        #expect(try !matches(concerts, Records.app("com.example.Concerts")))
        #expect(try !matches(concerts, Records.app("com.example.concerts.pro")))
        #expect(try !matches(concerts, Records.external("com.example.concerts:x")))
    }

    @Test func specificityOrdersTheKinds() throws {
        let ordered = [
            try HandlerFilter.uri(scheme: "https"),
            try HandlerFilter.mediaType("image/*"),
            try HandlerFilter.uri(scheme: "https", host: "example.com"),
            try HandlerFilter.uri(scheme: "https", host: "example.com", pathPrefix: "/a"),
            try HandlerFilter.uri(scheme: "https", host: "example.com", pathPrefix: "/a/b"),
            try HandlerFilter.mediaType("image/png"),
            try HandlerFilter.androidPackage("com.example.app"),
        ].map(\.specificity)
        #expect(ordered == ordered.sorted())
        #expect(Set(ordered).count == ordered.count)
        #expect(try HandlerFilter.externalType("a.b:c").specificity == HandlerFilter.mediaType("text/vcard").specificity)
    }

    @Test func theDBusDictionaryNeedsExactlyOneKind() throws {
        #expect(try HandlerFilter(fields: ["uri-scheme": "https", "uri-host": "example.com", "uri-path-prefix": "/p"])
                == HandlerFilter.uri(scheme: "https", host: "example.com", pathPrefix: "/p"))
        #expect(try HandlerFilter(fields: ["media-type": "image/*"]) == HandlerFilter.mediaType("image/*"))
        #expect(try HandlerFilter(fields: ["external-type": "a.b:c"]) == HandlerFilter.externalType("a.b:c"))
        #expect(try HandlerFilter(fields: ["android-package": "a.b"]) == HandlerFilter.androidPackage("a.b"))
        #expect(throws: FilterError.noKind) { try HandlerFilter(fields: [:]) }
        #expect(throws: FilterError.severalKinds(["uri-scheme", "media-type"])) {
            try HandlerFilter(fields: ["media-type": "image/png", "uri-scheme": "https"])
        }
        #expect(throws: FilterError.unknownKey("uri-hostname")) { try HandlerFilter(fields: ["uri-scheme": "https", "uri-hostname": "x"]) }
        #expect(throws: FilterError.uriPartWithoutScheme("uri-host")) { try HandlerFilter(fields: ["media-type": "a/b", "uri-host": "x"]) }
        #expect(throws: FilterError.pathPrefixWithoutHost) { try HandlerFilter(fields: ["uri-scheme": "https", "uri-path-prefix": "/x"]) }
        #expect(throws: FilterError.empty("media-type")) { try HandlerFilter(fields: ["media-type": ""]) }
    }

    @Test func badValuesAreRefusedWithTheKeyNamed() throws {
        #expect(throws: FilterError.invalidScheme("https:")) { try HandlerFilter.uri(scheme: "https:") }
        #expect(throws: FilterError.invalidScheme("1http")) { try HandlerFilter.uri(scheme: "1http") }
        #expect(throws: FilterError.invalidScheme("ht tp")) { try HandlerFilter.uri(scheme: "ht tp") }
        #expect(throws: FilterError.tooLong(key: "uri-scheme", length: 65, maximum: 64)) {
            try HandlerFilter.uri(scheme: String(repeating: "a", count: 65))
        }
        for host in ["example.com:443", "user@example.com", "example.com/path", "exa mple.com", "https://example.com", "[::1", "a\u{202E}b"] {
            #expect(throws: FilterError.invalidHost(host)) { try HandlerFilter.uri(scheme: "https", host: host) }
        }
        for prefix in ["posters", "/a?b", "/a#b", "/a b", "/a\u{0}"] {
            #expect(throws: FilterError.invalidPathPrefix(prefix)) { try HandlerFilter.uri(scheme: "https", host: "example.com", pathPrefix: prefix) }
        }
        for type in ["text", "text/", "/vcard", "*/vcard", "text/vcard; charset=utf-8", "text/v card", "a/b/c"] {
            #expect(throws: FilterError.invalidMediaType(type)) { try HandlerFilter.mediaType(type) }
        }
        #expect(throws: FilterError.mediaTypeMatchesEverything) { try HandlerFilter.mediaType("*/*") }
        for type in ["example.com", ":ticket", "example.com:", "exa mple.com:t", "example.com:t y"] {
            #expect(throws: FilterError.invalidExternalType(type)) { try HandlerFilter.externalType(type) }
        }
        #expect(throws: FilterError.reservedExternalType) { try HandlerFilter.externalType("Android.com:PKG") }
        for package in ["com..example", ".com", "com.", "com.1example", "com.ex-ample", "com example"] {
            #expect(throws: FilterError.invalidAndroidPackage(package)) { try HandlerFilter.androidPackage(package) }
        }
        #expect(throws: FilterError.tooLong(key: "media-type", length: 300, maximum: 255)) {
            try HandlerFilter.mediaType("a/" + String(repeating: "b", count: 298))
        }
    }

    @Test func errorMessagesNameTheKeyAndShowValuesSafely() {
        #expect(FilterError.invalidMediaType("text").description
                == #"media-type "text" must be type/subtype or type/* without parameters (e.g. "text/vcard" or "image/*")"#)
        #expect(FilterError.severalKinds(["uri-scheme", "media-type"]).description.contains("uri-scheme and media-type"))
        let hostile = FilterError.invalidHost("a\u{1B}[2J\u{202E}" + String(repeating: "x", count: 500)).description
        #expect(!hostile.unicodeScalars.contains { DisplayText.isUnsafe($0) })
        #expect(hostile.count < 250)
    }
}
