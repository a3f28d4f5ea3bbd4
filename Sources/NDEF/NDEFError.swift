/// Why bytes are not a valid NDEF message, and where.
///
/// Every case carries the byte offset of the problem, counted from the start of the decoded
/// input (for ``invalidPayload(type:problem:offset:)``, from the start of the message the record
/// sits in). The `description` is one line a developer can act on.
public indirect enum NDEFError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input holds no record at all.
    case noRecords
    /// The input ends inside a record header field.
    case truncated(HeaderField, offset: Int)
    /// A length field points past the end of the input.
    case lengthPastEnd(HeaderField, length: Int, offset: Int, available: Int)
    /// The first record lacks the Message Begin flag.
    case missingMessageBegin(offset: Int)
    /// A record after the first carries the Message Begin flag.
    case misplacedMessageBegin(offset: Int)
    /// The input ends before a record with the Message End flag.
    case missingMessageEnd(offset: Int)
    /// Bytes follow the record that carries the Message End flag.
    case trailingData(offset: Int, count: Int)
    /// TNF 7 is reserved.
    case reservedTNF(offset: Int)
    /// The type length is not allowed for this TNF (zero for well-known/media/URI/external, nonzero for unknown/unchanged).
    case invalidTypeLength(TypeNameFormat, length: Int, offset: Int)
    /// An empty record (TNF 0) carries a type, ID or payload.
    case nonEmptyEmptyRecord(offset: Int)
    /// A record with TNF "unchanged" that is not the continuation of a chunked record.
    case unchangedOutsideChunk(offset: Int)
    /// A middle or last chunk whose TNF is not "unchanged".
    case chunkWithoutUnchangedTNF(TypeNameFormat, offset: Int)
    /// A middle or last chunk that carries an ID.
    case chunkWithID(offset: Int)
    /// A chunked record whose chunk sequence is not closed before the message ends.
    case unterminatedChunk(offset: Int)
    /// A chunked record whose first chunk is the empty TNF.
    case chunkedEmptyRecord(offset: Int)
    /// Messages nested inside records (smart posters, handover) go deeper than the codec allows.
    case nestingTooDeep(offset: Int, limit: Int)
    /// The record structure is fine but its payload is not valid for its type.
    case invalidPayload(type: String, problem: PayloadProblem, offset: Int)

    /// The header fields named in errors.
    public enum HeaderField: String, Sendable, Hashable {
        case header = "record header"
        case typeLength = "type length"
        case payloadLength = "payload length"
        case idLength = "ID length"
        case type = "type"
        case id = "ID"
        case payload = "payload"
    }

    /// The byte offset of the problem.
    public var offset: Int {
        switch self {
        case .noRecords: 0
        case .truncated(_, let offset), .lengthPastEnd(_, _, let offset, _), .missingMessageBegin(let offset),
             .misplacedMessageBegin(let offset), .missingMessageEnd(let offset), .trailingData(let offset, _),
             .reservedTNF(let offset), .invalidTypeLength(_, _, let offset), .nonEmptyEmptyRecord(let offset),
             .unchangedOutsideChunk(let offset), .chunkWithoutUnchangedTNF(_, let offset), .chunkWithID(let offset),
             .unterminatedChunk(let offset), .chunkedEmptyRecord(let offset), .nestingTooDeep(let offset, _),
             .invalidPayload(_, _, let offset):
            offset
        }
    }

    /// This error with its offset moved by `delta`: used when a nested message's error surfaces
    /// in the message that contains it.
    func shifted(by delta: Int) -> NDEFError {
        switch self {
        case .noRecords: self
        case .truncated(let f, let o): .truncated(f, offset: o + delta)
        case .lengthPastEnd(let f, let l, let o, let a): .lengthPastEnd(f, length: l, offset: o + delta, available: a)
        case .missingMessageBegin(let o): .missingMessageBegin(offset: o + delta)
        case .misplacedMessageBegin(let o): .misplacedMessageBegin(offset: o + delta)
        case .missingMessageEnd(let o): .missingMessageEnd(offset: o + delta)
        case .trailingData(let o, let c): .trailingData(offset: o + delta, count: c)
        case .reservedTNF(let o): .reservedTNF(offset: o + delta)
        case .invalidTypeLength(let t, let l, let o): .invalidTypeLength(t, length: l, offset: o + delta)
        case .nonEmptyEmptyRecord(let o): .nonEmptyEmptyRecord(offset: o + delta)
        case .unchangedOutsideChunk(let o): .unchangedOutsideChunk(offset: o + delta)
        case .chunkWithoutUnchangedTNF(let t, let o): .chunkWithoutUnchangedTNF(t, offset: o + delta)
        case .chunkWithID(let o): .chunkWithID(offset: o + delta)
        case .unterminatedChunk(let o): .unterminatedChunk(offset: o + delta)
        case .chunkedEmptyRecord(let o): .chunkedEmptyRecord(offset: o + delta)
        case .nestingTooDeep(let o, let l): .nestingTooDeep(offset: o + delta, limit: l)
        case .invalidPayload(let t, let p, let o): .invalidPayload(type: t, problem: p, offset: o + delta)
        }
    }

    /// A payload error whose offset counts from the start of the record's payload, moved to count
    /// from the start of the input the record was parsed from.
    public func located(in layout: NDEFParser.RecordLayout?) -> NDEFError {
        guard let layout else { return self }
        if case .invalidPayload(let type, let problem, let offset) = self {
            return .invalidPayload(type: type, problem: problem, offset: layout.inputOffset(ofPayloadByte: offset))
        }
        return self
    }

    public var description: String {
        let what: String
        switch self {
        case .noRecords:
            return "no NDEF record in the input (0 bytes)"
        case .truncated(let field, _):
            what = "input ends inside the \(field.rawValue)"
        case .lengthPastEnd(let field, let length, _, let available):
            what = "\(field.rawValue) of \(length) byte\(length == 1 ? "" : "s") runs past the end of the input (\(available) left)"
        case .missingMessageBegin:
            what = "first record lacks the Message Begin (MB) flag"
        case .misplacedMessageBegin:
            what = "Message Begin (MB) flag set on a record after the first"
        case .missingMessageEnd:
            what = "input ends before a record with the Message End (ME) flag"
        case .trailingData(_, let count):
            what = "\(count) byte\(count == 1 ? "" : "s") after the record with the Message End (ME) flag"
        case .reservedTNF:
            what = "record uses the reserved TNF 7"
        case .invalidTypeLength(let tnf, let length, _):
            what = length == 0
                ? "\(tnf.name) record has an empty type"
                : "\(tnf.name) record must have an empty type, has \(length) byte\(length == 1 ? "" : "s")"
        case .nonEmptyEmptyRecord:
            what = "empty record (TNF 0) carries a type, ID or payload"
        case .unchangedOutsideChunk:
            what = "record with TNF 'unchanged' outside a chunked record"
        case .chunkWithoutUnchangedTNF(let tnf, _):
            what = "chunk continuation has TNF '\(tnf.name)' instead of 'unchanged' (chunk sequence broken)"
        case .chunkWithID:
            what = "chunk continuation carries an ID (chunk sequence broken)"
        case .unterminatedChunk:
            what = "chunked record not terminated before the message ends (chunk sequence broken)"
        case .chunkedEmptyRecord:
            what = "empty record (TNF 0) marked as chunked"
        case .nestingTooDeep(_, let limit):
            what = "nested messages deeper than \(limit) levels"
        case .invalidPayload(let type, let problem, _):
            what = "invalid '\(type)' payload: \(problem)"
        }
        return "\(what) at byte \(offset)"
    }
}

