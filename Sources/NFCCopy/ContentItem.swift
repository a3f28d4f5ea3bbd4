import NDEFReport

/// One thing a record holds, as a person would name it, with its value exactly as read (unsafe for
/// display: pass values through ``DisplayText/sanitized(_:maxCharacters:)`` before showing them).
///
/// The one classification of content shared by every face that describes an object: the lines of
/// ``ContentDescription`` and the daemon's notifications, so both name the same things.
public enum ContentItem: Hashable, Sendable {
    /// A link that is not a phone number or email address (web links and any other scheme), whole.
    case link(String)
    /// A `tel:` link: the number after the scheme.
    case phoneNumber(String)
    /// A `mailto:` link: the address, without the scheme or any `?subject=…`.
    case emailAddress(String)
    case text(String)
    /// A smart poster's title (in the first language it lists).
    case title(String)
    /// The network name: the SSID as text, or its hex when it is not UTF-8, or `?` when absent.
    case wifiNetwork(String)
    /// A vCard; its formatted name (`FN`) when it has one.
    case contact(name: String?)
    /// An Android application record: the app's package name.
    case app(package: String)
    case bluetoothDevice(name: String?)
    /// A handover: a device offering a connection.
    case deviceToConnect
    /// A signature not checked, or whose signer is not trusted here.
    case signature
    /// A signature that verifies under a certificate trusted here, and who signed (nil: unnamed).
    case signedBy(String?)
    /// A signature that does not verify: what it covers was changed after it was signed.
    case changedAfterSigning
    /// A record this program understood structurally but can't describe (an unknown type).
    case other
    /// A record whose payload does not fit its type (its report has an `error`): said, so a
    /// person knows the object holds more than the rest shows.
    case unreadable

    /// What `record` (one record of a `MessageReport` tree) holds, in the order a person reads it;
    /// empty for records that hold nothing worth saying (empty records, handover internals).
    public static func items(in record: ReportValue) -> [ContentItem] {
        if record["error"] != nil, record["kind"] == nil { return [.unreadable] }
        switch record["kind"]?.stringValue {
        case "uri", "absolute-uri":
            return record["uri"]?.stringValue.map { [item(forURI: $0)] } ?? []
        case "text":
            return record["text"]?.stringValue.map { [.text($0)] } ?? []
        case "smart-poster":
            // The title in the first language listed, then what it points to.
            var items: [ContentItem] = []
            if let title = record["titles"]?.arrayValue?.first?["text"]?.stringValue { items.append(.title(title)) }
            if let uri = record["uri"]?.stringValue { items.append(item(forURI: uri)) }
            return items
        case "wifi":
            return [.wifiNetwork(record["ssid"]?.stringValue ?? record["ssid_hex"]?.stringValue ?? "?")]
        case "vcard":
            return [.contact(name: record["vcard"]?.stringValue.flatMap(vcardName))]
        case "android-app":
            return record["package"]?.stringValue.map { [.app(package: $0)] } ?? []
        case "bluetooth", "bluetooth-le":
            return [.bluetoothDevice(name: record["local_name"]?.stringValue)]
        case "handover-select", "handover-request", "handover-mediation", "handover-initiate":
            return [.deviceToConnect]
        case "signature":
            switch record["signed"]?.stringValue {
            case "verified": return [.signedBy(record["signed_by"]?.stringValue)]
            case "failed": return [.changedAfterSigning]
            default: return [.signature]
            }
        case "device-information", "alternative-carrier", "collision-resolution", "handover-error", "handover-carrier":
            return []
        default:
            if record["tnf"]?.stringValue == "empty" { return [] }
            return [.other]
        }
    }

    /// A URI as the thing it names: phone numbers and email addresses apart from other links.
    public static func item(forURI uri: String) -> ContentItem {
        let lower = uri.lowercased()
        if lower.hasPrefix("tel:") { return .phoneNumber(String(uri.dropFirst(4))) }
        if lower.hasPrefix("mailto:") {
            let address = uri.dropFirst(7).split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return .emailAddress(String(address))
        }
        return .link(uri)
    }

    /// The `FN` (formatted name) of a vCard, if any.
    public static func vcardName(_ card: String) -> String? {
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
