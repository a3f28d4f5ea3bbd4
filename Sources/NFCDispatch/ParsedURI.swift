import NDEF
import NDEFReport

/// The parts of a URI that decide where an object goes: scheme, host and path, normalised so that
/// spellings which mean the same resource compare equal.
///
/// URIs come from objects, so anything is possible: the parser never traps, runs in linear time,
/// and refuses (nil) anything that is not a well-formed URI rather than guessing. Well formed here:
/// a scheme (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`), then `:`; no whitespace,
/// control or bidirectional formatting characters, none of the ASCII characters RFC 3986 never
/// allows (`<` `>` `"` `{` `}` `|` `\` `^` `` ` ``); an authority, when present, with a numeric
/// port or none. Non-ASCII letters (internationalised links) are allowed.
struct ParsedURI: Hashable, Sendable {
    /// Lowercased.
    let scheme: String
    /// Lowercased, without user information or port; IPv6 literals keep their brackets. Nil when
    /// the URI has no authority (`mailto:`, `tel:`); may be empty (`file:///etc`).
    let host: String?
    /// Whether the authority carries user information (`user@host`), which can disguise the host.
    let hasUserInfo: Bool
    /// The path with dot segments removed and percent-escapes of unreserved characters decoded
    /// (RFC 3986 §6.2.2); `/` when a URI with an authority has an empty path. Query and fragment
    /// are not part of it.
    let path: String

    /// Schemes that run code (`javascript:`, `vbscript:`), show local or embedded content as if it
    /// were a page (`file:`, `data:`, `blob:`, `view-source:`, `about:`), reach into a browser's
    /// or an office suite's internals, or mount remote shares (`smb:`, `nfs:`): opening any of them
    /// on an object's word is how drive-by attacks start (the `ms-msdt:` and `search-ms:` ones did).
    /// A link with one of them is never opened for the person, never offered to a default app and
    /// never delivered to any app: no filter may ask for them (``HandlerFilter``), and a record
    /// holding one matches no filter (``MatchableRecord``).
    static let unsafeSchemes: Set<String> = [
        "javascript", "vbscript", "livescript", "jscript", "jar",
        "file", "data", "blob", "filesystem", "view-source", "about", "resource",
        "chrome", "chrome-extension", "moz-extension", "ms-msdt", "search-ms", "search", "ms-officecmd",
        "smb", "cifs", "nfs", "afp", "dav", "davs", "sftp", "ftp", "ssh",
    ]

    init?(_ text: String) {
        var scalars = text.unicodeScalars[...]
        for scalar in scalars where Self.isForbidden(scalar) { return nil }

        guard let colon = scalars.firstIndex(of: ":") else { return nil }
        let scheme = String(scalars[..<colon])
        guard Self.isValidScheme(scheme) else { return nil }
        self.scheme = scheme.lowercased()
        scalars = scalars[scalars.index(after: colon)...]

        var host: String?
        var hasUserInfo = false
        if scalars.starts(with: "//".unicodeScalars) {
            scalars = scalars.dropFirst(2)
            let end = scalars.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? scalars.endIndex
            var authority = scalars[..<end]
            scalars = scalars[end...]
            if let at = authority.lastIndex(of: "@") {
                hasUserInfo = true
                authority = authority[authority.index(after: at)...]
            }
            guard let hostPart = Self.host(of: authority) else { return nil }
            host = hostPart.lowercased()
        }
        self.host = host
        self.hasUserInfo = hasUserInfo

        let pathEnd = scalars.firstIndex { $0 == "?" || $0 == "#" } ?? scalars.endIndex
        var path = Self.decodingUnreserved(String(scalars[..<pathEnd]))
        if host != nil && path.isEmpty { path = "/" }
        self.path = path.utf8.first == UInt8(ascii: "/") ? Self.removingDotSegments(path) : path
    }

    /// Characters that make a string not a URI (see the type's documentation).
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        if DisplayText.isUnsafe(scalar) || scalar.properties.isWhitespace { return true }
        switch scalar {
        case "<", ">", "\"", "{", "}", "|", "\\", "^", "`": return true
        default: return false
        }
    }

    /// RFC 3986 §3.1, with a length bound.
    static func isValidScheme(_ scheme: String) -> Bool { URIScheme.isValid(scheme) }

    /// The host of `host[:port]`, or nil when the port is not a number or an IPv6 literal is unclosed.
    private static func host(of authority: Substring.UnicodeScalarView) -> String? {
        var rest = authority
        var host: Substring.UnicodeScalarView
        if rest.first == "[" {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[...close]
            rest = rest[rest.index(after: close)...]
        } else {
            let colon = rest.firstIndex(of: ":") ?? rest.endIndex
            host = rest[..<colon]
            rest = rest[colon...]
        }
        if let first = rest.first {
            guard first == ":", rest.dropFirst().allSatisfy(isASCIIDigit) else { return nil }
        }
        return String(host)
    }

    /// Decodes `%XX` where it encodes an unreserved character (letters, digits, `-._~`) and
    /// uppercases the hex digits of every other escape (RFC 3986 §6.2.2.1–2): "/%7Eann" is "/~ann".
    static func decodingUnreserved(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let high = Hex.digitValue(bytes[i + 1]), let low = Hex.digitValue(bytes[i + 2]) {
                let byte = high << 4 | low
                if isUnreserved(byte) {
                    out.append(byte)
                } else {
                    out += [UInt8(ascii: "%"), uppercaseHex(bytes[i + 1]), uppercaseHex(bytes[i + 2])]
                }
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// RFC 3986 §5.2.4 for an absolute path: `.` and `..` segments resolved, never above the root.
    /// Split on `/` bytes, as a server splits: a combining mark after a `/` does not hide it.
    static func removingDotSegments(_ path: String) -> String {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        let segments = path.utf8.split(separator: slash, omittingEmptySubsequences: false).dropFirst()
        var output: [Substring.UTF8View] = []
        for (offset, segment) in segments.enumerated() {
            let isLast = offset == segments.count - 1
            if segment.elementsEqual([dot]) {
                if isLast { output.append(Substring().utf8) }
            } else if segment.elementsEqual([dot, dot]) {
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append(Substring().utf8) }
            } else {
                output.append(segment)
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for segment in output {
            bytes.append(slash)
            bytes += segment
        }
        if bytes.isEmpty { bytes.append(slash) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isASCIIDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }


    private static func uppercaseHex(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) ? byte - 0x20 : byte
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
