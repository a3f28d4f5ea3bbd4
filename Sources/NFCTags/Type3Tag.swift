import NDEF

/// The Attribute Information Block of an NFC Forum Type 3 object: block 0 of the NDEF service
/// (NFC Forum Type 3 Tag 1.0 §7.1), 16 bytes.
///
/// ```
/// 0 Ver  1 Nbr  2 Nbw  3-4 Nmaxb  5-8 unused  9 WriteF  10 RWFlag  11-13 Ln  14-15 Checksum
/// ```
/// Multi-byte fields are big-endian; the checksum is the sum of bytes 0–13.
public struct Type3AttributeBlock: Hashable, Sendable {
    public var majorVersion: Int
    public var minorVersion: Int
    /// Most blocks one Check may read.
    public var blocksPerCheck: Int
    /// Most blocks one Update may write.
    public var blocksPerUpdate: Int
    /// Blocks available for the NDEF message (after the attribute block).
    public var maxBlocks: Int
    /// 0x00: no write in progress; 0x0F: a writer was interrupted, the message is incomplete.
    public var writeFlag: UInt8
    /// 0x00 read-only, 0x01 read/write.
    public var readWriteFlag: UInt8
    /// Length of the stored NDEF message in bytes.
    public var ndefLength: Int

    public static let size = 16
    public static let writeInProgress: UInt8 = 0x0F

    /// Decodes and checks block 0: checksum first (a corrupted block says nothing), then the
    /// version (major 1), a non-zero Nbr, a known WriteF, and Ln within Nmaxb blocks.
    public init(_ block: some Collection<UInt8>) throws(TagReadError) {
        try self.init(block, allowingWriteInProgress: false)
    }

    /// Decodes block 0 as above; a writer may take WriteF 0F (`allowingWriteInProgress`): it
    /// replaces the half-written message.
    public init(_ block: some Collection<UInt8>, allowingWriteInProgress: Bool) throws(TagReadError) {
        let b = Array(block.prefix(Self.size))
        guard b.count == Self.size else { throw .unexpectedResponse(command: "Check of the attribute block", expected: Self.size, received: b.count) }
        let stored = Int(b[14]) << 8 | Int(b[15])
        let computed = b[0..<14].reduce(0) { $0 + Int($1) }
        guard stored == computed else { throw .attributeChecksum(stored: stored, computed: computed) }
        majorVersion = Int(b[0] >> 4)
        minorVersion = Int(b[0] & 0x0F)
        guard majorVersion == 1 else { throw .capabilityContainer(.unsupportedVersion(major: majorVersion, minor: minorVersion)) }
        blocksPerCheck = Int(b[1])
        blocksPerUpdate = Int(b[2])
        maxBlocks = Int(b[3]) << 8 | Int(b[4])
        writeFlag = b[9]
        readWriteFlag = b[10]
        ndefLength = Int(b[11]) << 16 | Int(b[12]) << 8 | Int(b[13])
        guard blocksPerCheck > 0 else { throw .capabilityContainer(.invalidField("Nbr", value: 0, offset: 1)) }
        switch writeFlag {
        case 0x00: break
        case Self.writeInProgress: if !allowingWriteInProgress { throw .writeInProgress }
        default: throw .capabilityContainer(.invalidField("WriteF", value: Int(writeFlag), offset: 9))
        }
        guard ndefLength <= maxBlocks * 16 else { throw .invalidNDEFLength(ndefLength, maximum: maxBlocks * 16) }
    }

    /// `block` (an attribute block as read) with WriteF, RWFlag and Ln replaced and the checksum
    /// computed again; every other byte stays as the object has it.
    public static func updating(_ block: [UInt8], writeFlag: UInt8, readWriteFlag: UInt8, ndefLength: Int) -> [UInt8] {
        var b = Array(block.prefix(14))
        b[9] = writeFlag
        b[10] = readWriteFlag
        b[11] = UInt8(truncatingIfNeeded: ndefLength >> 16)
        b[12] = UInt8(truncatingIfNeeded: ndefLength >> 8)
        b[13] = UInt8(truncatingIfNeeded: ndefLength)
        let sum = b.reduce(0) { $0 + Int($1) }
        return b + [UInt8(truncatingIfNeeded: sum >> 8), UInt8(truncatingIfNeeded: sum)]
    }

