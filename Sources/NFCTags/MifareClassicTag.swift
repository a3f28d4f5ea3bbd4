import NDEF

/// MIFARE Classic geometry: 1K (16 sectors of 4 blocks), 4K (32 sectors of 4 blocks, then 8 big
/// sectors of 16 blocks) and Mini (5 sectors). A block holds 16 bytes; the last block of every
/// sector is its trailer (key A, access bits, general purpose byte, key B).
public enum MifareClassicSize: String, Hashable, Sendable, CaseIterable {
    case mini, classic1K, classic4K

    public static let blockSize = 16

    public var sectorCount: Int {
        switch self {
        case .mini: 5
        case .classic1K: 16
        case .classic4K: 40
        }
    }

    public var blockCount: Int { firstBlock(ofSector: sectorCount - 1) + blocks(inSector: sectorCount - 1) }

    public var name: String {
        switch self {
        case .mini: "MIFARE Mini"
        case .classic1K: "MIFARE Classic 1K"
        case .classic4K: "MIFARE Classic 4K"
        }
    }

    /// SAK of the chip (ISO 14443-3 SEL_RES): 09 Mini, 08 1K, 18 4K.
    public var sak: UInt8 {
        switch self {
        case .mini: 0x09
        case .classic1K: 0x08
        case .classic4K: 0x18
        }
    }

    /// The size a SAK announces, or nil when it is not a MIFARE Classic SAK (the 0x20 ISO-DEP
    /// bit and the 0x80 bit of some emulations are ignored).
    public init?(sak: UInt8) {
        switch sak & 0x5F {
        case 0x09: self = .mini
        case 0x08: self = .classic1K
        case 0x18: self = .classic4K
        default: return nil
        }
    }

    public func blocks(inSector sector: Int) -> Int { sector < 32 ? 4 : 16 }

    public func firstBlock(ofSector sector: Int) -> Int { sector < 32 ? sector * 4 : 128 + (sector - 32) * 16 }

    public func trailerBlock(ofSector sector: Int) -> Int { firstBlock(ofSector: sector) + blocks(inSector: sector) - 1 }

    public func sector(ofBlock block: Int) -> Int { block < 128 ? block / 4 : 32 + (block - 128) / 16 }
}

/// MIFARE Classic commands as the ``TagTransport`` carries them (the backend adds CRC_A and,
/// once authenticated, the Crypto1 stream cipher — a PN53x and PC/SC readers do both):
///
/// - AUTHENTICATE `60 BB K0..K5 U0..U3` (key A) or `61 …` (key B): block BB's sector, the 6-byte
///   key, the last 4 bytes of the UID — the form libnfc's `mifare_cmd` sends in InDataExchange,
///   where the PN53x runs the three-pass authentication itself. Success is an empty response;
///   a refused key is a one-byte NAK response (the PN53x reports status 0x14, PC/SC readers
///   `63 00`).
/// - READ `30 BB`: the 16 bytes of block BB; a one-byte NAK when the block's sector is not the
///   authenticated one or its access bits forbid the read.
/// - WRITE `A0 BB D0..D15`: the 16 bytes to block BB, as libnfc's `mifare_cmd` (MC_WRITE) gives
///   it to InDataExchange — the PN53x sends `A0 BB`, waits for the chip's 4-bit ACK, sends the
///   16 bytes and waits again, so success is an empty response; a refusal (sector not
///   authenticated, access bits forbid it with this key, block 0) a one-byte NAK. A trailer
///   write changes only the parts the access bits let the key change.
///
/// The PC/SC backend maps AUTHENTICATE to LOAD KEYS `FF 82 00 00 06 <key>` (a volatile key in
/// slot 0, loaded again only when it changes) plus GENERAL AUTHENTICATE
/// `FF 86 00 00 05 01 00 BB 60|61 00`, READ to READ BINARY `FF B0 00 BB 10`, and WRITE to UPDATE BINARY
/// `FF D6 00 BB 10 <16 bytes>` (PC/SC Part 3 §3.2.2.1.4–.7).
public enum MifareClassicCommand {
    public static let authenticateA: UInt8 = 0x60
    public static let authenticateB: UInt8 = 0x61
    public static let read: UInt8 = 0x30
    public static let write: UInt8 = 0xA0

