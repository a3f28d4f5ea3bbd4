import NDEFReport

/// What an object holds, described for a person: one line per thing ("Link: example.com/poster",
/// "Wi-Fi network: Café"), in the catalog's words. Every value read from the object goes through
/// ``DisplayText/sanitized(_:maxCharacters:)``: control characters, terminal escape sequences and
/// bidirectional overrides are shown as visible escapes, never passed to the terminal. Nothing is
/// opened or run.
public enum ContentDescription {
    /// The lines for a decoded message (the ``ReportValue`` of `MessageReport`); the catalog's
    /// `empty` sentence when it holds no record.
    public static func lines(for report: ReportValue, copy: any ScanCopyCatalog) -> [String] {
        let records = report["records"]?.arrayValue ?? []
        var lines: [String] = []
        for record in records { lines += describe(record, copy: copy) }
        if lines.isEmpty { lines.append(records.isEmpty ? copy.empty : copy.otherContent) }
        // The same thing twice (a link and a smart poster's link) is said once.
        var seen = Set<String>()
        return lines.filter { seen.insert($0).inserted }
    }

    static func describe(_ record: ReportValue, copy: any ScanCopyCatalog) -> [String] {
        switch record["kind"]?.stringValue {
        case "uri", "absolute-uri":
            return record["uri"]?.stringValue.map { [uri($0, copy: copy)] } ?? []
        case "text":
            return record["text"]?.stringValue.map { [copy.text(show($0))] } ?? []
        case "smart-poster":
            // The title in the first language listed, then what it points to.
            var lines: [String] = []
            if let title = record["titles"]?.arrayValue?.first?["text"]?.stringValue { lines.append(copy.title(show(title))) }
            if let link = record["uri"]?.stringValue { lines.append(uri(link, copy: copy)) }
            return lines
        case "wifi":
            if let ssid = record["ssid"]?.stringValue { return [copy.wifiNetwork(show(ssid))] }
            return [copy.wifiNetwork(show(record["ssid_hex"]?.stringValue ?? "?"))]
        case "vcard":
            if let name = record["vcard"]?.stringValue.flatMap(vcardName) { return [copy.contact(show(name))] }
            return [copy.contactWithoutName]
        case "android-app":
            return record["package"]?.stringValue.map { [copy.app(show($0))] } ?? []
        case "bluetooth", "bluetooth-le":
            if let name = record["local_name"]?.stringValue { return [copy.bluetoothDevice(show(name))] }
            return [copy.bluetoothDeviceWithoutName]
        case "handover-select", "handover-request", "handover-mediation", "handover-initiate":
            return [copy.deviceToConnect]
        case "signature":
            return [copy.signature]
        case "device-information", "alternative-carrier", "collision-resolution", "handover-error", "handover-carrier":
            return []
        default:
            if record["tnf"]?.stringValue == "empty" { return [] }
            return [copy.otherContent]
        }
    }

    /// A link as a person reads it: web links without `https://` and `www.`; phone numbers and
    /// email addresses named as such.
    static func uri(_ uri: String, copy: any ScanCopyCatalog) -> String {
        let lower = uri.lowercased()
        for scheme in ["tel:"] where lower.hasPrefix(scheme) { return copy.phoneNumber(show(String(uri.dropFirst(scheme.count)))) }
        for scheme in ["mailto:"] where lower.hasPrefix(scheme) {
            let address = uri.dropFirst(scheme.count).split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return copy.emailAddress(show(String(address)))
        }
        var shown = Substring(uri)
        for prefix in ["https://", "http://"] where lower.hasPrefix(prefix) {
            shown = shown.dropFirst(prefix.count)
            if shown.lowercased().hasPrefix("www.") { shown = shown.dropFirst(4) }
            if shown.hasSuffix("/"), shown.dropLast().firstIndex(of: "/") == nil { shown = shown.dropLast() }
        }
        return copy.link(show(String(shown)))
    }

    private static func show(_ text: String) -> String { DisplayText.sanitized(text) }

    /// The `FN` (formatted name) of a vCard, if any.
    static func vcardName(_ card: String) -> String? {
        for line in card.split(whereSeparator: \.isNewline) {
            let upper = line.uppercased()
            if upper.hasPrefix("FN:") || upper.hasPrefix("FN;") {
                let name = line.split(separator: ":", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
                return name.isEmpty ? nil : name
            }
        }
        return nil
    }
}