    /// The 16 bytes, with the checksum computed (for simulators and writers).
    public static func encode(version: UInt8 = 0x10, blocksPerCheck: Int, blocksPerUpdate: Int, maxBlocks: Int,
                              writeFlag: UInt8 = 0x00, readWriteFlag: UInt8 = 0x01, ndefLength: Int) -> [UInt8] {
        var b: [UInt8] = [version, UInt8(truncatingIfNeeded: blocksPerCheck), UInt8(truncatingIfNeeded: blocksPerUpdate),
                          UInt8(truncatingIfNeeded: maxBlocks >> 8), UInt8(truncatingIfNeeded: maxBlocks), 0, 0, 0, 0,
                          writeFlag, readWriteFlag, UInt8(truncatingIfNeeded: ndefLength >> 16),
                          UInt8(truncatingIfNeeded: ndefLength >> 8), UInt8(truncatingIfNeeded: ndefLength)]
        let sum = b.reduce(0) { $0 + Int($1) }
        b += [UInt8(truncatingIfNeeded: sum >> 8), UInt8(truncatingIfNeeded: sum)]
        return b
    }
}

/// NFC-F (FeliCa) command frames as the ``TagTransport`` carries them for Type 3 objects: the
/// whole frame from its length byte on (`LEN CMD IDm …`, LEN counting itself), without preamble,
/// sync code or CRC; the response likewise. This is what a PN53x takes and returns in
/// InDataExchange for a FeliCa target (libnfc's `nfc-read-forum-tag3` builds the same frames).
public enum FeliCaFrame {
    public static let checkCode: UInt8 = 0x06
    public static let updateCode: UInt8 = 0x08
    /// Service code of NDEF data, read/write access (Type 3 Tag §6.2.2), what Update names.
    public static let ndefWriteService: UInt16 = 0x0009
    /// LEN, response code, IDm, status flag 1 and 2: the whole answer to Update.
    public static let updateResponseLength = 12
    /// The most blocks one Update frame holds: LEN counts to 255, and each block takes 16 bytes
    /// of data and 2 of block list.
    public static let maxBlocksPerUpdateFrame = (0xFF - 14) / 18
    public static let requestResponseCode: UInt8 = 0x04
    public static let pollingCode: UInt8 = 0x00
    /// Service code of NDEF data, read-only access (Type 3 Tag §6.2.2), little-endian on the air.
    public static let ndefReadService: UInt16 = 0x000B
    /// The system code an NDEF-formatted Type 3 object answers POLLING with.
    public static let ndefSystemCode: [UInt8] = [0x12, 0xFC]
    /// LEN, response code, IDm, status flag 1 and 2, number of blocks.
    public static let checkResponseHeader = 13

    /// Check of `blocks` from the NDEF service: one service, then one block list element per
    /// block (2-byte form `80 NN` below block 256, else the 3-byte form `00 LL HH`).
    public static func check(idm: [UInt8], service: UInt16 = ndefReadService, blocks: [Int]) -> [UInt8] {
        frame(checkCode, idm: idm, service: service, blocks: blocks)
    }

    /// Update of `blocks` of the NDEF service with `data` (16 bytes per block), laid out as Check.
    public static func update(idm: [UInt8], service: UInt16 = ndefWriteService, blocks: [Int], data: [UInt8]) -> [UInt8] {
        frame(updateCode, idm: idm, service: service, blocks: blocks, data: data)
    }

    /// POLLING for any system (`06 00 FF FF 00 00`): whichever object is in the field answers with its IDm.
    public static let pollingAny: [UInt8] = [0x06, pollingCode, 0xFF, 0xFF, 0x00, 0x00]