    /// The AUTHENTICATE frame; `uid` of 4, 7 or 10 bytes (its last 4 are used).
    public static func authenticate(block: UInt8, key: [UInt8], keyB: Bool = false, uid: [UInt8]) -> [UInt8] {
        [keyB ? authenticateB : authenticateA, block] + key + uid.suffix(4)
    }

    /// The WRITE frame: 16 bytes to `block`.
    public static func write(block: Int, bytes: [UInt8]) -> [UInt8] {
        precondition(bytes.count == MifareClassicSize.blockSize && (0...0xFF).contains(block), "a block of 16 bytes")
        return [write, UInt8(block)] + bytes
    }
}

/// The keys and directory of MIFARE Classic NDEF (NXP AN1304 "NFC Type MIFARE Classic Tag
/// Operation", AN10787 "MIFARE Application Directory").
public enum MifareClassicNDEF {
    /// The public key A of the MAD sectors (0, and 16 on a 4K).
    public static let madKeyA: [UInt8] = [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5]
    /// The public key A of NFC Forum (NDEF) sectors.
    public static let ndefKeyA: [UInt8] = [0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7]
    /// The NDEF application's AID as stored in the MAD: application code 03, function cluster E1.
    public static let ndefAID: [UInt8] = [0x03, 0xE1]
    /// The sector of MAD2 on a 4K.
    public static let mad2Sector = 16

    /// Whether `sector` holds the MAD (0, and 16 on a 4K).
    public static func isMADSector(_ sector: Int, size: MifareClassicSize) -> Bool {
        sector == 0 || (size == .classic4K && sector == mad2Sector)
    }

    /// The sectors a format gives to NDEF: every one but the MAD sectors.
    public static func ndefSectors(formatting size: MifareClassicSize) -> [Int] {
        (1..<size.sectorCount).filter { !isMADSector($0, size: size) }
    }

    /// The general purpose byte of sector 0: DA (a MAD), MA (multi-application), ADV 1 (MAD1)
    /// or 2 (MAD2 in sector 16, on a 4K).
    public static func madGeneralPurposeByte(_ size: MifareClassicSize) -> UInt8 { size == .classic4K ? 0xC2 : 0xC1 }

    /// The MAD giving `ndefSectors` the NDEF AID (others 00 00, free): MAD1 (32 bytes, blocks 1–2:
    /// CRC, info byte 01 as AN1304's layout has it, AIDs of sectors 1–15) and, on a 4K, MAD2
    /// (48 bytes, blocks 64–66: CRC, info byte 00, AIDs of sectors 17–39).
    public static func directory(size: MifareClassicSize, ndefSectors: [Int]) -> (mad1: [UInt8], mad2: [UInt8]?) {
        let aid = { (sector: Int) -> [UInt8] in ndefSectors.contains(sector) ? ndefAID : [0x00, 0x00] }
        let mad1Body = [0x01] + (1...15).flatMap(aid)
        guard size == .classic4K else { return ([madCRC(mad1Body)] + mad1Body, nil) }
        let mad2Body = [0x00] + (17...39).flatMap(aid)
        return ([madCRC(mad1Body)] + mad1Body, [madCRC(mad2Body)] + mad2Body)
    }

    /// CRC-8 of the MAD: polynomial x⁸+x⁴+x³+x²+1 (0x1D), preset 0xC7, no reflection, over the
    /// info byte and the AIDs (AN10787 §3.7).
    public static func madCRC(_ bytes: some Sequence<UInt8>) -> UInt8 {
        var crc: UInt8 = 0xC7
        for byte in bytes {
            crc ^= byte
            for _ in 0..<8 { crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x1D : crc << 1 }
        }
        return crc
    }
}

/// What went wrong on a MIFARE Classic object, beyond the link.
public enum MifareClassicError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sector did not accept the public key: it is not (or not readably) formatted for NDEF.
    case authenticationFailed(sector: Int, key: String)
    /// The general purpose byte of sector 0 does not announce a MAD (DA bit clear).
    case noDirectory(generalPurposeByte: UInt8)
    /// The MAD's CRC does not match its contents.
    case directoryCRC(sector: Int, stored: UInt8, computed: UInt8)
    /// A READ of an authenticated block was refused.
    case readRefused(block: Int)

    public var description: String {
        switch self {
        case .authenticationFailed(let sector, let key):
            "MIFARE Classic sector \(sector) refused the \(key) (not formatted for NDEF, or protected)"
        case .noDirectory(let gpb):
            "MIFARE Classic without an application directory (general purpose byte \(Hex.code(gpb)))"
        case .directoryCRC(let sector, let stored, let computed):
            "the MIFARE application directory in sector \(sector) is corrupt (CRC \(Hex.code(stored)), contents give \(Hex.code(computed)))"
        case .readRefused(let block): "MIFARE Classic block \(block) refused READ"
        }
    }
}

