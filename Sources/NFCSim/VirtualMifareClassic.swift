import NDEF
import NFCTags

/// The whole memory of a MIFARE Classic formatted for NDEF as NXP AN1304 describes it.
public enum MifareClassicImage {
    /// A 4-byte NUID.
    public static let defaultUID: [UInt8] = [0x5C, 0x2A, 0x91, 0xE3]

    /// Block 0 (UID, BCC, SAK, ATQA, manufacturer data); sector 0 holding MAD1 (every sector
    /// 1–15 given the NDEF AID, GPB C1 on a 1K, C2 on a 4K); on a 4K sector 16 holding MAD2
    /// (sectors 17–39 NDEF); the NDEF sectors' data blocks holding `message` in an NDEF TLV and a
    /// Terminator, with the public key A D3F7D3F7D3F7 and GPB 40 in their trailers.
    public static func make(size: MifareClassicSize, uid: [UInt8] = defaultUID, message: NDEFMessage?) throws(VirtualObjectError) -> [UInt8] {
        guard uid.count == 4 || uid.count == 7 else { throw .invalidUID(length: uid.count) }
        let ndefSectors = MifareClassicNDEF.ndefSectors(formatting: size)
        let capacity = ndefSectors.reduce(0) { $0 + (size.blocks(inSector: $1) - 1) * MifareClassicSize.blockSize }
        let area = try Type2MemoryImage.dataArea(holding: message, capacity: capacity)
        return makeImage(size: size, uid: uid, ndefSectors: ndefSectors, dataArea: area)
    }

    /// A chip in its delivery state: block 0, every sector opening with the transport keys
    /// (FF…FF, access bits FF 07 80, GPB 69), data blocks holding `fill` (leftovers from an
    /// earlier life: a format must never let them read as a message).
    public static func blank(size: MifareClassicSize, uid: [UInt8] = defaultUID, fill: UInt8 = 0x00) -> [UInt8] {
        var memory = makeImage(size: size, uid: uid, ndefSectors: [], dataArea: [])
        for sector in 0..<size.sectorCount {
            for block in size.firstBlock(ofSector: sector)..<size.trailerBlock(ofSector: sector) where block != 0 {
                memory.replaceSubrange((block * 16)..<(block * 16 + 16), with: [UInt8](repeating: fill, count: 16))
            }
            let trailer = MifareClassicTrailer.make(keyA: MifareClassicTrailer.transportKey,
                                                    accessBits: MifareClassicTrailer.transportAccessBits, generalPurposeByte: 0x69)
            let at = size.trailerBlock(ofSector: sector) * 16
            memory.replaceSubrange(at..<(at + 16), with: trailer)
        }
        return memory
    }

    /// An image whose NDEF sectors' data blocks hold exactly `dataArea` (then zeros).
    public static func makeImage(size: MifareClassicSize, uid: [UInt8], ndefSectors: [Int], dataArea: [UInt8]) -> [UInt8] {
        var memory = [UInt8](repeating: 0, count: size.blockCount * MifareClassicSize.blockSize)
        func put(_ bytes: [UInt8], block: Int) {
            memory.replaceSubrange((block * 16)..<(block * 16 + bytes.count), with: bytes)
        }
        let uid4 = Array(uid.suffix(4))
        let atqa: [UInt8] = size == .classic4K ? [0x02, 0x00] : [0x04, 0x00]
        put(uid4 + [uid4.reduce(0, ^), size.sak] + atqa + [0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69], block: 0)
        let directory = MifareClassicNDEF.directory(size: size, ndefSectors: ndefSectors)
        put(Array(directory.mad1[0..<16]), block: 1)
        put(Array(directory.mad1[16..<32]), block: 2)
        let gpb = MifareClassicNDEF.madGeneralPurposeByte(size)
        for sector in 0..<size.sectorCount {
            let trailer = MifareClassicNDEF.isMADSector(sector, size: size)
                ? MifareClassicTrailer.mad(generalPurposeByte: gpb)
                : ndefSectors.contains(sector)
                ? MifareClassicTrailer.ndef
                : MifareClassicTrailer.make(keyA: MifareClassicTrailer.transportKey, accessBits: MifareClassicTrailer.transportAccessBits,
                                            generalPurposeByte: 0x69)
            put(trailer, block: size.trailerBlock(ofSector: sector))
        }
        if let mad2 = directory.mad2 {
            let first = size.firstBlock(ofSector: MifareClassicNDEF.mad2Sector)
            for index in 0..<3 { put(Array(mad2[(index * 16)..<(index * 16 + 16)]), block: first + index) }
        }
        var rest = dataArea[...]
        for sector in ndefSectors {
            for block in size.firstBlock(ofSector: sector)..<size.trailerBlock(ofSector: sector) where !rest.isEmpty {
                put(Array(rest.prefix(16)), block: block)
                rest = rest.dropFirst(16)
            }
        }
        return memory
    }
}

