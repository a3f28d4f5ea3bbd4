import NDEF
import NFCTags

/// An ISO 15693 chip's geometry and identity: the chips the simulator offers by name (block size
/// 4), or any other a dump describes.
public struct Type5Product: Hashable, Sendable {
    public var name: String
    public var blockCount: Int
    public var blockSize: Int
    /// A UID (most significant byte first: E0, manufacturer, …): NXP 04, ST 02.
    public var defaultUID: [UInt8]
    /// What GET SYSTEM INFORMATION answers after the UID: DSFID, AFI and the IC reference.
    public var dsfid: UInt8 = 0
    public var afi: UInt8 = 0
    public var icReference: UInt8 = 0x01

    public init(name: String, blockCount: Int, blockSize: Int, defaultUID: [UInt8], dsfid: UInt8 = 0, afi: UInt8 = 0, icReference: UInt8 = 0x01) {
        self.name = name
        self.blockCount = blockCount
        self.blockSize = blockSize
        self.defaultUID = defaultUID
        self.dsfid = dsfid
        self.afi = afi
        self.icReference = icReference
    }

    /// NXP ICODE UIDs: IC type 01, then the type indicator in bits 4–3 (SLIX 10, SLIX2 01).
    static let slixUID: [UInt8] = [0xE0, 0x04, 0x01, 0x10, 0x66, 0x2D, 0x4A, 0x90]
    static let slix2UID: [UInt8] = [0xE0, 0x04, 0x01, 0x08, 0x66, 0x2D, 0x4A, 0x90]

    /// NXP ICODE SLIX: 28 blocks, IC reference 0x01.
    public static let icodeSLIX = Type5Product(name: "ICODE SLIX", blockCount: 28, blockSize: 4, defaultUID: slixUID)
    /// NXP ICODE SLIX2: 80 blocks.
    public static let icodeSLIX2 = Type5Product(name: "ICODE SLIX2", blockCount: 80, blockSize: 4, defaultUID: slix2UID)
    /// ST ST25DV04K: 128 blocks.
    public static let st25dv04k = Type5Product(name: "ST25DV04K", blockCount: 128, blockSize: 4,
                                               defaultUID: [0xE0, 0x02, 0x26, 0x00, 0x1C, 0x5A, 0x7B, 0x31])

    public static let allCases: [Type5Product] = [.icodeSLIX, .icodeSLIX2, .st25dv04k]
}

/// An NFC Forum Type 5 object (ISO 15693) answering ISO 15693-3 frames (``Type5Command``):
/// INVENTORY (one slot, no mask: `00 DSFID UID`), GET SYSTEM INFORMATION, READ SINGLE BLOCK and
/// READ MULTIPLE BLOCKS, WRITE SINGLE BLOCK and LOCK BLOCK, non-addressed or addressed (flag
/// 0x20 with the UID, least significant byte first: another UID gets no answer), with the option
/// flag (0x40) adding a block security status byte per block read (01: locked), and ICODE's
/// custom READ SIGNATURE (BD, with NXP's manufacturer code 04 before any UID) where the chip has
/// a signature. ISO 15693 error
/// codes: 0x10 block not available (past the end), 0x11 already locked (LOCK BLOCK again), 0x12
/// locked (WRITE to a locked block), 0x0F a WRITE without one block's bytes, 0x01 an unknown
/// command. Errors do not silence the chip.
public struct VirtualType5Tag: VirtualObject {
    public static let platform = TagPlatform.type5

    public let product: Type5Product
    public let uid: [UInt8]
    public private(set) var memory: [UInt8]
    /// Blocks LOCK BLOCK has made read-only for good.
    public private(set) var lockedBlocks: Set<Int> = []
    public var presence: FieldPresence
    /// The originality signature READ SIGNATURE answers; nil: a chip without the command. A chip
    /// whose UID names an ICODE SLIX2 or DNA (``OriginalityFamily/icode(uid:)``) starts with 32
    /// zero bytes, as a made-up Type 2 chip does (``VirtualType2Tag/unsignedSignature``); a
    /// dump's replaces them.
    public var signature: [UInt8]?