/// The NDEF sectors a MAD lists and their data blocks (trailers left out), in order: the TLV
/// data area of a MIFARE Classic.
public struct MifareClassicNDEFArea: Hashable, Sendable {
    public let geometry: MifareClassicSize
    public let sectors: [Int]

    public init(geometry: MifareClassicSize, sectors: [Int]) {
        self.geometry = geometry
        self.sectors = sectors
    }

    /// Physical block numbers of the data area, in order.
    public var blocks: [Int] {
        sectors.flatMap { sector in (0..<(geometry.blocks(inSector: sector) - 1)).map { geometry.firstBlock(ofSector: sector) + $0 } }
    }

    public var capacity: Int { blocks.count * MifareClassicSize.blockSize }
}

/// Reads the NDEF message of a MIFARE Classic object formatted by NXP AN1304:
///
/// 1. AUTHENTICATE sector 0 with the MAD key A; READ blocks 1 and 2 (MAD1: CRC, info byte, 15
///    AIDs for sectors 1–15) and the trailer (block 3) for the general purpose byte: DA bit set,
///    ADV 1 (MAD1) or 2 (MAD2). The CRC is checked.
/// 2. ADV 2 on a 4K (or an object of unknown size): AUTHENTICATE sector 16 with the MAD key A,
///    READ blocks 64–66 (MAD2: CRC, info byte, 23 AIDs for sectors 17–39).
/// 3. The sectors whose AID is the NDEF AID (`03 E1`), in order, form the data area: each is
///    authenticated with the public NFC Forum key A and its data blocks read (never its trailer),
///    block by block, only as far as ``TLVWalker`` says the TLVs reach.
///
/// Round trips for a message in the first NDEF sector of a 1K: 4 (MAD) + 1 + one per block.
public enum MifareClassicTag {
    /// Reads the message. `uid` (4 or 7 bytes) is needed for AUTHENTICATE; `size` from SAK or
    /// ATR, nil when unknown (then the general purpose byte decides whether MAD2 is read).
    public static func readNDEF(over transport: some TagTransport, uid: [UInt8],
                                size: MifareClassicSize?) async throws(TagReadError) -> TagReading {
        var link = CountedLink(transport)
        let area: MifareClassicNDEFArea
        do { area = try await readDirectory(uid: uid, size: size, &link) } catch {
            switch error {
            // As the writer judges it: sector 0 refusing the MAD key (factory keys), no directory,
            // or one without NDEF sectors is a card never formatted for messages.
            case .noNDEFApplication, .mifareClassic(.noDirectory), .mifareClassic(.authenticationFailed(sector: 0, _)):
                return .blank(platform: .mifareClassic, product: size?.name, uid: uid, roundTrips: link.roundTrips)
            default: throw error
            }
        }
        let geometry = area.geometry, blocks = area.blocks
        let capacity = blocks.count * MifareClassicSize.blockSize
        let product = size?.name

        var data: [UInt8] = []
        var authenticated: Int?
        var wanted = 1    // bytes the TLVs are known to need
        for block in blocks {
            if data.count >= wanted {
                // Walk the TLVs on what has been read.
                do {
                    let found = try TLVWalker.blocks(in: data)
                    if let ndef = found.first(where: { $0.tag == .ndefMessage }) {
                        return reading(uid: uid, product: product, capacity: capacity, ndef: Array(data[ndef.valueRange]), &link)
                    }
                    if found.last?.tag == .terminator {
                        return reading(uid: uid, product: product, capacity: capacity, ndef: [], &link)
                    }
                    wanted = data.count + 1
                } catch .truncated(_, let needed) {
                    guard needed <= capacity else { throw .messagePastEndOfMemory(needed: needed, capacity: capacity) }
                    wanted = needed
                } catch {
                    throw .memory(error)
                }
            }
            let sector = geometry.sector(ofBlock: block)
            if authenticated != sector {
                try await authenticate(sector: sector, key: MifareClassicNDEF.ndefKeyA, keyName: "NFC Forum key A", geometry, uid, &link)
                authenticated = sector
            }
            data += try await read(block: block, &link)
        }
        // Every NDEF block read.
        do {
            let found = try TLVWalker.blocks(in: data)
            let ndef = found.first { $0.tag == .ndefMessage }
            return reading(uid: uid, product: product, capacity: capacity, ndef: ndef.map { Array(data[$0.valueRange]) } ?? [], &link)
        } catch .truncated(_, let needed) {
            throw .messagePastEndOfMemory(needed: needed, capacity: capacity)
        } catch {
            throw .memory(error)
        }
    }

