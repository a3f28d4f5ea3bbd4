/// The TLV blocks that organise the data area of Type 1, 2 and 5 tag memory (NFC Forum Type 2
/// Tag 1.0 §2.3, Type 5 Tag 1.0 §4.3).
public struct TLVBlock: Hashable, Sendable {
    public enum Tag: Hashable, Sendable {
        /// 0x00: padding, no length or value.
        case null
        /// 0x01: where lock bits sit in dynamic memory.
        case lockControl
        /// 0x02: memory the NDEF data must skip (reserved areas).
        case memoryControl
        /// 0x03: an NDEF message.
        case ndefMessage
        /// 0xFD: vendor data.
        case proprietary
        /// 0xFE: the end of the data area's TLVs.
        case terminator
        /// Any other tag value, reserved by the specifications: 0x04–0xFC are TLVs a reader skips
        /// by their length; 0xFF is no TLV at all (it cannot start one: it is the 3-byte length's mark).
        case reserved(UInt8)

        public init(rawValue: UInt8) {
            self = switch rawValue {
            case 0x00: .null
            case 0x01: .lockControl
            case 0x02: .memoryControl
            case 0x03: .ndefMessage
            case 0xFD: .proprietary
            case 0xFE: .terminator
            default: .reserved(rawValue)
            }
        }

        public var rawValue: UInt8 {
            switch self {
            case .null: 0x00
            case .lockControl: 0x01
            case .memoryControl: 0x02
            case .ndefMessage: 0x03
            case .proprietary: 0xFD
            case .terminator: 0xFE
            case .reserved(let value): value
            }
        }
    }

    public var tag: Tag
    /// Offset of the tag byte in the scanned memory.
    public var offset: Int
    /// Where the value bytes sit in the scanned memory (empty for NULL and Terminator).
    public var valueRange: Range<Int>
}

/// Why tag memory holds no readable TLV structure, and what to read next.
public enum TLVError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The memory ends inside a TLV. `needed` is how many bytes from the start of the scanned
    /// memory must be read to get past it: a reader reads that far and scans again.
    case truncated(offset: Int, needed: Int)
    /// A 3-byte length form encodes a value below 0xFF, or 0xFFFF (reserved).
    case invalidLength(offset: Int, value: Int)
    /// A Lock or Memory Control TLV whose length is not 3.
    case invalidControlLength(offset: Int, length: Int)
    /// Tag 0xFF, which no version of the specifications gives a TLV (0x04–0xFC are skipped).
    case reservedTag(offset: Int, tag: UInt8)
    /// A Lock or Memory Control TLV takes out of the data area bytes at `byteAddress` that the
    /// walk already read as TLVs (its own, or those before it).
    case reservedAreaOverTLVs(byteAddress: Int)
    /// More Lock and Memory Control areas than any chip has: the walk gives up rather than walk
    /// again for each.
    case tooManyReservedAreas(Int)

    /// Where in the walked memory the TLV that stopped the walk starts (nil: not a TLV's fault).
    public var offset: Int? {
        switch self {
        case .truncated(let offset, _), .invalidLength(let offset, _), .invalidControlLength(let offset, _),
             .reservedTag(let offset, _):
            offset
        case .reservedAreaOverTLVs, .tooManyReservedAreas:
            nil
        }
    }

    public var description: String {
        switch self {
        case .truncated(let offset, let needed):
            "tag memory ends inside the TLV at byte \(offset) (\(needed) bytes needed)"
        case .invalidLength(let offset, let value):
            "invalid 3-byte TLV length \(value) at byte \(offset)"
        case .invalidControlLength(let offset, let length):
            "control TLV of length \(length) (must be 3) at byte \(offset)"
        case .reservedTag(let offset, let tag):
            "reserved TLV tag \(Hex.code(tag)) at byte \(offset)"
        case .reservedAreaOverTLVs(let address):
            "a control TLV reserves byte \(address), which holds the TLVs before it"
        case .tooManyReservedAreas(let count):
            "\(count) reserved areas announced (at most \(TLVDataArea.maximumReservedAreas))"
        }
    }
}