/// One of a sector's two keys.
public struct MifareClassicKeySlot: Hashable, Sendable {
    public var sector: Int
    public var keyB: Bool

    public init(sector: Int, keyB: Bool) {
        self.sector = sector
        self.keyB = keyB
    }
}


/// A MIFARE Classic 1K/4K (or Mini) as the chip behaves behind a reader that does the
/// authentication and Crypto1 itself (a PN53x, a PC/SC reader), so the object sees the frames
/// of ``MifareClassicCommand``:
///
/// - AUTHENTICATE checks the 4 UID bytes and the key against the sector trailer (key A or B).
///   Success authenticates that sector (an empty response); a wrong key, or a key in
///   ``unknownKeys`` (a dump that could not read it), gets NAK 4 and sends the chip to IDLE (it
///   answers nothing until re-activated), as the real chip stops answering.
/// - READ of a block in the authenticated sector returns its 16 bytes when the trailer's access
///   bits let the key read it (MF1S50 data sheet §8.7: key B grants nothing while key B itself
///   is readable); trailers read with their keys as zeros (the access bits of the NDEF formats
///   never let keys be read). A READ outside the authenticated sector, without authentication
///   or that the access bits forbid, gets NAK 4 and IDLE.
/// - WRITE (`A0 BB` + 16 bytes, as a PN53x passes MIFARE WRITE on) of a block in the
///   authenticated sector stores it when the access bits let the key write it (an empty
///   response: the PN53x has taken both ACKs); a trailer write changes only the parts (key A,
///   access bits with the GPB, key B) the key may change, and is refused when it may change
///   none. Block 0 (manufacturer data) is never written. Refusals: NAK 4 and IDLE.
/// - Other commands: NAK 0 and IDLE.
public struct VirtualMifareClassic: VirtualObject {
    public static let platform = TagPlatform.mifareClassic

    public let size: MifareClassicSize
    public let uid: [UInt8]
    public private(set) var memory: [UInt8]
    public var presence: FieldPresence
    public private(set) var isIdle = false
    public private(set) var authenticatedSector: Int?
    /// Whether the sector was authenticated with key B.
    public private(set) var authenticatedWithKeyB = false
    /// Keys the chip refuses whatever the reader sends: the ones a dump could not read.
    public var unknownKeys: Set<MifareClassicKeySlot> = []
    /// ATQA (as libnfc prints it) and SAK of a dumped chip; nil: the size's own.
    public var atqa: [UInt8]?
    public var sak: UInt8?
    /// AUTHENTICATE commands answered so far, and refused.
    public private(set) var authentications = 0
    public private(set) var refusedAuthentications = 0

    public init(size: MifareClassicSize, uid: [UInt8] = MifareClassicImage.defaultUID, message: NDEFMessage?,
                presence: FieldPresence = FieldPresence()) throws(VirtualObjectError) {
        let image = try MifareClassicImage.make(size: size, uid: uid, message: message)
        try self.init(size: size, uid: uid, image: image, presence: presence)
    }

    /// A chip with a raw memory image of exactly its size (block 0 on).
    public init(size: MifareClassicSize, uid: [UInt8] = MifareClassicImage.defaultUID, image: [UInt8],
                presence: FieldPresence = FieldPresence()) throws(VirtualObjectError) {
        guard uid.count == 4 || uid.count == 7 else { throw .invalidUID(length: uid.count) }
        guard image.count == size.blockCount * MifareClassicSize.blockSize else {
            throw .wrongImageSize(expected: size.blockCount * MifareClassicSize.blockSize, actual: image.count)
        }
        self.size = size
        self.uid = uid
        memory = image
        self.presence = presence
    }

    public var isPresent: Bool { presence.isPresent }

