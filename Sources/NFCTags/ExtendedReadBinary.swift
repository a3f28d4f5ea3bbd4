/// READ BINARY with an offset data object (INS B1, ISO 7816-4 §11.2.3; Type 4 Tag 3.0): the
/// form that reaches offsets past 32 767, which the 15-bit P1–P2 offset of INS B0 cannot.
///
/// The command carries the offset as `54 03 <3-byte offset>`; the response wraps the bytes read
/// in a discretionary data object, `53 <BER length> <data>`, so Le counts that header too.
public enum ExtendedReadBinary {
    public static let instruction: UInt8 = 0xB1
    public static let offsetTag: UInt8 = 0x54
    public static let dataTag: UInt8 = 0x53

    /// The command reading `length` bytes from `offset` (Le includes the response header).
    public static func command(offset: Int, length: Int) -> CommandAPDU {
        CommandAPDU(ins: instruction, p1: 0x00, p2: 0x00,
                    data: [offsetTag, 0x03, UInt8(offset >> 16 & 0xFF), UInt8(offset >> 8 & 0xFF), UInt8(offset & 0xFF)],
                    le: length + headerLength(for: length))
    }

    /// The offset a command's data field names, or nil when it is not one offset data object.
    public static func offset(inCommandData data: [UInt8]) -> Int? {
        guard data.count == 5, data[0] == offsetTag, data[1] == 0x03 else { return nil }
        return Int(data[2]) << 16 | Int(data[3]) << 8 | Int(data[4])
    }

    /// Bytes of `53` tag and BER length in front of `length` data bytes.
    public static func headerLength(for length: Int) -> Int {
        length < 0x80 ? 2 : length <= 0xFF ? 3 : 4
    }

    /// Wraps data as the object answers it.
    public static func response(data: [UInt8]) -> [UInt8] {
        let length: [UInt8] = switch data.count {
        case ..<0x80: [UInt8(data.count)]
        case ...0xFF: [0x81, UInt8(data.count)]
        default: [0x82, UInt8(data.count >> 8 & 0xFF), UInt8(data.count & 0xFF)]
        }
        return [dataTag] + length + data
    }

    /// The data inside a response's discretionary data object; nil when the response is not
    /// exactly one such object.
    public static func data(inResponse bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 2, bytes[0] == dataTag else { return nil }
        let (length, header): (Int, Int)
        switch bytes[1] {
        case ..<0x80: (length, header) = (Int(bytes[1]), 2)
        case 0x81 where bytes.count >= 3: (length, header) = (Int(bytes[2]), 3)
        case 0x82 where bytes.count >= 4: (length, header) = (Int(bytes[2]) << 8 | Int(bytes[3]), 4)
        default: return nil
        }
        guard bytes.count == header + length else { return nil }
        return Array(bytes[header...])
    }
}
