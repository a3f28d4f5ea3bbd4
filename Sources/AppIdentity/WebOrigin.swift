/// A web page's origin, the site asking when a page uses Web NFC through nfcscan's browser
/// extension (issue 22): what the sheet names, and what the person's answer is kept under.
///
/// Only an origin as browsers serialize it (the HTML standard's ASCII serialization) is taken, so
/// one site has one spelling and one grant: a lowercase scheme, host and optional port, nothing
/// after them. Only origins a page can use Web NFC from qualify: `https:`, and `http:` on the
/// loopback names browsers treat as secure contexts (`localhost`, `127.0.0.1`, `[::1]`).
public struct WebOrigin: Sendable, Hashable, CustomStringConvertible {
    public let scheme: String
    /// Lowercase ASCII: a domain (IDNA A-labels: `xn--…`, as browsers serialize it), an IPv4
    /// address, or an IPv6 address in brackets.
    public let host: String
    /// Absent when the scheme's default (browsers leave it out then).
    public let port: UInt16?

    /// A host name is at most 253 bytes; a bracketed IPv6 address is shorter.
    public static let maximumHostLength = 253
    static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    /// nil: not an origin's serialization, or not one Web NFC can be used from.
    public init?(_ text: String) {
        let scheme: String, rest: Substring
        if text.hasPrefix("https://") {
            (scheme, rest) = ("https", text.dropFirst(8))
        } else if text.hasPrefix("http://") {
            (scheme, rest) = ("http", text.dropFirst(7))
        } else {
            return nil
        }
        var host = rest, port: UInt16?
        // A port follows the last colon outside an IPv6 address's brackets.
        if let colon = rest.lastIndex(of: ":"), !rest[colon...].contains("]") {
            host = rest[..<colon]
            let digits = rest[rest.index(after: colon)...]
            guard !digits.isEmpty, digits.count <= 5, digits.first != "0", digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  let number = UInt16(digits), number != (scheme == "https" ? 443 : 80) else { return nil }
            port = number
        }
        guard !host.isEmpty, host.utf8.count <= Self.maximumHostLength, Self.isSerializedHost(host) else { return nil }
        guard scheme == "https" || Self.loopbackHosts.contains(String(host)) else { return nil }
        self.scheme = scheme
        self.host = String(host)
        self.port = port
    }

    /// `https://example.com`, `http://localhost:8080`.
    public var serialized: String { "\(scheme)://\(hostAndPort)" }

    /// What a person reads as the site's name: the host, and the port when it is not the
    /// default (`example.com`, `localhost:8080`). The scheme is left out: only secure origins
    /// qualify, and a page on another port of the same host is another site.
    public var displayName: String { hostAndPort }

    public var description: String { serialized }

    private var hostAndPort: String { port.map { "\(host):\($0)" } ?? host }

    /// A domain of LDH labels (letters, digits, hyphens, none empty, none starting or ending
    /// with a hyphen), lowercase; an IPv4 address falls under it. Or `[` hex digits, colons and
    /// dots `]`. Anything else (uppercase, an underscore, a user name, a path, a percent escape,
    /// a control character) is not how a browser serializes an origin.
    static func isSerializedHost(_ host: Substring) -> Bool {
        let bytes = Array(host.utf8)
        if bytes.first == UInt8(ascii: "[") {
            guard bytes.count > 2, bytes.last == UInt8(ascii: "]") else { return false }
            return bytes.dropFirst().dropLast().allSatisfy { isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
        }
        return host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            let label = Array(label.utf8)
            guard !label.isEmpty, label.count <= 63, label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-") else { return false }
            return label.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") }
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
    }
}
