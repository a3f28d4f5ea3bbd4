/// Hexadecimal text for bytes and codes, as the JSON schema and messages print them.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Lowercase hex without separators.
    public static func string(_ bytes: some Collection<UInt8>) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// An unassigned code as `0x0c`.
    public static func code(_ value: UInt8) -> String { "0x" + string([value]) }

    /// A 16-bit code as `0x0040`.
    public static func code(_ value: UInt16) -> String { "0x" + string([UInt8(value >> 8), UInt8(value & 0xFF)]) }

    /// Parses hex text. Whitespace, `:` and `-` between byte pairs are ignored, as is a leading `0x`.
    /// Anything else fails with the offset of the first offending character.
    public static func decode(_ text: some StringProtocol) -> Result<[UInt8], HexError> {
        var out: [UInt8] = []
        var high: UInt8?
        var index = 0
        var utf8 = Array(text.utf8)
        if utf8.count >= 2, utf8[0] == UInt8(ascii: "0"), utf8[1] | 0x20 == UInt8(ascii: "x") {
            utf8.removeFirst(2)
            index = 2
        }
        for c in utf8 {
            defer { index += 1 }
            let nibble: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = c - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"), UInt8(ascii: ":"), UInt8(ascii: "-"):
                if high != nil { return .failure(HexError(offset: index, reason: "separator inside a byte")) }
                continue
            default:
                return .failure(HexError(offset: index, reason: "not a hex digit"))
            }
            if let h = high { out.append(h << 4 | nibble); high = nil } else { high = nibble }
        }
        if high != nil { return .failure(HexError(offset: index, reason: "odd number of hex digits")) }
        return .success(out)
    }
}

/// Why text is not hex, and at which character.
public struct HexError: Error, Hashable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var reason: String
    public var description: String { "\(reason) at character \(offset)" }
}
