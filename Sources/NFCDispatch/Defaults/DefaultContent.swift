import NDEFReport

/// What the person's own default apps can take from an object no app asked for: a web link for
/// the browser, another link for the app chosen for its scheme, a contact card, event or picture
/// for the app chosen for its type, a Wi-Fi network for NetworkManager.
public enum DefaultContent: Hashable, Sendable {
    case webLink(WebLink)
    case schemeLink(SchemeLink)
    case mediaFile(MediaFile)
    case wifiNetwork(WiFiCredentials)

    /// The MIME type whose default app (mimeapps.list) takes it; nil for a web link (the browser,
    /// through the portal or xdg-open, as before) and a network (NetworkManager).
    public var mimeType: String? {
        switch self {
        case .webLink, .wifiNetwork: nil
        case .schemeLink(let link): link.mimeType
        case .mediaFile(let file): file.mimeType
        }
    }

    /// Index into the report's top-level `records`.
    public var recordIndex: Int {
        switch self {
        case .webLink(let link): link.recordIndex
        case .schemeLink(let link): link.recordIndex
        case .mediaFile(let file): file.recordIndex
        case .wifiNetwork(let network): network.recordIndex
        }
    }

    /// Everything in `report` a default app could take, in record order: the object's author put
    /// first what matters most. Records whose payload did not decode (`error`) offer nothing.
    public static func candidates(in report: ReportValue) -> [DefaultContent] {
        (report["records"]?.arrayValue ?? []).enumerated().compactMap { index, record in
            guard record["error"] == nil else { return nil }
            switch record["kind"]?.stringValue {
            case "uri", "absolute-uri", "smart-poster":
                guard let uri = record["uri"]?.stringValue else { return nil }
                if let link = WebLink(uri, recordIndex: index) { return .webLink(link) }
                return SchemeLink(uri, recordIndex: index).map(DefaultContent.schemeLink)
            case "wifi":
                return WiFiCredentials(record: record, recordIndex: index).map(DefaultContent.wifiNetwork)
            default:
                return MediaFile(record: record, recordIndex: index).map(DefaultContent.mediaFile)
            }
        }
    }

    /// The first candidate something on this computer takes: a default app for its type
    /// (`hasDefaultApp`), the browser for a web link, NetworkManager (`canJoinNetworks`) for a
    /// network. Nil: nothing to offer (the caller logs it).
    public static func choice(in report: ReportValue, hasDefaultApp: (String) -> Bool,
                              canJoinNetworks: Bool) -> DefaultContent? {
        candidates(in: report).first { candidate in
            switch candidate {
            case .webLink: true
            case .wifiNetwork: canJoinNetworks
            case .schemeLink, .mediaFile: candidate.mimeType.map(hasDefaultApp) ?? false
            }
        }
    }
}
