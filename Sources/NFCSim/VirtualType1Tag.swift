import NDEF
import NFCTags

/// A Topaz (Innovision/Broadcom Jewel family, NFC Forum Type 1) answering RID, RALL, READ and —
/// for the dynamic Topaz 512 — READ8 and RSEG from its memory image, as the Topaz data sheets
/// and the NFC Forum Type 1 Tag specification describe.
///
/// Commands arrive in the short form a PN53x takes (command, ADD, DATA) or in the full air form
/// with zero padding and the UID echo (7 bytes; 14 for the 8-byte commands); a full frame
/// echoing another UID gets no answer, as on the air. Replies are the air replies without
/// CRC_B: RID `HR0 HR1 UID0-3`; RALL `HR0 HR1` + bytes 0–119; READ `ADD DATA`; READ8 `ADD8` +
/// 8 bytes; RSEG `ADDS` + 128 bytes. A Topaz 96 does not know READ8/RSEG and stays silent.
///
/// Writes as the chip honours them: WRITE-E (`53 ADD DATA`) and WRITE-NE (`1A ADD DATA`, bits
/// ORed in) of a static byte answer `ADD DATA` as stored; WRITE-E8 (`54 ADD8` + 8 bytes, Topaz
/// 512) of a data block answers `ADD8` and the block. The UID block, block D, a block whose
/// static lock bit (LOCK0/LOCK1, bytes 112–113) or dynamic lock bit (bytes 122–127, one bit per
/// 8-byte block from byte 128) is set stay as they are and get no answer; the lock and OTP bytes
/// (block E, bytes 122–127) only take bits, as WRITE-E or WRITE-NE.
public struct VirtualType1Tag: VirtualObject {
    public static let platform = TagPlatform.type1

    public enum Product: String, Hashable, Sendable, CaseIterable {
        /// Static memory: 120 bytes (blocks 0–E), 92 bytes of data area. HR0 11 HR1 48.
        case topaz96
        /// Dynamic memory: 512 bytes (64 blocks). HR0 12 HR1 4C.
        case topaz512

        public var headerROM: [UInt8] { self == .topaz96 ? [0x11, 0x48] : [0x12, 0x4C] }
        public var memorySize: Int { self == .topaz96 ? 120 : 512 }
        public var name: String { self == .topaz96 ? "Topaz 96" : "Topaz 512" }
    }

    /// A 7-byte UID (UID0–3 are what RID and the PN53x's Jewel ID report).
    public static let defaultUID: [UInt8] = [0x92, 0x4B, 0x1C, 0x33, 0x5D, 0x07, 0x00]
    /// The control TLVs a Topaz 512 is formatted with: Lock Control (48 lock bits at byte 122)
    /// and Memory Control (2 reserved bytes at byte 120).
    public static let topaz512ControlTLVs: [UInt8] = [0x01, 0x03, 0xF2, 0x30, 0x33, 0x02, 0x03, 0xF0, 0x02, 0x03]

    public let product: Product
    /// HR0 HR1 as RID and RALL answer them: the product's, or another chip's that a test presents.
    public var headerROM: [UInt8]
    public private(set) var memory: [UInt8]
    public var presence: FieldPresence

    /// A chip formatted for NDEF holding `message` (nil: an empty NDEF TLV).
    public init(product: Product, uid: [UInt8] = defaultUID, message: NDEFMessage?,
                presence: FieldPresence = FieldPresence()) throws(VirtualObjectError) {
        let prefix = product == .topaz512 ? Self.topaz512ControlTLVs : []
        let capacity = Self.dataAddresses(product).count - prefix.count
        let area = prefix + (try Type2MemoryImage.dataArea(holding: message, capacity: capacity))
        try self.init(product: product, uid: uid, dataArea: area, presence: presence)
    }

    /// A chip whose data area (byte 12 on, skipping the reserved blocks) holds exactly `dataArea`.
    public init(product: Product, uid: [UInt8] = defaultUID, dataArea: [UInt8],
                presence: FieldPresence = FieldPresence()) throws(VirtualObjectError) {
        guard uid.count == 7 else { throw .invalidUID(length: uid.count) }
        let addresses = Self.dataAddresses(product)
        guard dataArea.count <= addresses.count else { throw .doesNotFit(needed: dataArea.count, capacity: addresses.count) }
        var image = [UInt8](repeating: 0, count: product.memorySize)
        image.replaceSubrange(0..<7, with: uid)
        image.replaceSubrange(8..<12, with: [0xE1, 0x10, UInt8(product.memorySize / 8 - 1), 0x00])
        for (address, byte) in zip(addresses, dataArea) { image[address] = byte }
        self.init(product: product, image: image, presence: presence)
    }

