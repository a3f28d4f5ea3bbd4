/// A URI's scheme (RFC 3986 §3.1: a letter, then letters, digits, `+`, `-`, `.`; then `:`), the
/// one test of "is this a whole link": what the dispatcher parses, what a write accepts and what a
/// description calls a link all agree on it. `example.com/menu` has none: nothing opens it.
public enum URIScheme {
    /// Longest scheme accepted: registered schemes are far shorter.
    public static let maximumLength = 64

    /// The scheme of `uri` as written (not lowercased), or nil when it has none.
    public static func of(_ uri: some StringProtocol) -> Substring? {
        let text = Substring(uri)
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        return isValid(scheme) ? scheme : nil
    }

    public static func isValid(_ scheme: some StringProtocol) -> Bool {
        guard let first = scheme.unicodeScalars.first, isLetter(first), scheme.utf8.count <= maximumLength else { return false }
        return scheme.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "." }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
}
