import NDEF

/// A link as a person reads it, wherever it is shown (the command line's "Link: …" and the
/// notifications alike): in full, with its scheme, since `https://`, `http://` or none at all is
/// what tells a working link, an unprotected one and one that won't open apart; and without the
/// user information that would name the wrong site ("https://bank.example@evil.example" reads as
/// bank.example), so the host it goes to comes first. Neither form is display-safe yet: the
/// caller sanitizes (and may shorten) it where it is shown.
public enum LinkText: Equatable, Sendable {
    /// A link with a scheme (``URIScheme``), as it should be shown.
    case whole(String)
    /// A link without a scheme ("example.com/menu"), as the object holds it: nothing opens it,
    /// and what shows it must say so.
    case incomplete(String)

    public init(_ uri: String) {
        guard URIScheme.of(uri) != nil else {
            self = .incomplete(uri)
            return
        }
        guard let authority = Self.authority(in: Substring(uri)), let at = uri[authority].lastIndex(of: "@") else {
            self = .whole(uri)
            return
        }
        self = .whole(String(uri[..<authority.lowerBound] + uri[uri.index(after: at)...]))
    }

    /// The text shown, either way.
    public var shown: String {
        switch self {
        case .whole(let text), .incomplete(let text): text
        }
    }

    /// Where `text`'s authority (user information, host, port) is: after `scheme://`, up to its
    /// path, query or fragment; nil when it has none ("mailto:…", or no scheme at all).
    public static func authority(in text: Substring) -> Range<Substring.Index>? {
        guard let scheme = URIScheme.of(text), text[scheme.endIndex...].hasPrefix("://") else { return nil }
        let start = text.index(scheme.endIndex, offsetBy: 3)
        return start..<(text[start...].firstIndex(where: isAuthorityEnd) ?? text.endIndex)
    }

    /// The path, query or fragment begins here.
    public static func isAuthorityEnd(_ character: Character) -> Bool { character == "/" || character == "?" || character == "#" }
}