    /// A chip formatted for NDEF: a 4-byte CC `E1 40 MLEN 01` (read multiple supported), the
    /// message in an NDEF TLV and a Terminator.
    public init(product: Type5Product, uid: [UInt8]? = nil, message: NDEFMessage?, presence: FieldPresence = FieldPresence()) throws(VirtualObjectError) {
        let total = product.blockCount * product.blockSize
        let mlen = (total - 4) / 8
        let area = try Type2MemoryImage.dataArea(holding: message, capacity: mlen * 8)
        try self.init(product: product, uid: uid, image: [0xE1, 0x40, UInt8(mlen), 0x01] + area + [UInt8](repeating: 0, count: total - 4 - area.count),
                      presence: presence)
    }

    /// A chip with a raw memory image of exactly its size.
    public init(product: Type5Product, uid: [UInt8]? = nil, image: [UInt8], presence: FieldPresence = FieldPresence()) throws(VirtualObjectError) {
        let uid = uid ?? product.defaultUID
        guard uid.count == 8 else { throw .invalidUID(length: uid.count) }
        guard image.count == product.blockCount * product.blockSize else {
            throw .wrongImageSize(expected: product.blockCount * product.blockSize, actual: image.count)
        }
        self.product = product
        self.uid = uid
        memory = image
        self.presence = presence
        signature = OriginalityFamily.icode(uid: uid) == nil ? nil : VirtualType2Tag.unsignedSignature
    }

    public var isPresent: Bool { presence.isPresent }

    public mutating func write(_ bytes: [UInt8], at offset: Int) {
        precondition(offset + bytes.count <= memory.count, "write past the end of the chip")
        memory.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
    }

    public func block(_ number: Int) -> [UInt8] {
        Array(memory[(number * product.blockSize)..<((number + 1) * product.blockSize)])
    }

    public mutating func reactivate() -> Bool { presence.isPresent }

    public mutating func respond(to frame: [UInt8]) -> VirtualReply {
        guard presence.admit() else { return .silence }
        guard frame.count >= 2 else { return .silence }
        let flags = frame[0], command = frame[1]
        var parameters = frame.dropFirst(2)
        // A custom command (A0–DF) carries the IC manufacturer code before the UID.
        let manufacturer = (0xA0...0xDF).contains(command) ? parameters.popFirst() : nil
        if flags & 0x04 != 0 {
            // Inventory flag: 0x20 is then "one slot", not "addressed". Only the no-mask form.
            guard command == Type5Command.inventory, flags & 0x20 != 0, parameters.first == 0x00 else { return .silence }
            return .frame([0x00, product.dsfid] + uid.reversed())
        }
        if flags & 0x20 != 0 {
            guard parameters.count >= 8, Array(parameters.prefix(8)) == uid.reversed() else { return .silence }
            parameters = parameters.dropFirst(8)
        }
        let option = flags & 0x40 != 0
        let params = Array(parameters)
        switch (command, params.count) {
        case (Type5Command.getSystemInformation, 0):
            return .frame([0x00, 0x0F] + uid.reversed() + [product.dsfid, product.afi, UInt8(product.blockCount - 1), UInt8(product.blockSize - 1), product.icReference])
        case (Type5Command.readSingleBlock, 1):
            return blocks(Int(params[0]), count: 1, option: option)
        case (Type5Command.readMultipleBlocks, 2):
            return blocks(Int(params[0]), count: Int(params[1]) + 1, option: option)
        case (Type5Command.writeSingleBlock, _) where !params.isEmpty:
            let block = Int(params[0])
            guard block < product.blockCount else { return .frame([0x01, 0x10]) }
            guard params.count == 1 + product.blockSize else { return .frame([0x01, 0x0F]) }
            guard !lockedBlocks.contains(block) else { return .frame([0x01, 0x12]) }
            memory.replaceSubrange((block * product.blockSize)..<((block + 1) * product.blockSize), with: params.dropFirst())
            return .frame([0x00])
        case (Type5Command.readSignatureCode, 0) where manufacturer == Type5Command.nxpManufacturer && signature != nil:
            return .frame([0x00] + (signature ?? []))
        case (Type5Command.lockBlock, 1):
            let block = Int(params[0])
            guard block < product.blockCount else { return .frame([0x01, 0x10]) }
            guard lockedBlocks.insert(block).inserted else { return .frame([0x01, 0x11]) }
            return .frame([0x00])
        default:
            return .frame([0x01, 0x01])
        }
    }

    private func blocks(_ first: Int, count: Int, option: Bool) -> VirtualReply {
        guard first + count <= product.blockCount else { return .frame([0x01, 0x10]) }
        return .frame([0x00] + (first..<(first + count)).flatMap { (option ? [lockedBlocks.contains($0) ? 0x01 : 0x00] : []) + block($0) })
    }
}
