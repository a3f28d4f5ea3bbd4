/// The 3-bit Type Name Format of a record header: how to read the record's `type` field.
public enum TypeNameFormat: UInt8, Sendable, Hashable, CaseIterable {
    /// No type, ID or payload. Used for an empty message on a freshly formatted object.
    case empty = 0
    /// An NFC Forum well-known type (`T`, `U`, `Sp`, …), relative to `urn:nfc:wkt:`.
    case wellKnown = 1
    /// An RFC 2046 media type such as `text/vcard`.
    case media = 2
    /// The type is itself an absolute URI (RFC 3986).
    case absoluteURI = 3
    /// An NFC Forum external type (`domain:type`), relative to `urn:nfc:ext:`.
    case external = 4
    /// Payload of unknown type; the type field must be empty.
    case unknown = 5
    /// A middle or last chunk of a chunked record; never appears on a reassembled record.
    case unchanged = 6
    /// Reserved by the specification; accepted only in lenient decoding.
    case reserved = 7

    /// The stable name used in JSON output and messages.
    public var name: String {
        switch self {
        case .empty: "empty"
        case .wellKnown: "well-known"
        case .media: "media"
        case .absoluteURI: "absolute-uri"
        case .external: "external"
        case .unknown: "unknown"
        case .unchanged: "unchanged"
        case .reserved: "reserved"
        }
    }
}