    /// A chip with a raw memory image (120 or 512 bytes), block 0 on.
    public init(product: Product, image: [UInt8], presence: FieldPresence = FieldPresence()) {
        precondition(image.count == product.memorySize, "a \(product.name) has \(product.memorySize) bytes")
        self.product = product
        headerROM = product.headerROM
        memory = image
        self.presence = presence
    }

    /// Where the formatted data area lies: byte 12 to the end, without blocks D and E (and, on a
    /// Topaz 512, without the areas its control TLVs reserve, bytes 120–127).
    static func dataAddresses(_ product: Product) -> [Int] {
        (12..<product.memorySize).filter { !(104..<128).contains($0) }
    }

    public var uid: [UInt8] { Array(memory[0..<7]) }
    public var isPresent: Bool { presence.isPresent }

    public mutating func write(_ bytes: [UInt8], at address: Int) {
        precondition(address + bytes.count <= memory.count, "write past the end of the chip")
        memory.replaceSubrange(address..<(address + bytes.count), with: bytes)
    }

    public mutating func reactivate() -> Bool { presence.isPresent }

    public mutating func respond(to frame: [UInt8]) -> VirtualReply {
        guard presence.admit(), let code = frame.first else { return .silence }
        let dynamic = product == .topaz512
        // Short form length, full form length.
        let lengths: (Int, Int)
        switch code {
        case Type1Command.rid, Type1Command.rall: lengths = (1, 7)
        case Type1Command.read: lengths = (2, 7)
        case Type1Command.read8 where dynamic, Type1Command.rseg where dynamic: lengths = (2, 14)
        case Type1Command.writeE, Type1Command.writeNE: lengths = (3, 7)
        case Type1Command.writeE8 where dynamic: lengths = (10, 14)
        default: return .silence
        }
        if frame.count == lengths.1 {
            // The UID echo (not for RID, which asks for it).
            guard code == Type1Command.rid || Array(frame.suffix(4)) == Array(memory[0..<4]) else { return .silence }
        } else if frame.count != lengths.0 {
            return .silence
        }
        switch code {
        case Type1Command.rid:
            return .frame(headerROM + memory[0..<4])
        case Type1Command.rall:
            return .frame(headerROM + memory[0..<Type1Command.staticMemorySize])
        case Type1Command.read:
            let address = Int(frame[1] & 0x7F)
            guard address < Type1Command.staticMemorySize else { return .silence }
            return .frame([frame[1], memory[address]])
        case Type1Command.writeE, Type1Command.writeNE:
            let address = Int(frame[1] & 0x7F)
            guard address < product.memorySize, mayWrite(block: address / 8) else { return .silence }
            // Lock and OTP bytes only take bits.
            let orOnly = code == Type1Command.writeNE || (112..<120).contains(address) || (dynamic && (122..<128).contains(address))
            memory[address] = orOnly ? memory[address] | frame[2] : frame[2]
            return .frame([frame[1], memory[address]])
        case Type1Command.writeE8:
            let number = Int(frame[1])
            guard number * 8 + 8 <= memory.count, number >= 0x10 || (1...0x0C).contains(number), mayWrite(block: number) else { return .silence }
            memory.replaceSubrange((number * 8)..<(number * 8 + 8), with: frame[2..<10])
            return .frame([frame[1]] + memory[(number * 8)..<(number * 8 + 8)])
        case Type1Command.read8:
            let start = Int(frame[1]) * 8
            guard start + 8 <= memory.count else { return .silence }
            return .frame([frame[1]] + memory[start..<(start + 8)])
        default:  // RSEG
            let start = Int(frame[1] >> 4) * Type1Command.segmentSize
            guard start + Type1Command.segmentSize <= memory.count else { return .silence }
            return .frame([frame[1]] + memory[start..<(start + Type1Command.segmentSize)])
        }
    }

    /// Whether a write may change `block`: not the UID block nor block D, and no lock bit set
    /// over it (LOCK0/LOCK1 for blocks 0–E; on a Topaz 512 bytes 122–127, a bit per block from 0x10).
    func mayWrite(block: Int) -> Bool {
        guard block != 0, block != 0x0D else { return false }
        let staticLocks = Int(memory[112]) | (Int(memory[113]) << 8)
        if block < 0x0F { return staticLocks & (1 << block) == 0 }
        guard block >= 0x10 else { return true }
        let bit = block - 0x10
        return bit >= 48 || memory[122 + bit / 8] & (1 << (bit % 8)) == 0
    }
}
