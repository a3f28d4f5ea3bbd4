/// Decodes NDEF message bytes, strictly or leniently, and tells where each record sat.
///
/// Strict mode (the default) throws on the first deviation from the specification. Lenient mode
/// recovers every complete record it can and lists what it tolerated in ``Result/issues``; it
/// never presents a truncated record as complete.
public struct NDEFParser: Sendable {
    public enum Mode: Sendable, Hashable {
        case strict
        case lenient
    }

    /// Where a record came from in the input: for error offsets and developer output.
    public struct RecordLayout: Hashable, Sendable {
        /// Offset of the record's first header byte.
        public var offset: Int
        /// Bytes from the first header byte to the end of the last chunk.
        public var length: Int
        /// Where each chunk's payload bytes sit in the input, in order (one range when not chunked).
        public var payloadRanges: [Range<Int>]
        /// Whether the (first) header used the 1-byte payload length.
        public var shortRecord: Bool

        public var isChunked: Bool { payloadRanges.count > 1 }

        public init(offset: Int, length: Int, payloadRanges: [Range<Int>], shortRecord: Bool) {
            self.offset = offset
            self.length = length
            self.payloadRanges = payloadRanges
            self.shortRecord = shortRecord
        }

        /// The input offset of byte `index` of the reassembled payload (clamped to the record).
        public func inputOffset(ofPayloadByte index: Int) -> Int {
            var remaining = index
            for range in payloadRanges {
                if remaining < range.count { return range.lowerBound + remaining }
                remaining -= range.count
            }
            return payloadRanges.last?.upperBound ?? offset
        }

        func shifted(by delta: Int) -> RecordLayout {
            RecordLayout(offset: offset + delta, length: length,
                         payloadRanges: payloadRanges.map { ($0.lowerBound + delta)..<($0.upperBound + delta) },
                         shortRecord: shortRecord)
        }
    }

    public struct Result: Hashable, Sendable {
        public var message: NDEFMessage
        /// One layout per record of `message`, in the same order (empty from ``NDEFMessage/init(decoding:)``'s fast path).
        public var layouts: [RecordLayout]
        /// What lenient mode tolerated; always empty in strict mode.
        public var issues: [NDEFError]
    }

    public var mode: Mode

    public init(mode: Mode = .strict) {
        self.mode = mode
    }

    public func parse(_ bytes: [UInt8]) throws(NDEFError) -> Result {
        try parse(bytes[...])
    }

    /// Offsets in the result and in errors count from the start of `bytes`, whatever its indices.
    func parse(_ bytes: ArraySlice<UInt8>) throws(NDEFError) -> Result {
        var cursor = Cursor(bytes: bytes, strict: mode == .strict, collectLayouts: true)
        return try cursor.parseMessage()
    }

    /// The message alone: the fast path for callers that need no layouts (`layouts` is empty).
    /// The records are views into `bytes`.
    func parseMessage(_ bytes: ArraySlice<UInt8>) throws(NDEFError) -> Result {
        var cursor = Cursor(bytes: bytes, strict: mode == .strict, collectLayouts: false)
        return try cursor.parseMessage()
    }
}

