/// Why a message value cannot be written as NDEF bytes.
public enum NDEFEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A message needs at least one record.
    case noRecords
    /// Record `index` breaks a header rule the decoder enforces (the wrapped error says which).
    case invalidRecord(index: Int, NDEFError)
    /// A field is longer than its length field can say.
    case fieldTooLong(index: Int, field: NDEFError.HeaderField, length: Int, limit: Int)

    public var description: String {
        switch self {
        case .noRecords: "a message needs at least one record"
        case .invalidRecord(let index, let error): "record \(index): \(error)"
        case .fieldTooLong(let index, let field, let length, let limit):
            "record \(index): \(field.rawValue) of \(length) bytes exceeds \(limit)"
        }
    }
}

/// Writes messages as NDEF bytes. Canonical by default; chunking and long headers on request,
/// for tests and simulators that must produce what real objects hold.
public struct NDEFEncoder: Sendable {
    /// Split every payload longer than this into chunks of at most this many bytes (nil: never).
    public var chunkSize: Int?
    /// Use the 4-byte payload length even where one byte would do.
    public var alwaysLongRecords: Bool

    public init(chunkSize: Int? = nil, alwaysLongRecords: Bool = false) {
        precondition(chunkSize.map { $0 > 0 } ?? true, "chunkSize must be positive")
        self.chunkSize = chunkSize
        self.alwaysLongRecords = alwaysLongRecords
    }

    /// The canonical layout of whatever the message holds, without checking the header rules:
    /// a message from lenient decoding (a reserved TNF, an empty record with a type) is written
    /// as it was read. Only fields too long for their length byte cannot be written (a programming
    /// error: decoding never produces them).
    static func encode(_ message: NDEFMessage) -> [UInt8] {
        do { return try NDEFEncoder(checksHeaderRules: false).encode(message) } catch { preconditionFailure("\(error)") }
    }

    /// False only for ``encode(_:)``'s faithful re-encoding of decoded messages.
    private var checksHeaderRules = true

    private init(checksHeaderRules: Bool) {
        self.init()
        self.checksHeaderRules = checksHeaderRules
    }

    public func encode(_ message: NDEFMessage) throws(NDEFEncodingError) -> [UInt8] {
        guard !message.records.isEmpty || !checksHeaderRules else { throw .noRecords }
        var out: [UInt8] = []
        out.reserveCapacity(message.records.reduce(0) { $0 + $1.type.count + $1.id.count + $1.payload.count + 6 })
        let lastIndex = message.records.count - 1
        for (index, record) in message.records.enumerated() {
            if record.type.count > 255 { throw .fieldTooLong(index: index, field: .type, length: record.type.count, limit: 255) }
            if record.id.count > 255 { throw .fieldTooLong(index: index, field: .id, length: record.id.count, limit: 255) }
            if record.payload.count > Int(UInt32.max) {
                throw .fieldTooLong(index: index, field: .payload, length: record.payload.count, limit: Int(UInt32.max))
            }
            let chunks = chunkRanges(record.payload.count, tnf: record.tnf)
            if checksHeaderRules, let violation = RecordShape.violation(tnf: record.tnf, typeLength: record.type.count,
                                                     idLength: record.id.count, payloadLength: record.payload.count,
                                                     chunked: chunks.count > 1, offset: 0) {
                throw .invalidRecord(index: index, violation)
            }
            for (chunkIndex, range) in chunks.enumerated() {
                let isFirstChunk = chunkIndex == 0
                let isLastChunk = chunkIndex == chunks.count - 1
                var flags: UInt8 = isFirstChunk ? record.tnf.rawValue : TypeNameFormat.unchanged.rawValue
                if index == 0 && isFirstChunk { flags |= HeaderFlag.messageBegin }
                if index == lastIndex && isLastChunk { flags |= HeaderFlag.messageEnd }
                if !isLastChunk { flags |= HeaderFlag.chunk }
                let short = range.count < 256 && !alwaysLongRecords
                if short { flags |= HeaderFlag.shortRecord }
                let id = isFirstChunk ? record.id : []
                if !id.isEmpty { flags |= HeaderFlag.idLength }
                out.append(flags)
                out.append(isFirstChunk ? UInt8(record.type.count) : 0)
                if short {
                    out.append(UInt8(range.count))
                } else {
                    let length = UInt32(range.count)
                    out.append(contentsOf: [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)])
                }
                if !id.isEmpty { out.append(UInt8(id.count)) }
                if isFirstChunk { out.append(contentsOf: record.type) }
                out.append(contentsOf: id)
                out.append(contentsOf: record.payload[range])
            }
        }
        return out
    }

    private func chunkRanges(_ count: Int, tnf: TypeNameFormat) -> [Range<Int>] {
        guard let size = chunkSize, count > size, tnf != .empty else { return [0..<count] }
        return stride(from: 0, to: count, by: size).map { $0..<min($0 + size, count) }
    }
}
