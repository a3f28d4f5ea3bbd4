@testable import NFCDispatch
import Testing

/// The URI parts matching relies on, from input anyone can write on an object.
@Suite struct ParsedURITests {
    @Test func partsAreSplitAndNormalised() throws {
        let uri = try #require(ParsedURI("HTTPS://User:Pw@WWW.Example.COM:8443/a/./b/../%7Ec%2f%41?q=/x#/y"))
        #expect(uri.scheme == "https")
        #expect(uri.host == "www.example.com")
        #expect(uri.hasUserInfo)
        #expect(uri.path == "/a/~c%2FA")
        #expect(ParsedURI("https://example.com")?.path == "/")
        #expect(ParsedURI("https://example.com?x")?.path == "/")
        #expect(ParsedURI("mailto:ann@example.com?subject=x")?.host == nil)
        #expect(ParsedURI("mailto:ann@example.com?subject=x")?.path == "ann@example.com")
        #expect(ParsedURI("file:///etc/passwd")?.host == "")
        #expect(ParsedURI("http://[2001:DB8::1]:80/")?.host == "[2001:db8::1]")
        #expect(ParsedURI("http://example.com:/")?.host == "example.com")
    }

    @Test func dotSegmentsNeverClimbAboveTheRoot() {
        #expect(ParsedURI.removingDotSegments("/../../etc/passwd") == "/etc/passwd")
        #expect(ParsedURI.removingDotSegments("/a/b/..") == "/a/")
        #expect(ParsedURI.removingDotSegments("/a/.") == "/a/")
        #expect(ParsedURI.removingDotSegments("/a//b/../c") == "/a//c")
        #expect(ParsedURI.removingDotSegments("/") == "/")
        #expect(ParsedURI.removingDotSegments("/..") == "/")
    }

    @Test func brokenEscapesStayAsTheyAre() {
        #expect(ParsedURI.decodingUnreserved("%") == "%")
        #expect(ParsedURI.decodingUnreserved("%4") == "%4")
        #expect(ParsedURI.decodingUnreserved("%zz%4g") == "%zz%4g")
        #expect(ParsedURI.decodingUnreserved("%ff%00%2e") == "%FF%00.")
    }

    @Test func notURIsAreRefused() {
        for text in ["", ":", "a", "//example.com", "1a:b", "a b:c", "é:x", "https://exa mple.com", "https://x/\u{7F}",
                     "https://x:80a/", "https://[::1", "https://x/{}", String(repeating: "a", count: 65) + ":x"] {
            #expect(ParsedURI(text) == nil, "\(text)")
        }
    }

    /// Random strings from the characters parsers trip on: never a trap, and every result normalised.
    @Test func hostileInputNeverTraps() {
        let alphabet: [String] = [":", "/", "//", "?", "#", "@", "[", "]", "%", "%2", "%2e", "%2E%2E", ".", "..", "a", "Z", "0",
                                  "http", "HTTPS", "é", "👩‍👩‍👧", "\u{202E}", "\u{0}", "\n", " ", "\u{301}", "~", "-", "+", "\u{FFFD}"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(alphabet.count))
        }
        for _ in 0..<20_000 {
            let text = (0..<(next() + 1)).map { _ in alphabet[next()] }.joined()
            guard let uri = ParsedURI(text) else { continue }
            #expect(uri.scheme == uri.scheme.lowercased())
            #expect(uri.host.map { $0 == $0.lowercased() } ?? true)
            if uri.path.hasPrefix("/") {
                let segments = uri.path.split(separator: "/", omittingEmptySubsequences: false)
                #expect(!segments.contains(".") && !segments.contains(".."), "\(text) → \(uri.path)")
            }
        }
    }

    @Test func longInputIsLinear() {
        let long = "https://example.com/" + String(repeating: "a/../%41/./", count: 20_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(ParsedURI(long)?.path.hasPrefix("/") == true) }
        #expect(elapsed < .seconds(5))
    }
}
