/// Media (MIME) type names as records carry them.
public enum MediaType {
    /// The type in lowercase, as RFC 2045 compares them case-insensitively; parameters are kept.
    /// Non-ASCII bytes (invalid in a media type) become U+FFFD.
    public static func normalized(_ type: [UInt8]) -> String {
        normalized(type[...])
    }

    static func normalized(_ type: ArraySlice<UInt8>) -> String {
        String(decoding: type.map(lowercased), as: UTF8.self)
    }

    /// The type without parameters and surrounding spaces: the part that names the format.
    /// Found once per record, then compared against each known name.
    static func essence(of type: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var start = type.startIndex, end = type.firstIndex(of: UInt8(ascii: ";")) ?? type.endIndex
        while start < end && type[start] == UInt8(ascii: " ") { start += 1 }
        while end > start && type[end - 1] == UInt8(ascii: " ") { end -= 1 }
        return type[start..<end]
    }

    /// Whether `bytes` (an ``essence(of:)``, or a whole external type) spell `name` in any letter
    /// case, compared byte by byte: dispatch on a record's type allocates nothing.
    static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ name: StaticString) -> Bool {
        guard bytes.count == name.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        for i in 0..<expected.count where lowercased(bytes[bytes.startIndex + i]) != expected[i] { return false }
        return true
    }

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}
