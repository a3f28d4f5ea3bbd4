import NDEFReport

/// What an object holds, described for a person: one line per thing ("Link: example.com/poster",
/// "Wi-Fi network: Café"), in the catalog's words. Every value read from the object goes through
/// ``DisplayText/sanitized(_:maxCharacters:)``: control characters, terminal escape sequences and
/// bidirectional overrides are shown as visible escapes, never passed to the terminal. Nothing is
/// opened or run.
public enum ContentDescription {
    /// The lines for a decoded message (the ``ReportValue`` of `MessageReport`); the catalog's
    /// `empty` sentence when it holds no record (`blankObject` when the object was never formatted).
    public static func lines(for report: ReportValue, copy: any ScanCopyCatalog) -> [String] {
        let records = report["records"]?.arrayValue ?? []
        var lines: [String] = []
        for record in records { lines += ContentItem.items(in: record).map { line(for: $0, copy: copy) } }
        if lines.isEmpty {
            let blank = report["object"]?["formatted"] == .bool(false)
            lines.append(!records.isEmpty ? copy.otherContent : blank ? copy.blankObject : copy.empty)
        }
        // The same thing twice (a link and a smart poster's link) is said once.
        var seen = Set<String>()
        return lines.filter { seen.insert($0).inserted }
    }

    /// One item in the catalog's words, its value made safe to show.
    static func line(for item: ContentItem, copy: any ScanCopyCatalog) -> String {
        switch item {
        case .link(let uri): copy.link(show(webLinkDisplayForm(uri)))
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
        case .other: copy.otherContent
        case .unreadable: copy.unreadableRecord
        }
    }

    /// A link as a person reads it: a web link without `https://`/`http://`, user information and
    /// `www.`, and without the `/` of a bare site ("example.com"); any other URI unchanged. Not yet display-safe: the
    /// caller sanitizes it (and shortens it to fit where it is shown).
    public static func webLinkDisplayForm(_ uri: String) -> String {
        let lower = uri.lowercased()
        var shown = Substring(uri)
        for prefix in ["https://", "http://"] where lower.hasPrefix(prefix) {
            shown = shown.dropFirst(prefix.count)
            // User information first would name the wrong site ("bank.example@evil.example"
            // reads as bank.example): the real host comes first, the rest is not shown.
            let authorityEnd = shown.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? shown.endIndex
            if let at = shown[..<authorityEnd].lastIndex(of: "@") { shown = shown[shown.index(after: at)...] }
            if shown.lowercased().hasPrefix("www.") { shown = shown.dropFirst(4) }
            if shown.hasSuffix("/"), shown.dropLast().firstIndex(of: "/") == nil { shown = shown.dropLast() }
        }
        return String(shown)
    }

    private static func show(_ text: String) -> String { DisplayText.sanitized(text) }
}
