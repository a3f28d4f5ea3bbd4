/// Hexadecimal text for bytes and codes: the one formatter of the project, in the formats below.
/// - ``string(_:)``: `04a1b2c3`: identifiers, the JSON schema's byte strings, logs;
/// - ``spaced(_:uppercase:)``: `90 00`: traces of frames and APDUs (uppercase where the
///   specification prints them so: ATRs, ISO 7816 and PC/SC bytes);
/// - ``digits(_:)``: `0040`, `1a2b3c4d`: a number with every digit of its width (USB IDs, checks);
/// - ``code(_:)``: `0x0c`, `0x0040`: an unassigned code in a message;
/// - ``colons(_:)``: `04:a1:b2`: Web NFC's `serialNumber`.
public enum Hex {
    private static let lower = Array("0123456789abcdef".utf8)
    private static let upper = Array("0123456789ABCDEF".utf8)

    /// Lowercase hex without separators.
    public static func string(_ bytes: some Collection<UInt8>) -> String { text(bytes, separator: nil, digits: lower) }

    /// Each byte as two digits, a space between bytes.
    public static func spaced(_ bytes: some Collection<UInt8>, uppercase: Bool = false) -> String {
        text(bytes, separator: UInt8(ascii: " "), digits: uppercase ? upper : lower)
    }

    /// Each byte as two lowercase digits, a colon between bytes: Web NFC's serial number.
    public static func colons(_ bytes: some Collection<UInt8>) -> String {
        text(bytes, separator: UInt8(ascii: ":"), digits: lower)
    }

    /// Lowercase hex with all the digits of the type's width: 4 for a `UInt16`, 8 for a `UInt32`.
    public static func digits<Value: FixedWidthInteger & UnsignedInteger>(_ value: Value) -> String {
        string((0..<(Value.bitWidth / 8)).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) })
    }

    private static func text(_ bytes: some Collection<UInt8>, separator: UInt8?, digits: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 3)
        for byte in bytes {
            if let separator, !out.isEmpty { out.append(separator) }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// An unassigned code as `0x0c`.
    public static func code(_ value: UInt8) -> String { "0x" + string([value]) }

    /// A 16-bit code as `0x0040`.
    public static func code(_ value: UInt16) -> String { "0x" + string([UInt8(value >> 8), UInt8(value & 0xFF)]) }

    /// The value of one ASCII hex digit (either case), or nil: for the escapes others decode
    /// (a URI's `%XX`, a systemd unit name's `\xXX`).
    public static func digitValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

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
        // A separator after half a byte is an error only if a digit follows: at the end, the
        // digits were odd in number (a trailing newline is no separator inside anything).
        var separatorInByte: Int?
        for c in utf8 {
            defer { index += 1 }
            let nibble: UInt8
            switch c {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"), UInt8(ascii: ":"), UInt8(ascii: "-"):
                if high != nil, separatorInByte == nil { separatorInByte = index }
                continue
            default:
                guard let value = digitValue(c) else { return .failure(HexError(offset: index, reason: "not a hex digit")) }
                nibble = value
            }
            if let separatorInByte { return .failure(HexError(offset: separatorInByte, reason: "separator inside a byte")) }
            if let h = high { out.append(h << 4 | nibble); high = nil } else { high = nibble }
        }
        if high != nil { return .failure(HexError(offset: separatorInByte ?? index, reason: "odd number of hex digits")) }
        return .success(out)
    }
}

/// Why text is not hex, and at which character.
public struct HexError: Error, Hashable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var reason: String
    public var description: String { "\(reason) at character \(offset)" }
}
