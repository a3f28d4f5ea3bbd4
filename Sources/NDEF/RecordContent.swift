/// A record's payload understood as its type says: the typed view the rest of nfcscan works with.
public enum RecordContent: Hashable, Sendable {
    case text(TextRecord)
    case uri(URIRecord)
    case smartPoster(SmartPoster)
    case handover(Handover)
    case handoverCarrier(HandoverCarrier)
    case alternativeCarrier(AlternativeCarrier)
    case collisionResolution(UInt16)
    case handoverError(HandoverError)
    case signature(SignatureRecord)
    case deviceInformation(DeviceInformation)
    /// `text/vcard` or `text/x-vcard`: the card's text, unchanged.
    case vcard(String)
    case wifi(WiFiSimpleConfig)
    case bluetooth(BluetoothOOB)
    /// Any other media type, lowercased.
    case media(mimeType: String)
    /// TNF absolute URI: the type is the URI.
    case absoluteURI(String)
    /// An Android Application Record (`android.com:pkg`): the app's package name.
    case androidApplication(package: String)
    /// Any other external type, lowercased.
    case external(domainType: String)

    /// The stable `kind` name used in JSON.
    public var kind: String {
        switch self {
        case .text: "text"
        case .uri: "uri"
        case .smartPoster: "smart-poster"
        case .handover(let handover): handover.kind.name
        case .handoverCarrier: "handover-carrier"
        case .alternativeCarrier: "alternative-carrier"
        case .collisionResolution: "collision-resolution"
        case .handoverError: "handover-error"
        case .signature: "signature"
        case .deviceInformation: "device-information"
        case .vcard: "vcard"
        case .wifi: "wifi"
        case .bluetooth(let oob): oob.transport == .classic ? "bluetooth" : "bluetooth-le"
        case .media: "media"
        case .absoluteURI: "absolute-uri"
        case .androidApplication: "android-app"
        case .external: "external"
        }
    }
}

/// Where a record sits decides how its type reads: `ac` means Alternative Carrier only inside a
/// handover record, `act` means action only inside a smart poster.
public enum RecordContext: Hashable, Sendable {
    case message
    case handover
    case smartPoster
}

extension NDEFRecord {
    /// The typed view of this record, or nil for types the codec does not model (empty, unknown,
    /// and unrecognised well-known types). Errors carry offsets from the start of the payload.
    ///
    /// `depth` counts the records this one is nested in; decoding deeper than
    /// ``NestedMessage/depthLimit`` fails, so hostile input cannot exhaust the stack.
    public func content(in context: RecordContext = .message, depth: Int = 0) throws(NDEFError) -> RecordContent? {
        switch tnf {
        case .wellKnown:
            return try wellKnownContent(in: context, depth: depth)
        case .media:
            let mime = MediaType.normalized(type)
            switch MediaType.essence(mime) {
            case "text/vcard", "text/x-vcard":
                guard let text = TextCoding.utf8(payload) else {
                    throw .invalidPayload(type: mime, problem: .invalidText(field: "vCard", encoding: "UTF-8"), offset: 0)
                }
                return .vcard(text)
            case "application/vnd.wfa.wsc":
                return .wifi(try WiFiSimpleConfig(payload: payload))
            case "application/vnd.bluetooth.ep.oob":
                return .bluetooth(try BluetoothOOB(transport: .classic, payload: payload))
            case "application/vnd.bluetooth.le.oob":
                return .bluetooth(try BluetoothOOB(transport: .lowEnergy, payload: payload))
            default:
                return .media(mimeType: mime)
            }
        case .absoluteURI:
            return .absoluteURI(typeString)
        case .external:
            let domainType = MediaType.normalized(type)
            if domainType == "android.com:pkg" {
                guard let package = TextCoding.utf8(payload) else {
                    throw .invalidPayload(type: domainType, problem: .invalidText(field: "package name", encoding: "UTF-8"), offset: 0)
                }
                return .androidApplication(package: package)
            }
            return .external(domainType: domainType)
        case .empty, .unknown, .unchanged, .reserved:
            return nil
        }
    }

    private func wellKnownContent(in context: RecordContext, depth: Int) throws(NDEFError) -> RecordContent? {
        switch (typeString, context) {
        case ("T", _): return .text(try TextRecord(payload: payload))
        case ("U", _): return .uri(try URIRecord(payload: payload))
        case ("Sp", _): return .smartPoster(try SmartPoster(payload: payload, depth: depth))
        case ("Hc", _): return .handoverCarrier(try HandoverCarrier(payload: payload))
        case ("Sig", _): return .signature(try SignatureRecord(payload: payload))
        case ("Di", _): return .deviceInformation(try DeviceInformation(payload: payload))
        case ("ac", .handover): return .alternativeCarrier(try AlternativeCarrier(payload: payload))
        case ("err", .handover): return .handoverError(try HandoverError(payload: payload))
        case ("cr", .handover): return .collisionResolution(try Handover.collisionResolution(payload: payload))
        case (let name, _):
            if let kind = Handover.Kind(rawValue: name) {
                return .handover(try Handover(kind: kind, payload: payload, depth: depth))
            }
            return nil
        }
    }
}
