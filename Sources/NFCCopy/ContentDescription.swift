import NDEF
import NDEFReport

/// What an object holds, described for a person: one line per thing ("Link: https://example.com/poster",
/// "Wi-Fi network: Café"), in the catalog's words. Every value read from the object goes through
/// ``DisplayText/sanitized(_:maxCharacters:)``: control characters, terminal escape sequences and
/// bidirectional overrides are shown as visible escapes, never passed to the terminal. Nothing is
/// opened or run.
public enum ContentDescription {
    /// The lines for a decoded message (the ``ReportValue`` of `MessageReport`); the catalog's
    /// `empty` sentence when it holds no record (`blankObject` when the object was never formatted).
    /// With `hyperlinks` (a terminal that shows them), a web link is also a clickable link (OSC 8).
    public static func lines(for report: ReportValue, copy: any ScanCopyCatalog, hyperlinks: Bool = false) -> [String] {
        let records = report["records"]?.arrayValue ?? []
        let items = records.map(ContentItem.items(in:))
        // A broken signature is said first, before the content it warns about.
        var lines = items.joined().filter { $0 == .changedAfterSigning }.map { line(for: $0, copy: copy, hyperlinks: hyperlinks) }
        for (record, items) in zip(records, items) {
            lines += items.filter { $0 != .changedAfterSigning }.map { line(for: $0, copy: copy, hyperlinks: hyperlinks) }
            if let check = record["secure_link"] { lines.append(secureLink(check, copy: copy)) }
        }
        if lines.isEmpty {
            let blank = report["object"]?["formatted"] == .bool(false)
            lines.append(!records.isEmpty ? copy.otherContent : blank ? copy.blankObject : copy.empty)
        }
        // The same thing twice (a link and a smart poster's link) is said once.
        var seen = Set<String>()
        return lines.filter { seen.insert($0).inserted }
    }

    /// One item in the catalog's words, its value made safe to show.
    static func line(for item: ContentItem, copy: any ScanCopyCatalog, hyperlinks: Bool = false) -> String {
        switch item {
        case .link(let uri):
            switch LinkText(uri) {
            case .incomplete(let shown): copy.incompleteLink(show(shown))
            case .whole(let shown): copy.link(hyperlinks ? hyperlink(uri, showing: show(shown)) : show(shown))
            }
        case .phoneNumber(let number): copy.phoneNumber(show(number))
        case .emailAddress(let address): copy.emailAddress(show(address))
        case .text(let text): copy.text(show(text))
        case .title(let title): copy.title(show(title))
        case .wifiNetwork(let name): copy.wifiNetwork(show(name))
        case .contact(let name): name.map { copy.contact(show($0)) } ?? copy.contactWithoutName
        case .app(let package): copy.app(show(package))
        case .bluetoothDevice(let name): name.map { copy.bluetoothDevice(show($0)) } ?? copy.bluetoothDeviceWithoutName
        case .deviceToConnect: copy.deviceToConnect
        case .signature: copy.signature
        case .signedBy(let signer): copy.signedBy(signer.map(show))
        case .changedAfterSigning: copy.changedAfterSigning
        case .other: copy.otherContent
        case .unreadable: copy.unreadableRecord
        }
    }

    private static func show(_ text: String) -> String { DisplayText.sanitized(text) }

    /// What a secure link's check (its `secure_link`) says, after the link.
    static func secureLink(_ check: ReportValue, copy: any ScanCopyCatalog) -> String {
        guard check["verified"] == .bool(true) else { return copy.secureLinkFailed }
        return check["replayed"] == .bool(true) ? copy.secureLinkReplayed : copy.secureLinkVerified
    }

    /// `shown` (already display-safe) as a terminal hyperlink to `uri` (OSC 8), for `http` and
    /// `https` links only, and only when the link is printable ASCII: nothing from the object can
    /// end the escape sequence early or start another. Anything else: `shown` as it is.
    static func hyperlink(_ uri: String, showing shown: String) -> String {
        guard let scheme = URIScheme.of(uri), ["http", "https"].contains(scheme.lowercased()),
              uri.utf8.count <= 2048, uri.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return shown }
        return "\u{1B}]8;;\(uri)\u{1B}\\\(shown)\u{1B}]8;;\u{1B}\\"
    }
}
