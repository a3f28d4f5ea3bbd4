/// A bounds-checked cursor over one record payload, for the typed decoders.
///
/// Every failure becomes ``NDEFError/invalidPayload(type:problem:offset:)`` naming the record type
/// and the payload byte where decoding stopped.
///
/// The payload is a slice of the decoded input (no copy); positions are counted from the start
/// of the payload, whatever the slice's own indices are, because error offsets are.
struct PayloadReader {
    let type: String
    let bytes: ArraySlice<UInt8>
    private(set) var index: Int
    let end: Int

    init(type: String, bytes: ArraySlice<UInt8>, range: Range<Int>? = nil) {
        self.type = type
        self.bytes = bytes
        self.index = range?.lowerBound ?? 0
        self.end = range?.upperBound ?? bytes.count
    }

    var remaining: Int { end - index }
    var isAtEnd: Bool { index >= end }

    func error(_ problem: PayloadProblem, at offset: Int? = nil) -> NDEFError {
        .invalidPayload(type: type, problem: problem, offset: offset ?? index)
    }

    /// The byte at payload position `position`.
    @inline(__always)
    subscript(position: Int) -> UInt8 { bytes[position: position] }

    /// The payload bytes at positions `range`, without copying.
    @inline(__always)
    subscript(range: Range<Int>) -> ArraySlice<UInt8> {
        bytes[positions: range]
    }

    @inline(__always)
    mutating func u8(_ field: String) throws(NDEFError) -> UInt8 {
        guard index < end else { throw error(.truncated(field: field, needed: 1, available: 0)) }
        defer { index += 1 }
        return self[index]
    }

    mutating func u16(_ field: String, littleEndian: Bool = false) throws(NDEFError) -> UInt16 {
        let r = try take(2, field)
        let (a, b) = (UInt16(self[r.lowerBound]), UInt16(self[r.lowerBound + 1]))
        return littleEndian ? b << 8 | a : a << 8 | b
    }

    mutating func u32(_ field: String) throws(NDEFError) -> UInt32 {
        let r = try take(4, field)
        return self[r].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The next `count` bytes' range, advancing past them. The field name is built only on
    /// failure, so a name with interpolation costs nothing on the success path.
    @inline(__always)
    mutating func take(_ count: Int, _ field: @autoclosure () -> String) throws(NDEFError) -> Range<Int> {
        guard count <= remaining else { throw error(.truncated(field: field(), needed: count, available: remaining)) }
        defer { index += count }
        return index..<(index + count)
    }

    /// The next `count` bytes, without copying.
    mutating func slice(_ count: Int, _ field: @autoclosure () -> String) throws(NDEFError) -> ArraySlice<UInt8> {
        self[try take(count, field())]
    }

    mutating func bytes(_ count: Int, _ field: @autoclosure () -> String) throws(NDEFError) -> [UInt8] {
        Array(try slice(count, field()))
    }

    mutating func rest() -> [UInt8] {
        defer { index = end }
        return Array(self[index..<end])
    }

    /// Strict UTF-8 text of the next `count` bytes.
    mutating func utf8(_ count: Int, _ field: String) throws(NDEFError) -> String {
        let start = index
        let r = try take(count, field)
        guard let text = TextCoding.utf8(self[r]) else { throw error(.invalidText(field: field, encoding: "UTF-8"), at: start) }
        return text
    }

    /// Strict US-ASCII text of the next `count` bytes.
    mutating func ascii(_ count: Int, _ field: String) throws(NDEFError) -> String {
        let start = index
        let r = try take(count, field)
        let text = self[r]
        guard text.allSatisfy({ $0 < 0x80 }) else { throw error(.invalidText(field: field, encoding: "US-ASCII"), at: start) }
        return String(decoding: text, as: UTF8.self)
    }

    /// Parses the next `count` bytes as a nested NDEF message, one level deeper, and interprets it
    /// with `body`. The nested records are views into this payload, not copies. Record layouts
    /// (for error offsets inside this payload) are worked out only when `body` fails.
    mutating func nestedMessage<T>(_ count: Int, depth: Int,
                                   _ body: (NDEFMessage, [NDEFParser.RecordLayout]?) throws(NDEFError) -> T) throws(NDEFError) -> T {
        let start = index
        let r = try take(count, "nested message")
        guard depth < NestedMessage.depthLimit else {
            throw error(.nestedMessage(.nestingTooDeep(offset: 0, limit: NestedMessage.depthLimit)), at: start)
        }
        let nested = self[r]
        let message: NDEFMessage
        do {
            message = try NDEFParser(mode: .strict).parseMessage(nested).message
        } catch {
            throw self.error(.nestedMessage(error), at: start + error.offset)
        }
        do {
            return try body(message, nil)
        } catch {
            // Rare path: parse again for the layouts, so the error points at the right byte.
            guard let located = try? NDEFParser(mode: .strict).parse(nested) else { throw error }
            return try body(message, located.layouts.map { $0.shifted(by: start) })
        }
    }

    func expectEnd() throws(NDEFError) {
        if index < end { throw error(.trailingBytes(count: end - index)) }
    }
}

/// Bounds on messages inside records (smart posters, handover): hostile input cannot recurse forever.
public enum NestedMessage {
    /// How many messages deep a record may nest (a smart poster inside a handover inside …).
    public static let depthLimit = 4
}

/// Strict text decoding helpers shared by the record types.
enum TextCoding {
    /// Decodes UTF-8, or nil if the bytes are not valid UTF-8.
    static func utf8(_ bytes: ArraySlice<UInt8>) -> String? {
        // Most text on objects is ASCII: one pass to check (OR-ing every byte, without an early
        // exit, so that it vectorizes), then the init that cannot fail on ASCII.
        let ascii = bytes.withContiguousStorageIfAvailable { $0.reduce(0, |) < 0x80 } ?? bytes.allSatisfy { $0 < 0x80 }
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        return bytes.withContiguousStorageIfAvailable { String(validating: $0, as: UTF8.self) } ?? String(validating: bytes, as: UTF8.self)
    }

    static func utf8(_ bytes: [UInt8]) -> String? { utf8(bytes[...]) }

    /// Decodes UTF-16 in the given byte order, or nil on an odd byte count or unpaired surrogate.
    static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String? {
        guard bytes.count % 2 == 0 else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let (a, b) = (UInt16(bytes[i]), UInt16(bytes[i + 1]))
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            i += 2
        }
        return String(validating: units, as: UTF16.self)
    }

    static func utf16Bytes(_ text: String, bigEndian: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf16.count * 2)
        for unit in text.utf16 {
            if bigEndian { out.append(UInt8(unit >> 8)); out.append(UInt8(unit & 0xFF)) }
            else { out.append(UInt8(unit & 0xFF)); out.append(UInt8(unit >> 8)) }
        }
        return out
    }
}
