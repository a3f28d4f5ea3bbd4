/// One NDEF record, as it is after decoding: chunks reassembled, header flags gone.
///
/// A plain value: equal records encode to equal bytes. Typed views of the payload come from
/// ``content(in:)``; the raw fields stay available for anything the codec does not model.
public struct NDEFRecord: Hashable, Sendable {
    public var tnf: TypeNameFormat
    public var type: [UInt8]
    public var id: [UInt8]
    public var payload: [UInt8]

    public init(tnf: TypeNameFormat, type: [UInt8] = [], id: [UInt8] = [], payload: [UInt8] = []) {
        self.tnf = tnf
        self.type = type
        self.id = id
        self.payload = payload
    }

    /// A record with a well-known type such as `"U"`, or a media or external type, given as text.
    public init(tnf: TypeNameFormat, type: String, id: [UInt8] = [], payload: [UInt8]) {
        self.init(tnf: tnf, type: Array(type.utf8), id: id, payload: payload)
    }

    /// The empty record (TNF 0): what a formatted but unwritten object holds.
    public static let empty = NDEFRecord(tnf: .empty)

    /// The type as text. Types are US-ASCII by specification; other bytes become U+FFFD.
    public var typeString: String { String(decoding: type, as: UTF8.self) }

    /// The ID as text (IDs are URIs by specification); `""` when absent.
    public var idString: String { String(decoding: id, as: UTF8.self) }

    /// Whether this record's type is the well-known type `name` (case-sensitive, as the RTD says).
    public func isWellKnown(_ name: StaticString) -> Bool {
        tnf == .wellKnown && type.elementsEqual(UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }
}