extension NDEFParser {
    /// The single pass over the input. Every read is checked against `count` first.
    ///
    /// Positions (`index`, the ranges of a ``RawRecord``) count from the start of the input, as
    /// error offsets and layouts do; `subscript` maps them onto the slice's own indices.
    fileprivate struct Cursor {
        let bytes: ArraySlice<UInt8>
        let count: Int
        let strict: Bool
        let collectLayouts: Bool
        var index = 0
        var issues: [NDEFError] = []

        init(bytes: ArraySlice<UInt8>, strict: Bool, collectLayouts: Bool) {
            self.bytes = bytes
            self.count = bytes.count
            self.strict = strict
            self.collectLayouts = collectLayouts
        }

        @inline(__always)
        subscript(position: Int) -> UInt8 { bytes[position: position] }

        @inline(__always)
        subscript(range: Range<Int>) -> ArraySlice<UInt8> {
            bytes[positions: range]
        }

        /// Throws in strict mode; records the issue in lenient mode.
        mutating func tolerate(_ error: NDEFError) throws(NDEFError) {
            if strict { throw error }
            issues.append(error)
        }

        @inline(__always)
        mutating func byte(_ field: NDEFError.HeaderField) throws(NDEFError) -> UInt8 {
            guard index < count else { throw .truncated(field, offset: index) }
            defer { index += 1 }
            return self[index]
        }

        @inline(__always)
        mutating func range(_ field: NDEFError.HeaderField, length: Int) throws(NDEFError) -> Range<Int> {
            let available = count - index
            guard length <= available else {
                throw .lengthPastEnd(field, length: length, offset: index, available: available)
            }
            defer { index += length }
            return index..<(index + length)
        }

        /// One record header and where its fields sit.
        struct RawRecord {
            var offset: Int
            var flags: UInt8
            var tnf: TypeNameFormat
            var type: Range<Int>
            var id: Range<Int>
            var payload: Range<Int>
            var hasIDLength: Bool
            var short: Bool
            var messageBegin: Bool { flags & HeaderFlag.messageBegin != 0 }
            var messageEnd: Bool { flags & HeaderFlag.messageEnd != 0 }
            var chunk: Bool { flags & HeaderFlag.chunk != 0 }
        }

        @inline(__always)
        mutating func rawRecord() throws(NDEFError) -> RawRecord {
            let offset = index
            let flags = try byte(.header)
            let typeLength = Int(try byte(.typeLength))
            let short = flags & HeaderFlag.shortRecord != 0
            var payloadLength: Int
            if short {
                payloadLength = Int(try byte(.payloadLength))
            } else {
                guard count - index >= 4 else { throw .truncated(.payloadLength, offset: index) }
                payloadLength = 0
                for _ in 0..<4 { payloadLength = payloadLength << 8 | Int(self[index]); index += 1 }
            }
            let hasIDLength = flags & HeaderFlag.idLength != 0
            let idLength = hasIDLength ? Int(try byte(.idLength)) : 0
            let type = try range(.type, length: typeLength)
            let id = try range(.id, length: idLength)
            let payload = try range(.payload, length: payloadLength)
            return RawRecord(offset: offset, flags: flags, tnf: TypeNameFormat(rawValue: flags & HeaderFlag.tnfMask)!,
                             type: type, id: id, payload: payload, hasIDLength: hasIDLength, short: short)
        }

        mutating func parseMessage() throws(NDEFError) -> Result {
            guard count > 0 else { throw .noRecords }
            var records: [NDEFRecord] = []
            // Growing from empty reallocates at 1, 2 and 4 records; typical messages (a smart
            // poster's nested one included) hold up to about 8, and every record takes 3 bytes.
            records.reserveCapacity(min(count / 3, 8))
            var layouts: [RecordLayout] = []
            var ended = false
            var stoppedEarly = false

            while index < count {
                let first: RawRecord
                do {
                    first = try rawRecord()
                } catch {
                    if strict || records.isEmpty { throw error }
                    issues.append(error)
                    stoppedEarly = true
                    break
                }
                if records.isEmpty {
                    if !first.messageBegin { try tolerate(.missingMessageBegin(offset: first.offset)) }
                } else if first.messageBegin {
                    try tolerate(.misplacedMessageBegin(offset: first.offset))
                }

                var tnf = first.tnf
                if let violation = RecordShape.violation(tnf: first.tnf, typeLength: first.type.count,
                                                         idLength: first.id.count, payloadLength: first.payload.count,
                                                         chunked: first.chunk, offset: first.offset) {
                    try tolerate(violation)
                    if tnf == .unchanged { tnf = .unknown }
                }

                var payloadRanges: [Range<Int>] = []
                var chunks = 1
                var last = first
                // Continuation chunks: TNF unchanged, no type, no ID, until a chunk without CF.
                while last.chunk && !last.messageEnd {
                    guard index < count else { break }
                    let chunk: RawRecord
                    do {
                        chunk = try rawRecord()
                    } catch {
                        if strict { throw error }
                        issues.append(error)
                        index = count
                        break
                    }
                    if chunk.tnf != .unchanged { try tolerate(.chunkWithoutUnchangedTNF(chunk.tnf, offset: chunk.offset)) }
                    if !chunk.type.isEmpty {
                        try tolerate(.invalidTypeLength(.unchanged, length: chunk.type.count, offset: chunk.offset))
                    }
                    if chunk.hasIDLength { try tolerate(.chunkWithID(offset: chunk.offset)) }
                    if chunk.messageBegin { try tolerate(.misplacedMessageBegin(offset: chunk.offset)) }
                    if payloadRanges.isEmpty { payloadRanges.append(first.payload) }
                    payloadRanges.append(chunk.payload)
                    chunks += 1
                    last = chunk
                }
                if last.chunk {
                    // The message (or the input) ended while the chunk sequence was still open:
                    // the reassembled payload may be incomplete, so never present it as a record.
                    let error = NDEFError.unterminatedChunk(offset: last.messageEnd ? last.offset : index)
                    if strict { throw error }
                    issues.append(error)
                    ended = last.messageEnd
                    stoppedEarly = true
                    break
                }

                // Type, ID and payload are contiguous in an unchunked record: the record is a view.
                let fields: ArraySlice<UInt8>
                if chunks == 1 {
                    fields = self[first.type.lowerBound..<first.payload.upperBound]
                } else {
                    var joined: [UInt8] = []
                    joined.reserveCapacity(first.type.count + first.id.count + payloadRanges.reduce(0) { $0 + $1.count })
                    joined.append(contentsOf: self[first.type.lowerBound..<first.id.upperBound])
                    for range in payloadRanges { joined.append(contentsOf: self[range]) }
                    fields = joined[...]
                }
                records.append(NDEFRecord(tnf: tnf, fields: fields, typeLength: first.type.count, idLength: first.id.count))
                if collectLayouts {
                    layouts.append(RecordLayout(offset: first.offset, length: index - first.offset,
                                                payloadRanges: chunks == 1 ? [first.payload] : payloadRanges, shortRecord: first.short))
                }
                if last.messageEnd {
                    ended = true
                    break
                }
            }

            if ended {
                if index < count {
                    try tolerate(.trailingData(offset: index, count: count - index))
                }
            } else if !stoppedEarly {
                try tolerate(.missingMessageEnd(offset: count))
            }
            if records.isEmpty {
                // Lenient mode found nothing whole: report the first problem it met.
                throw issues.first ?? .noRecords
            }
            return Result(message: NDEFMessage(records: records), layouts: layouts, issues: issues)
        }
    }
}
