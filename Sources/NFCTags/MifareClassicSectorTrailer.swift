/// Sector trailers of MIFARE Classic NDEF (NXP AN1304 §6.3, AN10787 §3.5): what the formatter,
/// the writer and the simulated chip all build and decode, so one table serves them.
public enum MifareClassicTrailer {
    /// Key A and key B of the delivery (transport) state.
    public static let transportKey: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    /// Key B left by nfcscan's format (and NXP's reference stack): the delivery key. The public
    /// formats never let it be read; making read-only needs it, because only key B may change
    /// the access bits of an NDEF sector.
    public static let defaultKeyB: [UInt8] = transportKey
    /// Access bits of the delivery state: data and trailer written with key A.
    public static let transportAccessBits: [UInt8] = [0xFF, 0x07, 0x80]
    /// Access bits of a MAD sector: data read with A or B, written with B; key A never readable.
    public static let madAccessBits: [UInt8] = [0x78, 0x77, 0x88]
    /// Access bits of a read/write NDEF sector: data read and written with key A or B (transport
    /// configuration), trailer changed with key B only.
    public static let ndefAccessBits: [UInt8] = [0x7F, 0x07, 0x88]
    /// Access bits of a read-only NDEF sector (AN1304): data read with A or B, never written;
    /// the trailer never changes again.
    public static let readOnlyAccessBits: [UInt8] = [0x07, 0x8F, 0x0F]
    /// General purpose byte of an NDEF sector: mapping version 1.0, read and write granted.
    public static let ndefGeneralPurposeByte: UInt8 = 0x40
    /// General purpose byte of a read-only NDEF sector: write access 11 (none).
    public static let readOnlyGeneralPurposeByte: UInt8 = 0x43

    /// Key A, access bits, general purpose byte, key B.
    public static func make(keyA: [UInt8], accessBits: [UInt8], generalPurposeByte: UInt8, keyB: [UInt8] = defaultKeyB) -> [UInt8] {
        keyA + accessBits + [generalPurposeByte] + keyB
    }

    /// The trailer of a read/write NDEF sector.
    public static let ndef = make(keyA: MifareClassicNDEF.ndefKeyA, accessBits: ndefAccessBits,
                                  generalPurposeByte: ndefGeneralPurposeByte)

    /// The trailer of a MAD sector; `generalPurposeByte` C1 (MAD1) or C2 (MAD2 present).
    public static func mad(generalPurposeByte: UInt8) -> [UInt8] {
        make(keyA: MifareClassicNDEF.madKeyA, accessBits: madAccessBits, generalPurposeByte: generalPurposeByte)
    }
}

/// A sector trailer's access conditions (bytes 6–8): C1, C2 and C3 for each of the four block
/// groups, group 3 the trailer (MF1S50 data sheet §8.7).
public struct MifareClassicAccess: Hashable, Sendable {
    public let trailer: [UInt8]

    public init(trailer: [UInt8]) { self.trailer = trailer }

    /// The access group of a block `offset` blocks into a sector of `blocksInSector` (4K's big
    /// sectors: groups of 5 blocks, the trailer alone in group 3).
    public static func group(ofOffset offset: Int, blocksInSector: Int) -> Int {
        offset == blocksInSector - 1 ? 3 : blocksInSector == 4 ? offset : offset / 5
    }

    /// C1C2C3 of `group` as a 3-bit number.
    public func condition(group: Int) -> Int {
        let c1 = Int(trailer[7] >> (4 + group)) & 1, c2 = Int(trailer[8] >> group) & 1, c3 = Int(trailer[8] >> (4 + group)) & 1
        return c1 << 2 | c2 << 1 | c3
    }

    /// Whether key B can be read from the trailer, and then serves for nothing.
    public var keyBReadable: Bool { [0b000, 0b010, 0b001].contains(condition(group: 3)) }

    /// Whether a data block of `group` reads with the authenticated key.
    public func mayRead(group: Int, withKeyB keyB: Bool) -> Bool {
        if keyB, keyBReadable { return false }
        switch condition(group: group) {
        case 0b000, 0b010, 0b100, 0b110, 0b001: return true
        case 0b011, 0b101: return keyB
        default: return false
        }
    }

    /// Whether a data block of `group` is written with the authenticated key.
    public func mayWrite(group: Int, withKeyB keyB: Bool) -> Bool {
        if keyB, keyBReadable { return false }
        switch condition(group: group) {
        case 0b000: return true
        case 0b100, 0b110, 0b011: return keyB
        default: return false
        }
    }

    /// Which parts of the trailer a write with the authenticated key changes (the chip leaves
    /// the others as they are).
    public func trailerWrites(withKeyB keyB: Bool) -> (keyA: Bool, accessBits: Bool, keyB: Bool) {
        if keyB, keyBReadable { return (false, false, false) }
        switch condition(group: 3) {
        case 0b000: return (!keyB, false, !keyB)
        case 0b001: return (!keyB, !keyB, !keyB)
        case 0b100: return (keyB, false, keyB)
        case 0b011: return (keyB, keyB, keyB)
        case 0b101: return (false, keyB, false)
        default: return (false, false, false)
        }
    }

    /// What a writer holding only key A can do to a data block of `group`.
    public func keyAWriteAccess(group: Int) -> KeyAWriteAccess {
        if mayWrite(group: group, withKeyB: false) { return .granted }
        return mayWrite(group: group, withKeyB: true) ? .keyBOnly : .never
    }

    public enum KeyAWriteAccess: Hashable, Sendable {
        case granted
        /// Key B writes it: the public key A does not.
        case keyBOnly
        /// Nobody writes it: read-only.
        case never
    }
}
