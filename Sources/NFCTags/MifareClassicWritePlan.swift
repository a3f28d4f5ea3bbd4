import NDEF

/// One MIFARE Classic WRITE: 16 bytes to a physical block.
public struct MifareClassicBlockWrite: Hashable, Sendable {
    public var block: Int
    public var bytes: [UInt8]

    public init(block: Int, bytes: [UInt8]) {
        self.block = block
        self.bytes = bytes
    }

    /// The command frame (`A0 BB` + 16 bytes).
    public var frame: [UInt8] { MifareClassicCommand.write(block: block, bytes: bytes) }
}

/// The WRITEs that replace the NDEF message of a MIFARE Classic formatted by NXP AN1304:
/// ``TLVAreaWritePlan`` over the NDEF sectors' data blocks (16-byte blocks, in MAD order,
/// trailers left out), its data-area blocks mapped to physical ones. AN1304 §6.5 keeps Type 2's
/// order, so the tear-safety argument is the same: length to 0, body, then the length block.
///
/// Every NDEF sector must let the public key A write its data blocks (access condition 000, as
/// `7F 07 88` gives) and its general purpose byte grant write access; a sector only key B writes
/// is refused as `keysRefused`, one nobody writes (or GPB write access other than 00) as
/// read-only, before anything is sent.
public struct MifareClassicWritePlan: Hashable, Sendable {
    public let writes: [MifareClassicBlockWrite]
    /// Data-area bytes the NDEF TLV may use from where it goes.
    public let available: Int
    /// The data area once every write is done.
    public let dataArea: [UInt8]

    /// - Parameters:
    ///   - area: the NDEF sectors the MAD lists.
    ///   - data: their data blocks as read (the whole data area).
    ///   - trailers: each NDEF sector's trailer as read (keys read as zeros).
    public init(area: MifareClassicNDEFArea, data: [UInt8], trailers: [Int: [UInt8]], message: [UInt8]) throws(WriteRefusal) {
        try Self.checkWritable(area: area, trailers: trailers)
        guard data.count >= area.capacity else { throw .memoryIncomplete(needed: area.capacity, available: data.count) }
        let plan = try TLVAreaWritePlan(data: Array(data.prefix(area.capacity)), blockSize: MifareClassicSize.blockSize, message: message)
        let blocks = area.blocks
        writes = plan.writes.map { MifareClassicBlockWrite(block: blocks[$0.block], bytes: $0.bytes) }
        available = plan.available
        dataArea = plan.dataArea
    }

    /// Refuses when a sector of `area` cannot be written with the public key A.
    public static func checkWritable(area: MifareClassicNDEFArea, trailers: [Int: [UInt8]]) throws(WriteRefusal) {
        for sector in area.sectors {
            guard let trailer = trailers[sector], trailer.count == MifareClassicSize.blockSize else {
                throw .keysRefused(sector: sector)
            }
            if let refusal = refusal(sector: sector, trailer: trailer, geometry: area.geometry) { throw refusal }
        }
    }

    /// Why the public key A cannot write `sector`'s data blocks, or nil when it can.
    public static func refusal(sector: Int, trailer: [UInt8], geometry: MifareClassicSize) -> WriteRefusal? {
        if trailer[9] & 0x03 != 0 { return .readOnly }
        let access = MifareClassicAccess(trailer: trailer)
        for group in 0..<3 {
            switch access.keyAWriteAccess(group: group) {
            case .granted: continue
            case .keyBOnly: return .keysRefused(sector: sector)
            case .never: return .readOnly
            }
        }
        return nil
    }
}

/// The WRITEs that format a MIFARE Classic in its delivery state (transport keys FF…FF, access
/// bits letting key A write the trailers) for NDEF as AN1304 lays it out: every sector but the
/// MAD ones an NDEF sector (key A D3F7D3F7D3F7, access bits 7F 07 88, GPB 40, key B FF…FF), an
/// empty NDEF TLV and a Terminator at the start of the first, MAD1 in sector 0 (key A
/// A0A1A2A3A4A5, access bits 78 77 88, GPB C1, or C2 with MAD2 in sector 16 on a 4K).
///
/// The order makes an interrupted format read as a blank object, never as a message: each NDEF
/// sector's data before its trailer (the empty TLV lands while the sector is still open with
/// the transport key), then MAD2, then MAD1's two blocks, and last sector 0's trailer — until
/// that one WRITE the MAD key does not open sector 0, so a reader finds no directory. A format
/// resumed after a tear skips the sectors already in their final state.
public struct MifareClassicFormatPlan: Hashable, Sendable {
    /// One sector's WRITEs, sent after authenticating it with the transport key A.
    public struct SectorStep: Hashable, Sendable {
        public var sector: Int
        public var writes: [MifareClassicBlockWrite]
    }

