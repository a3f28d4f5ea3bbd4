/// How a target is found and what it tells the reader while being activated.
public enum PN532TargetIdentity: Hashable, Sendable {
    /// ISO/IEC 14443 type A at 106 kbps: SENS_RES (ATQA, in the order libnfc prints it), SEL_RES
    /// (SAK), the full NFCID1 (4, 7 or 10 bytes, no cascade tags) and, for ISO-DEP objects
    /// (SAK bit 0x20), the ATS starting with TL.
    case iso14443A(sensRes: [UInt8], selRes: UInt8, nfcid1: [UInt8], ats: [UInt8]?)
    /// FeliCa (NFC-F) at 212 and 424 kbps: IDm (NFCID2), PMm and the system code it answers
    /// POLLING with.
    case felica(idm: [UInt8], pmm: [UInt8], systemCode: [UInt8])
    /// Jewel/Topaz (NFC Forum Type 1) at 106 kbps: SENS_RES (`0C 00` for Topaz, as libnfc prints
    /// it) and the 4-byte Jewel ID (UID0–3, what RID reports).
    case jewel(sensRes: [UInt8], jewelID: [UInt8])

    /// Whether the target takes part in ISO-DEP (ISO 14443-4) after selection.
    public var isISODEP: Bool {
        if case .iso14443A(_, let sak, _, _) = self { return sak & 0x20 != 0 }
        return false
    }
}

/// What a target does with one frame from the reader.
public enum PN532TargetReply: Hashable, Sendable {
    /// A reply frame, without CRC.
    case data([UInt8])
    /// A 4-bit ACK/NAK (Type 2 WRITE answers, NAKs to bad addresses).
    case nak(UInt8)
    /// No answer: the reader times out (status 0x01), as when the object has left the field.
    case silence
}

/// An object the emulated PN532 can find in its field. For ISO-DEP objects `exchange` receives
/// the APDUs (the PN532 does the block protocol itself); for Type 2 objects the raw commands
/// (READ `30 PP`, GET_VERSION `60`, …); for FeliCa the command frames including their length byte;
/// for Jewel the short commands (`78`, `00`, `02 ADD8`, `10 ADDS`).
public protocol PN532Target: Sendable {
    var identity: PN532TargetIdentity { get }
    /// Whether the object is in the field at all (independently of the emulator's timer).
    var isPresent: Bool { get }
    /// The object is activated again (REQA/WUPA + anticollision + select, RATS, or POLLING);
    /// false when it does not answer.
    mutating func activate() -> Bool
    mutating func exchange(_ command: [UInt8]) -> PN532TargetReply
}

/// ISO/IEC 14443-3 CRC_A: CRC-16/ISO-IEC-14443-3-A, preset 0x6363, reflected polynomial 0x8408,
/// transmitted low byte first. CRC_A(`60`) = `F8 32`.
public enum CRCA {
    public static func compute<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var crc: UInt16 = 0x6363
        for byte in bytes {
            var b = byte ^ UInt8(crc & 0xFF)
            b ^= b << 4
            crc = (crc >> 8) ^ (UInt16(b) << 8) ^ (UInt16(b) << 3) ^ (UInt16(b) >> 4)
        }
        return [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    }

    /// `bytes` followed by their CRC_A.
    public static func appending(to bytes: [UInt8]) -> [UInt8] { bytes + compute(bytes) }

    /// Whether the last two bytes of `frame` are the CRC_A of the rest.
    public static func isValid(_ frame: [UInt8]) -> Bool {
        frame.count >= 2 && compute(frame.dropLast(2)) == Array(frame.suffix(2))
    }
}