    /// Overwrites memory from `block` on (for hostile images).
    public mutating func write(_ bytes: [UInt8], atBlock block: Int) {
        let start = block * MifareClassicSize.blockSize
        precondition(start + bytes.count <= memory.count, "write past the end of the chip")
        memory.replaceSubrange(start..<(start + bytes.count), with: bytes)
    }

    public func block(_ number: Int) -> [UInt8] {
        Array(memory[(number * MifareClassicSize.blockSize)..<((number + 1) * MifareClassicSize.blockSize)])
    }

    /// MIFARE WRITE, with the access bits enforced as the chip enforces them.
    private mutating func write(block: Int, _ bytes: [UInt8]) -> VirtualReply {
        guard block > 0, block < size.blockCount, let sector = authenticatedSector, sector == size.sector(ofBlock: block) else { return .nak(0x4) }
        let trailerBlock = size.trailerBlock(ofSector: sector)
        let access = MifareClassicAccess(trailer: self.block(trailerBlock))
        guard block == trailerBlock else {
            let group = MifareClassicAccess.group(ofOffset: block - size.firstBlock(ofSector: sector), blocksInSector: size.blocks(inSector: sector))
            guard access.mayWrite(group: group, withKeyB: authenticatedWithKeyB) else { return .nak(0x4) }
            write(bytes, atBlock: block)
            return .frame([])
        }
        let parts = access.trailerWrites(withKeyB: authenticatedWithKeyB)
        guard parts.keyA || parts.accessBits || parts.keyB else { return .nak(0x4) }
        var trailer = self.block(trailerBlock)
        if parts.keyA { trailer.replaceSubrange(0..<6, with: bytes[0..<6]) }
        if parts.accessBits { trailer.replaceSubrange(6..<10, with: bytes[6..<10]) }
        if parts.keyB { trailer.replaceSubrange(10..<16, with: bytes[10..<16]) }
        write(trailer, atBlock: trailerBlock)
        return .frame([])
    }

    public mutating func reactivate() -> Bool {
        guard presence.isPresent else { return false }
        isIdle = false
        authenticatedSector = nil
        return true
    }

    public mutating func respond(to frame: [UInt8]) -> VirtualReply {
        guard presence.admit(), !isIdle else { return .silence }
        let reply = answer(frame)
        if case .nak = reply {
            isIdle = true
            authenticatedSector = nil
        }
        return reply
    }

    private mutating func answer(_ frame: [UInt8]) -> VirtualReply {
        switch (frame.first, frame.count) {
        case (MifareClassicCommand.authenticateA?, 12), (MifareClassicCommand.authenticateB?, 12):
            authentications += 1
            let block = Int(frame[1])
            guard block < size.blockCount else { return .nak(0x4) }
            let sector = size.sector(ofBlock: block)
            let trailer = self.block(size.trailerBlock(ofSector: sector))
            let keyB = frame[0] == MifareClassicCommand.authenticateB
            let key = keyB ? Array(trailer[10..<16]) : Array(trailer[0..<6])
            guard !unknownKeys.contains(MifareClassicKeySlot(sector: sector, keyB: keyB)),
                  Array(frame[2..<8]) == key, Array(frame[8..<12]) == Array(uid.suffix(4)) else {
                refusedAuthentications += 1
                return .nak(0x4)
            }
            authenticatedSector = sector
            authenticatedWithKeyB = keyB
            return .frame([])
        case (MifareClassicCommand.read?, 2):
            let block = Int(frame[1])
            guard block < size.blockCount, let sector = authenticatedSector, sector == size.sector(ofBlock: block) else { return .nak(0x4) }
            let access = MifareClassicAccess(trailer: self.block(size.trailerBlock(ofSector: sector)))
            let group = MifareClassicAccess.group(ofOffset: block - size.firstBlock(ofSector: sector), blocksInSector: size.blocks(inSector: sector))
            guard block == size.trailerBlock(ofSector: sector) || access.mayRead(group: group, withKeyB: authenticatedWithKeyB) else { return .nak(0x4) }
            var data = self.block(block)
            if block == size.trailerBlock(ofSector: size.sector(ofBlock: block)) {
                data.replaceSubrange(0..<6, with: [UInt8](repeating: 0, count: 6))
                data.replaceSubrange(10..<16, with: [UInt8](repeating: 0, count: 6))
            }
            return .frame(data)
        case (MifareClassicCommand.write?, 18):
            return write(block: Int(frame[1]), Array(frame[2...]))
        default:
            return .nak(0x0)
        }
    }
}