    static func frame(_ code: UInt8, idm: [UInt8], service: UInt16, blocks: [Int], data: [UInt8] = []) -> [UInt8] {
        var body: [UInt8] = [code] + idm + [0x01, UInt8(service & 0xFF), UInt8(service >> 8), UInt8(blocks.count)]
        for block in blocks {
            body += block < 0x100 ? [0x80, UInt8(block)] : [0x00, UInt8(block & 0xFF), UInt8(block >> 8 & 0xFF)]
        }
        return [UInt8(body.count + data.count + 1)] + body + data
    }
}

/// Reads the NDEF message of an NFC Forum Type 3 object (FeliCa Lite-S, FeliCa Standard with
/// the NDEF system, NFC-F phones).
///
/// 1. Check of block 0 of the NDEF service (0x000B): the Attribute Information Block, its
///    checksum verified, Ln bounded by Nmaxb.
/// 2. Check of blocks 1…⌈Ln/16⌉, `min(Nbr, what the link carries)` blocks per Check.
///
/// Round trips: 1 + ⌈blocks / Nbr⌉ (2 for a message of up to 64 bytes on a FeliCa Lite-S,
/// Nbr 4). The IDm comes from activation (POLLING); every frame carries it.
///
/// Reachability: libnfc (PN53x InDataExchange) carries these frames. PC/SC Part 3 readers do
/// not pass FeliCa Check frames in a portable way, so the PC/SC backend refuses Type 3.
public enum Type3Tag {
    public static func readNDEF(over transport: some TagTransport, idm: [UInt8]) async throws(TagReadError) -> TagReading {
        guard idm.count == 8 else { throw .unsupported("a FeliCa IDm has 8 bytes, not \(idm.count)") }
        var link = CountedLink(transport)
        let attribute = try Type3AttributeBlock(try await check([0], idm: idm, &link))
        let data = try await message(attribute, idm: idm, &link)
        return TagReading(platform: .type3, product: nil, uid: idm, capacity: attribute.maxBlocks * 16,
                          ndefBytes: data, roundTrips: link.roundTrips)
    }

    /// The Ln bytes of blocks 1…⌈Ln/16⌉, `min(Nbr, what the link carries)` blocks per Check.
    static func message(_ attribute: Type3AttributeBlock, idm: [UInt8], _ link: inout CountedLink) async throws(TagReadError) -> [UInt8] {
        let blocks = (attribute.ndefLength + 15) / 16
        // What one frame carries: the LEN byte counts to 255, and the link has its own limit.
        let fitsLink = (min(link.transport.capabilities.maxResponseLength, 0xFF) - FeliCaFrame.checkResponseHeader) / 16
        let perCheck = max(1, min(attribute.blocksPerCheck, fitsLink))
        var data: [UInt8] = []
        data.reserveCapacity(blocks * 16)
        var next = 1
        while next <= blocks {
            let count = min(perCheck, blocks - next + 1)
            data += try await check(Array(next..<(next + count)), idm: idm, &link)
            next += count
        }
        return Array(data.prefix(attribute.ndefLength))
    }

    /// One Check; the block data (16 bytes per block) after every header field is verified.
    static func check(_ blocks: [Int], idm: [UInt8], _ link: inout CountedLink) async throws(TagReadError) -> [UInt8] {
        let name = blocks.count == 1 ? "Check of block \(blocks[0])" : "Check of blocks \(blocks[0])–\(blocks[blocks.count - 1])"
        let response = try await link.send(FeliCaFrame.check(idm: idm, blocks: blocks))
        // Status flags arrive even on failure (then without block data): LEN 07 IDm SF1 SF2.
        guard response.count >= 12, Int(response[0]) == response.count, response[1] == FeliCaFrame.checkCode + 1,
              Array(response[2..<10]) == idm else {
            throw .unexpectedResponse(command: name, expected: FeliCaFrame.checkResponseHeader + 16 * blocks.count, received: response.count)
        }
        guard response[10] == 0, response[11] == 0 else { throw .felicaStatus(command: name, flag1: response[10], flag2: response[11]) }
        let expected = FeliCaFrame.checkResponseHeader + 16 * blocks.count
        guard response.count == expected, Int(response[12]) == blocks.count else {
            throw .unexpectedResponse(command: name, expected: expected, received: response.count)
        }
        return Array(response[FeliCaFrame.checkResponseHeader...])
    }
}