    public let steps: [SectorStep]
    public let ndefSectors: [Int]

    /// - Parameter done: sectors already formatted (opened with their final key A and holding
    ///   their final access bits) by a format that was interrupted.
    public init(size: MifareClassicSize, done: Set<Int> = []) {
        let ndefSectors = MifareClassicNDEF.ndefSectors(formatting: size)
        let directory = MifareClassicNDEF.directory(size: size, ndefSectors: ndefSectors)
        var steps: [SectorStep] = []
        for sector in ndefSectors where !done.contains(sector) {
            var writes: [MifareClassicBlockWrite] = []
            if sector == ndefSectors.first {
                let empty: [UInt8] = [0x03, 0x00, TLVBlock.Tag.terminator.rawValue]
                writes.append(MifareClassicBlockWrite(block: size.firstBlock(ofSector: sector),
                                                      bytes: empty + [UInt8](repeating: 0, count: MifareClassicSize.blockSize - empty.count)))
            }
            writes.append(MifareClassicBlockWrite(block: size.trailerBlock(ofSector: sector), bytes: MifareClassicTrailer.ndef))
            steps.append(SectorStep(sector: sector, writes: writes))
        }
        let trailer = MifareClassicTrailer.mad(generalPurposeByte: MifareClassicNDEF.madGeneralPurposeByte(size))
        if let mad2 = directory.mad2, !done.contains(MifareClassicNDEF.mad2Sector) {
            let first = size.firstBlock(ofSector: MifareClassicNDEF.mad2Sector)
            steps.append(SectorStep(sector: MifareClassicNDEF.mad2Sector, writes: (0..<3).map {
                MifareClassicBlockWrite(block: first + $0, bytes: Array(mad2[($0 * 16)..<($0 * 16 + 16)]))
            } + [MifareClassicBlockWrite(block: size.trailerBlock(ofSector: MifareClassicNDEF.mad2Sector), bytes: trailer)]))
        }
        steps.append(SectorStep(sector: 0, writes: [
            MifareClassicBlockWrite(block: 1, bytes: Array(directory.mad1[0..<16])),
            MifareClassicBlockWrite(block: 2, bytes: Array(directory.mad1[16..<32])),
            MifareClassicBlockWrite(block: 3, bytes: trailer),
        ]))
        self.steps = steps
        self.ndefSectors = ndefSectors
    }

    /// The final key A and access bits of `sector` once formatted.
    public static func target(sector: Int, size: MifareClassicSize) -> (keyA: [UInt8], accessBits: [UInt8]) {
        MifareClassicNDEF.isMADSector(sector, size: size)
            ? (MifareClassicNDEF.madKeyA, MifareClassicTrailer.madAccessBits)
            : (MifareClassicNDEF.ndefKeyA, MifareClassicTrailer.ndefAccessBits)
    }

    /// The largest message a formatted object of `size` holds.
    public static func capacity(of size: MifareClassicSize) -> Int {
        TLVAreaWritePlan.largestMessage(in: MifareClassicNDEFArea(geometry: size, sectors: MifareClassicNDEF.ndefSectors(formatting: size)).capacity)
    }
}

extension MifareClassicTrailer {
    /// The trailer that makes an NDEF sector read-only for good (AN1304): access bits 07 8F 0F
    /// (data read with A or B, never written; the trailer never changes again), GPB 43, the
    /// public key A kept, `keyB` (the one that authenticated the write) kept.
    public static func readOnly(keyB: [UInt8] = defaultKeyB) -> [UInt8] {
        make(keyA: MifareClassicNDEF.ndefKeyA, accessBits: readOnlyAccessBits, generalPurposeByte: readOnlyGeneralPurposeByte, keyB: keyB)
    }

    /// Whether a trailer as read (keys as zeros) is a read-only NDEF sector's.
    public static func isReadOnly(_ trailer: [UInt8]) -> Bool {
        trailer.count == 16 && Array(trailer[6..<9]) == readOnlyAccessBits && trailer[9] == readOnlyGeneralPurposeByte
    }
}