    /// Steps 1 and 2: the MAD (sector 0, and sector 16 when the general purpose byte says so)
    /// and the NDEF sectors it lists.
    static func readDirectory(uid: [UInt8], size: MifareClassicSize?, _ link: inout CountedLink) async throws(TagReadError) -> MifareClassicNDEFArea {
        let geometry = size ?? .classic4K
        // MAD1 in sector 0.
        try await authenticate(sector: 0, key: MifareClassicNDEF.madKeyA, keyName: "MAD key A", geometry, uid, &link)
        let mad1 = try await read(block: 1, &link) + read(block: 2, &link)
        let trailer0 = try await read(block: 3, &link)
        let gpb = trailer0[9]
        guard gpb & 0x80 != 0 else { throw .mifareClassic(.noDirectory(generalPurposeByte: gpb)) }
        try checkCRC(mad1, sector: 0)
        var aids: [(sector: Int, aid: ArraySlice<UInt8>)] = (1...15).map { ($0, mad1[(2 * $0)..<(2 * $0 + 2)]) }

        // MAD2 in sector 16.
        if gpb & 0x03 == 0x02, size == nil || size == .classic4K {
            try await authenticate(sector: MifareClassicNDEF.mad2Sector, key: MifareClassicNDEF.madKeyA, keyName: "MAD key A",
                                   geometry, uid, &link)
            let first = geometry.firstBlock(ofSector: MifareClassicNDEF.mad2Sector)
            let mad2 = try await read(block: first, &link) + read(block: first + 1, &link) + read(block: first + 2, &link)
            try checkCRC(mad2, sector: MifareClassicNDEF.mad2Sector)
            aids += (17...39).map { ($0, mad2[(2 * ($0 - 16))..<(2 * ($0 - 16) + 2)]) }
        }
        let sectors = aids.filter { $0.sector < geometry.sectorCount && Array($0.aid) == MifareClassicNDEF.ndefAID }.map(\.sector)
        guard !sectors.isEmpty else { throw .noNDEFApplication }
        return MifareClassicNDEFArea(geometry: geometry, sectors: sectors)
    }

    private static func reading(uid: [UInt8], product: String?, capacity: Int, ndef: [UInt8], _ link: inout CountedLink) -> TagReading {
        TagReading(platform: .mifareClassic, product: product, uid: uid, capacity: TLVAreaWritePlan.largestMessage(in: capacity), ndefBytes: ndef, roundTrips: link.roundTrips)
    }

    static func checkCRC(_ mad: [UInt8], sector: Int) throws(TagReadError) {
        let computed = MifareClassicNDEF.madCRC(mad.dropFirst())
        guard computed == mad[0] else { throw .mifareClassic(.directoryCRC(sector: sector, stored: mad[0], computed: computed)) }
    }

    static func authenticate(sector: Int, key: [UInt8], keyName: String, _ geometry: MifareClassicSize, _ uid: [UInt8],
                             _ link: inout CountedLink) async throws(TagReadError) {
        let block = UInt8(geometry.trailerBlock(ofSector: sector))
        let response = try await link.send(MifareClassicCommand.authenticate(block: block, key: key, uid: uid))
        if response.count == 1 { throw .mifareClassic(.authenticationFailed(sector: sector, key: keyName)) }
        guard response.isEmpty else {
            throw .unexpectedResponse(command: "AUTHENTICATE sector \(sector)", expected: 0, received: response.count)
        }
    }

    static func read(block: Int, _ link: inout CountedLink) async throws(TagReadError) -> [UInt8] {
        let response = try await link.send([MifareClassicCommand.read, UInt8(block)])
        if response.count == 1 { throw .mifareClassic(.readRefused(block: block)) }
        guard response.count == MifareClassicSize.blockSize else {
            throw .unexpectedResponse(command: "READ block \(block)", expected: MifareClassicSize.blockSize, received: response.count)
        }
        return response
    }
}