/// What is wrong inside a record payload that claims a known type.
public indirect enum PayloadProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The payload ends before `field` (which needs `needed` bytes) is complete.
    case truncated(field: String, needed: Int, available: Int)
    /// A field's bytes are not valid in the encoding the specification requires.
    case invalidText(field: String, encoding: String)
    /// A field holds a value the specification reserves or forbids.
    case invalidValue(field: String, value: Int)
    /// A required element is absent.
    case missing(String)
    /// A required element appears more than once.
    case duplicate(String)
    /// The nested NDEF message is malformed.
    case nestedMessage(NDEFError)
    /// Bytes remain after the last field.
    case trailingBytes(count: Int)

    public var description: String {
        switch self {
        case .truncated(let field, let needed, let available):
            "\(field) needs \(needed) byte\(needed == 1 ? "" : "s"), \(available) left"
        case .invalidText(let field, let encoding):
            "\(field) is not valid \(encoding)"
        case .invalidValue(let field, let value):
            "\(field) has invalid value \(value)"
        case .missing(let element):
            "no \(element)"
        case .duplicate(let element):
            "more than one \(element)"
        case .nestedMessage(let error):
            "nested message: \(error)"
        case .trailingBytes(let count):
            "\(count) unexpected trailing byte\(count == 1 ? "" : "s")"
        }
    }
}
