/// A well-known Text record (`T`, NFC Forum RTD-Text 1.0): a string and its IANA language code.
public struct TextRecord: Hashable, Sendable {
    /// How the text bytes are encoded. UTF-16 keeps its byte order and whether a byte order mark
    /// was present, so that re-encoding a decoded record gives back the same bytes.
    public enum Encoding: Hashable, Sendable {
        case utf8
        case utf16(bigEndian: Bool, byteOrderMark: Bool)

        /// The stable name used in JSON: `utf-8` or `utf-16`.
        public var name: String {
            switch self {
            case .utf8: "utf-8"
            case .utf16: "utf-16"
            }
        }

        /// UTF-16 as the RTD recommends when writing: big-endian with a byte order mark.
        public static let utf16: Encoding = .utf16(bigEndian: true, byteOrderMark: true)
    }

    public var text: String
    /// IANA language code such as `en` or `zh-Hans` (US-ASCII, at most 63 bytes).
    public var language: String
    public var encoding: Encoding

    public init(text: String, language: String = "en", encoding: Encoding = .utf8) {
        self.text = text
        self.language = language
        self.encoding = encoding
    }

    static let typeName = "T"

    public init(payload: [UInt8]) throws(NDEFError) {
        try self.init(payloadBytes: payload[...])
    }

    /// Decodes a payload in place, for records decoded from a message (their payloads are views).
    init(payloadBytes payload: ArraySlice<UInt8>) throws(NDEFError) {
        var reader = PayloadReader(type: Self.typeName, bytes: payload)
        let status = try reader.u8("status byte")
        if status & 0x40 != 0 { throw reader.error(.invalidValue(field: "reserved status bit 6", value: 1), at: 0) }
        let languageLength = Int(status & 0x3F)
        language = try reader.ascii(languageLength, "language code")
        let textStart = reader.index
        let body = reader[textStart..<reader.end]
        if status & 0x80 == 0 {
            encoding = .utf8
            guard let decoded = TextCoding.utf8(body) else {
                throw reader.error(.invalidText(field: "text", encoding: "UTF-8"), at: textStart)
            }
            text = decoded
        } else {
            // A byte order mark decides the order; without one, RTD-Text says big-endian.
            var bigEndian = true
            var bom = false
            if body.count >= 2 {
                let (a, b) = (reader[textStart], reader[textStart + 1])
                if a == 0xFE && b == 0xFF { bom = true } else if a == 0xFF && b == 0xFE { bom = true; bigEndian = false }
            }
            encoding = .utf16(bigEndian: bigEndian, byteOrderMark: bom)
            guard let decoded = TextCoding.utf16(body.dropFirst(bom ? 2 : 0), bigEndian: bigEndian) else {
                throw reader.error(.invalidText(field: "text", encoding: "UTF-16"), at: textStart)
            }
            text = decoded
        }
    }

    /// The payload bytes. Throws if the language code cannot be written (not US-ASCII or over 63
    /// bytes), or for UTF-16 without a byte order mark that a reader would not read back as written.
    public func payload() throws(NDEFError) -> [UInt8] {
        let languageBytes = Array(language.utf8)
        guard languageBytes.count <= 0x3F else {
            throw .invalidPayload(type: Self.typeName, problem: .invalidValue(field: "language code length", value: languageBytes.count), offset: 0)
        }
        guard languageBytes.allSatisfy({ $0 < 0x80 }) else {
            throw .invalidPayload(type: Self.typeName, problem: .invalidText(field: "language code", encoding: "US-ASCII"), offset: 1)
        }
        var out: [UInt8] = [UInt8(languageBytes.count)]
        out.append(contentsOf: languageBytes)
        switch encoding {
        case .utf8:
            out.append(contentsOf: text.utf8)
        case .utf16(let bigEndian, let bom):
            // Without a byte order mark a reader assumes big-endian and takes a leading U+FEFF as
            // one: refuse what would not read back as written.
            if !bom && (!bigEndian || text.unicodeScalars.first == "\u{FEFF}") {
                throw .invalidPayload(type: Self.typeName, problem: .invalidValue(field: "UTF-16 without byte order mark", value: bigEndian ? 0xFEFF : 1), offset: 0)
            }
            out[0] |= 0x80
            if bom { out.append(contentsOf: bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) }
            out.append(contentsOf: TextCoding.utf16Bytes(text, bigEndian: bigEndian))
        }
        return out
    }

    public func record(id: [UInt8] = []) throws(NDEFError) -> NDEFRecord {
        NDEFRecord(tnf: .wellKnown, type: Self.typeName, id: id, payload: try payload())
    }
}
