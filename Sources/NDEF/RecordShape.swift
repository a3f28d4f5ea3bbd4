/// The rules a single record's header must follow, shared by the parser and the encoder so that
/// whatever the encoder writes, the parser accepts.
enum RecordShape {
    /// Checks the TNF against the type, ID and payload lengths of a record (or of a chunk's first
    /// fragment). Returns the violated rule, or nil.
    static func violation(tnf: TypeNameFormat, typeLength: Int, idLength: Int, payloadLength: Int,
                          chunked: Bool, offset: Int) -> NDEFError? {
        switch tnf {
        case .empty:
            if chunked { return .chunkedEmptyRecord(offset: offset) }
            if typeLength != 0 || idLength != 0 || payloadLength != 0 { return .nonEmptyEmptyRecord(offset: offset) }
        case .wellKnown, .media, .absoluteURI, .external:
            if typeLength == 0 { return .invalidTypeLength(tnf, length: 0, offset: offset) }
        case .unknown:
            if typeLength != 0 { return .invalidTypeLength(tnf, length: typeLength, offset: offset) }
        case .unchanged:
            return .unchangedOutsideChunk(offset: offset)
        case .reserved:
            return .reservedTNF(offset: offset)
        }
        return nil
    }
}

/// Record header flag bits (NFC Forum NDEF 1.0, section 3.2).
enum HeaderFlag {
    static let messageBegin: UInt8 = 0x80
    static let messageEnd: UInt8 = 0x40
    static let chunk: UInt8 = 0x20
    static let shortRecord: UInt8 = 0x10
    static let idLength: UInt8 = 0x08
    static let tnfMask: UInt8 = 0x07
}