/// Walks TLV blocks in a tag's data area.
public enum TLVWalker {
    /// The TLVs a reader needs: up to and including the first NDEF Message TLV or the Terminator,
    /// whichever comes first (or to the end of `memory` when there is neither). A TLV with a
    /// reserved tag (0x04–0xFC) is kept as a block and walked past by its length, as the
    /// specifications ask of a reader, so a later version's TLVs do not hide the message.
    ///
    /// A reader that reads incrementally calls this on what it has; ``TLVError/truncated(offset:needed:)``
    /// says how much more to read. Scanning stops once the message is read, as the Type 2 read
    /// procedure, Android and nfcpy do: real objects often leave old bytes after their message
    /// and no Terminator, and those bytes must not make a good message unreadable.
    public static func blocks(in memory: [UInt8]) throws(TLVError) -> [TLVBlock] {
        var blocks: [TLVBlock] = []
        var index = 0
        while index < memory.count {
            let offset = index
            let tag = TLVBlock.Tag(rawValue: memory[index])
            index += 1
            switch tag {
            case .null:
                blocks.append(TLVBlock(tag: tag, offset: offset, valueRange: index..<index))
                continue
            case .terminator:
                blocks.append(TLVBlock(tag: tag, offset: offset, valueRange: index..<index))
                return blocks
            case .reserved(let raw) where raw == 0xFF:
                throw .reservedTag(offset: offset, tag: raw)
            case .lockControl, .memoryControl, .ndefMessage, .proprietary, .reserved:
                break
            }
            guard index < memory.count else { throw .truncated(offset: offset, needed: index + 1) }
            var length = Int(memory[index])
            index += 1
            if length == 0xFF {
                guard index + 2 <= memory.count else { throw .truncated(offset: offset, needed: index + 2) }
                length = Int(memory[index]) << 8 | Int(memory[index + 1])
                index += 2
                guard length >= 0xFF && length < 0xFFFF else { throw .invalidLength(offset: offset, value: length) }
            }
            if tag == .lockControl || tag == .memoryControl, length != 3 {
                throw .invalidControlLength(offset: offset, length: length)
            }
            guard length <= memory.count - index else { throw .truncated(offset: offset, needed: index + length) }
            blocks.append(TLVBlock(tag: tag, offset: offset, valueRange: index..<(index + length)))
            if tag == .ndefMessage { return blocks }
            index += length
        }
        return blocks
    }

    /// The bytes of the first NDEF Message TLV, or nil when the memory holds none (an empty NDEF
    /// TLV, length 0, gives `[]`: a formatted object with no message yet).
    public static func firstNDEFMessage(in memory: [UInt8]) throws(TLVError) -> [UInt8]? {
        for block in try blocks(in: memory) where block.tag == .ndefMessage {
            return Array(memory[block.valueRange])
        }
        return nil
    }

    /// Encodes one TLV (1-byte length below 0xFF, else the 3-byte form). Values of 0xFFFF bytes or
    /// more cannot be written.
    public static func encode(_ tag: TLVBlock.Tag, value: [UInt8]) -> [UInt8]? {
        switch tag {
        case .null, .terminator: return value.isEmpty ? [tag.rawValue] : nil
        default: break
        }
        guard value.count < 0xFFFF else { return nil }
        let length: [UInt8] = value.count < 0xFF ? [UInt8(value.count)] : [0xFF, UInt8(value.count >> 8), UInt8(value.count & 0xFF)]
        return [tag.rawValue] + length + value
    }
}

/// The value of a Lock Control or Memory Control TLV: where an area sits in dynamic memory.
public struct MemoryControl: Hashable, Sendable {
    /// Byte address of the area: page address × page size + byte offset.
    public var byteAddress: Int
    /// Lock Control: number of lock bits; Memory Control: number of reserved bytes.
    public var size: Int
    /// Bytes per page (2^n), from the low nibble of the third byte.
    public var bytesPerPage: Int
    /// Lock Control only: bytes locked per lock bit (2^n), from the high nibble of the third byte.
    public var bytesLockedPerLockBit: Int

    /// Decodes the 3 value bytes. A size of 0 means 256.
    public init(value: some Collection<UInt8>) throws(TLVError) {
        guard value.count == 3 else { throw .invalidControlLength(offset: 0, length: value.count) }
        let bytes = Array(value)
        bytesPerPage = 1 << Int(bytes[2] & 0x0F)
        bytesLockedPerLockBit = 1 << Int(bytes[2] >> 4)
        byteAddress = Int(bytes[0] >> 4) * bytesPerPage + Int(bytes[0] & 0x0F)
        size = bytes[1] == 0 ? 256 : Int(bytes[1])
    }
}
