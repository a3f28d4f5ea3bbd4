import NDEFReport
import NFCCopy

/// A link shortened for a notification without hiding where it leads.
enum LinkDisplay {
    /// Fewest characters a shortened link keeps (it may then exceed a budget).
    static let minimumCharacters = 16

    /// The display form of `uri` (``ContentDescription/webLinkDisplayForm(_:)``), made safe, in at
    /// most `maxCharacters` characters. The host is what tells a person which site this is, so the
    /// path is cut first; a host too long to fit loses its start, never its end
    /// ("…login.bank.example.evil.example"), since the end names who owns it.
    static func shortened(_ uri: String, maxCharacters: Int) -> String {
        let shown = NotificationMarkup.value(ContentDescription.webLinkDisplayForm(uri), maxCharacters: .max)
        let budget = max(maxCharacters, minimumCharacters)
        guard shown.count > budget else { return shown }
        let hostEnd = shown.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? shown.endIndex
        let host = shown[..<hostEnd]
        if host.count <= budget - 1 { return String(shown.prefix(budget - 1)) + "…" }
        return "…" + String(host.suffix(budget - 1))
    }
}
