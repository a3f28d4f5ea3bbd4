/// One NDEF record, as it is after decoding: chunks reassembled, header flags gone.
///
/// A plain value: equal records encode to equal bytes. Typed views of the payload come from
/// ``content(in:)``; the raw fields stay available for anything the codec does not model.
///
/// A decoded record does not own copies of its fields: it is a view into the decoded input, so
/// parsing a message allocates nothing per record (only a chunked record gets its own buffer,
/// holding the reassembled payload). Equality and hashing look at the field contents only.
public struct NDEFRecord: Hashable, Sendable {
    public var tnf: TypeNameFormat
    /// Type, ID and payload, back to back: the layout the wire already has for an unchunked
    /// record, so one slice (one reference) covers all three. Equal contents and equal field
    /// lengths mean equal fields, so the synthesized `==` and `hash(into:)` compare contents.
    private var storage: ArraySlice<UInt8>
    private var typeLength: Int
    private var idLength: Int

    public init(tnf: TypeNameFormat, type: [UInt8] = [], id: [UInt8] = [], payload: [UInt8] = []) {
        self.init(tnf: tnf, fields: (type + id + payload)[...], typeLength: type.count, idLength: id.count)
    }

    /// A record whose fields are `fields`: `typeLength` bytes of type, then `idLength` of ID,
    /// then the payload. The caller guarantees both lengths fit.
    init(tnf: TypeNameFormat, fields: ArraySlice<UInt8>, typeLength: Int, idLength: Int) {
        self.tnf = tnf
        self.storage = fields
        self.typeLength = typeLength
        self.idLength = idLength
    }

    /// A record with a well-known type such as `"U"`, or a media or external type, given as text.
    public init(tnf: TypeNameFormat, type: String, id: [UInt8] = [], payload: [UInt8]) {
        self.init(tnf: tnf, type: Array(type.utf8), id: id, payload: payload)
    }

    /// The empty record (TNF 0): what a formatted but unwritten object holds.
    public static let empty = NDEFRecord(tnf: .empty)

    /// The type, without copying.
    public var typeBytes: ArraySlice<UInt8> {
        storage[storage.startIndex..<(storage.startIndex + typeLength)]
    }

    /// The ID, without copying.
    public var idBytes: ArraySlice<UInt8> {
        storage[(storage.startIndex + typeLength)..<(storage.startIndex + typeLength + idLength)]
    }

    /// The payload, without copying.
    public var payloadBytes: ArraySlice<UInt8> {
        storage[(storage.startIndex + typeLength + idLength)...]
    }

    public var type: [UInt8] {
        get { Array(typeBytes) }
        set { self = NDEFRecord(tnf: tnf, type: newValue, id: id, payload: payload) }
    }

    public var id: [UInt8] {
        get { Array(idBytes) }
        set { self = NDEFRecord(tnf: tnf, type: type, id: newValue, payload: payload) }
    }

    public var payload: [UInt8] {
        get { Array(payloadBytes) }
        set { self = NDEFRecord(tnf: tnf, type: type, id: id, payload: newValue) }
    }

    /// The type as text. Types are US-ASCII by specification; other bytes become U+FFFD.
    public var typeString: String { String(decoding: typeBytes, as: UTF8.self) }

    /// The ID as text (IDs are URIs by specification); `""` when absent.
    public var idString: String { String(decoding: idBytes, as: UTF8.self) }

    /// Whether this record's type is the well-known type `name` (case-sensitive, as the RTD says).
    public func isWellKnown(_ name: StaticString) -> Bool {
        tnf == .wellKnown && typeBytes.elementsEqual(UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }
}
