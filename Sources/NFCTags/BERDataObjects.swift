/// BER-TLV data objects as PC/SC Part 3's transparent exchange carries them (`81 00`,
/// `5F46 04 …`, `95 LL …`, `C0 03 …`, `97 81 LL …`): one- or two-byte tags, definite lengths in
/// one, two (`81 LL`) or three (`82 LL LL`) bytes. The reader and the simulated reader read and
/// write them with this one piece.
public struct BERDataObject: Hashable, Sendable {
    public var tag: UInt16
    public var value: [UInt8]

    public init(tag: UInt16, value: [UInt8]) {
        self.tag = tag
        self.value = value
    }

    /// Tag, length and value, as they go on the wire.
    public var encoded: [UInt8] {
        let tagBytes: [UInt8] = tag > 0xFF ? [UInt8(tag >> 8), UInt8(tag & 0xFF)] : [UInt8(tag)]
        let length: [UInt8] = switch value.count {
        case ..<0x80: [UInt8(value.count)]
        case ..<0x100: [0x81, UInt8(value.count)]
        default: [0x82, UInt8(value.count >> 8), UInt8(value.count & 0xFF)]
        }
        return tagBytes + length + value
    }

    /// Every object in `bytes`, in order; nil when they do not parse to the last byte (a tag or
    /// length cut short, a length past the end, an indefinite or over-long length form).
    public static func parse(_ bytes: some Collection<UInt8>) -> [BERDataObject]? {
        let bytes = Array(bytes)
        var objects: [BERDataObject] = []
        var index = 0
        while index < bytes.count {
            var tag = UInt16(bytes[index])
            index += 1
            if tag & 0x1F == 0x1F {
                guard index < bytes.count else { return nil }
                tag = tag << 8 | UInt16(bytes[index])
                index += 1
            }
            guard index < bytes.count else { return nil }
            var length = Int(bytes[index])
            index += 1
            if length & 0x80 != 0 {
                let count = length & 0x7F
                guard (1...2).contains(count), index + count <= bytes.count else { return nil }
                length = bytes[index..<(index + count)].reduce(0) { $0 << 8 | Int($1) }
                index += count
            }
            guard length <= bytes.count - index else { return nil }
            objects.append(BERDataObject(tag: tag, value: Array(bytes[index..<(index + length)])))
            index += length
        }
        return objects
    }
}
