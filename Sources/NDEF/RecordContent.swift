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
            let essence = MediaType.essence(of: typeBytes)
            if MediaType.equalsIgnoringCase(essence, "text/vcard") || MediaType.equalsIgnoringCase(essence, "text/x-vcard") {
                guard let text = TextCoding.utf8(payloadBytes) else {
                    throw .invalidPayload(type: MediaType.normalized(typeBytes), problem: .invalidText(field: "vCard", encoding: "UTF-8"), offset: 0)
                }
                return .vcard(text)
            }
            if MediaType.equalsIgnoringCase(essence, "application/vnd.wfa.wsc") { return .wifi(try WiFiSimpleConfig(payloadBytes: payloadBytes)) }
            if MediaType.equalsIgnoringCase(essence, "application/vnd.bluetooth.ep.oob") {
                return .bluetooth(try BluetoothOOB(transport: .classic, payloadBytes: payloadBytes))
            }
            if MediaType.equalsIgnoringCase(essence, "application/vnd.bluetooth.le.oob") {
                return .bluetooth(try BluetoothOOB(transport: .lowEnergy, payloadBytes: payloadBytes))
            }
            return .media(mimeType: MediaType.normalized(typeBytes))
        case .absoluteURI:
            // The type field is the link: the same rule as a URI record's (no control characters).
            if let control = typeBytes.first(where: URIRecord.isControl) {
                throw .invalidPayload(type: "absolute URI", problem: .invalidValue(field: "URI (a control character)", value: Int(control)), offset: 0)
            }
            return .absoluteURI(typeString)
        case .external:
            if MediaType.equalsIgnoringCase(typeBytes, "android.com:pkg") {
                guard let package = TextCoding.utf8(payloadBytes) else {
                    throw .invalidPayload(type: "android.com:pkg", problem: .invalidText(field: "package name", encoding: "UTF-8"), offset: 0)
                }
                return .androidApplication(package: package)
            }
            return .external(domainType: MediaType.normalized(typeBytes))
        case .empty, .unknown, .unchanged, .reserved:
            return nil
        }
    }

    private func wellKnownContent(in context: RecordContext, depth: Int) throws(NDEFError) -> RecordContent? {
        // Well-known types are case-sensitive and at most 3 bytes here: compare them packed in an
        // integer rather than building a String for every record.
        guard typeBytes.count <= 3 else { return nil }
        switch WellKnownType.key(typeBytes) {
        case WellKnownType.text: return .text(try TextRecord(payloadBytes: payloadBytes))
        case WellKnownType.uri: return .uri(try URIRecord(payloadBytes: payloadBytes))
        case WellKnownType.smartPoster: return .smartPoster(try SmartPoster(payloadBytes: payloadBytes, depth: depth))
        case WellKnownType.handoverCarrier: return .handoverCarrier(try HandoverCarrier(payloadBytes: payloadBytes))
        case WellKnownType.signature: return .signature(try SignatureRecord(payloadBytes: payloadBytes))
        case WellKnownType.deviceInformation: return .deviceInformation(try DeviceInformation(payloadBytes: payloadBytes))
        case WellKnownType.handoverSelect: return .handover(try Handover(kind: .select, payloadBytes: payloadBytes, depth: depth))
        case WellKnownType.handoverRequest: return .handover(try Handover(kind: .request, payloadBytes: payloadBytes, depth: depth))
        case WellKnownType.handoverMediation: return .handover(try Handover(kind: .mediation, payloadBytes: payloadBytes, depth: depth))
        case WellKnownType.handoverInitiate: return .handover(try Handover(kind: .initiate, payloadBytes: payloadBytes, depth: depth))
        case WellKnownType.alternativeCarrier where context == .handover:
            return .alternativeCarrier(try AlternativeCarrier(payloadBytes: payloadBytes))
        case WellKnownType.handoverError where context == .handover:
            return .handoverError(try HandoverError(payloadBytes: payloadBytes))
        case WellKnownType.collisionResolution where context == .handover:
            return .collisionResolution(try Handover.collisionResolution(payloadBytes: payloadBytes))
        default:
            return nil
        }
    }
}

/// Well-known type names packed into an integer for allocation-free dispatch: the length in the
/// top byte (so `00 54` is not `T`), the bytes big-endian below it.
enum WellKnownType {
    /// The key of a type of at most 3 bytes (callers check the length).
    static func key(_ type: some Collection<UInt8>) -> UInt32 {
        UInt32(type.count) << 24 | type.reduce(0) { $0 << 8 | UInt32($1) }
    }

    static let text = key("T".utf8)
    static let uri = key("U".utf8)
    static let smartPoster = key("Sp".utf8)
    static let handoverCarrier = key("Hc".utf8)
    static let handoverSelect = key("Hs".utf8)
    static let handoverRequest = key("Hr".utf8)
    static let handoverMediation = key("Hm".utf8)
    static let handoverInitiate = key("Hi".utf8)
    static let deviceInformation = key("Di".utf8)
    static let alternativeCarrier = key("ac".utf8)
    static let collisionResolution = key("cr".utf8)
    static let signature = key("Sig".utf8)
    static let handoverError = key("err".utf8)
}
