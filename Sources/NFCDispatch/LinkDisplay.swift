import NDEFReport
import NFCCopy

/// A link shortened for a notification without hiding where it leads.
enum LinkDisplay {
    /// Fewest characters a shortened link keeps after its scheme (it may then exceed a budget).
    static let minimumCharacters = 16

    /// `link`'s text (``LinkText``: its scheme kept and user information dropped, as the command
    /// line shows it), made safe, in at most `maxCharacters` characters. The scheme and the host
    /// tell a person whether it opens, whether safely, and which site it is, so the path is cut
    /// first; a host too long to fit loses its start, never its end
    /// ("https://…login.bank.example.evil.example"), since the end names who owns it.
    static func shortened(_ link: LinkText, maxCharacters: Int) -> String {
        let shown = NotificationMarkup.value(link.shown, maxCharacters: .max)[...]
        // Sanitizing leaves a scheme as it was (letters, digits, `+-.`); without one, the host is first.
        let host = LinkText.authority(in: shown)
            ?? shown.startIndex..<(shown.firstIndex(where: LinkText.isAuthorityEnd) ?? shown.endIndex)
        let scheme = shown[..<host.lowerBound]
        let budget = max(maxCharacters, scheme.count + minimumCharacters)
        guard shown.count > budget else { return String(shown) }
        if shown[..<host.upperBound].count <= budget - 1 { return String(shown.prefix(budget - 1)) + "…" }
        return scheme + "…" + String(shown[host].suffix(budget - 1 - scheme.count))
    }
}
