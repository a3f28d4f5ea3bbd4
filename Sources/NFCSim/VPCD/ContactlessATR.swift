/// The ATRs a PC/SC contactless reader makes up for the objects in its field (PC/SC Part 3
/// supplement §3.1.3.2.3; Docs/design/simulators.md §3.4), so a virtual card behind vpcd looks
/// exactly like one behind a real reader.
public enum ContactlessATR {
    /// The `SS` byte of a storage card's ATR: which standard the object speaks.
    public enum Standard: UInt8, Hashable, Sendable {
        case iso14443APart3 = 0x03
        case iso14443BPart3 = 0x07
        case iso15693Part3 = 0x0B
        case felica = 0x11
    }

    /// Card name codes (`NN NN`) of the Part 3 supplement, as in pcsc-tools' smartcard_list.txt.
    public enum CardName {
        public static let mifareClassic1K: UInt16 = 0x0001
        /// MIFARE Ultralight; readers such as the ACR122U report NTAG21x with it as well.
        public static let mifareUltralight: UInt16 = 0x0003
        public static let felica: UInt16 = 0x003B
    }

    /// A storage card: `3B 8F 80 01 80 4F 0C A0 00 00 03 06 SS NN NN 00 00 00 00 TCK`.
    public static func storageCard(standard: Standard, cardName: UInt16) -> [UInt8] {
        let historical: [UInt8] = [0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06,
                                   standard.rawValue, UInt8(cardName >> 8), UInt8(cardName & 0xFF),
                                   0x00, 0x00, 0x00, 0x00]
        return withCheckByte([0x3B, 0x8F, 0x80, 0x01] + historical)
    }

    /// An ISO-DEP (ISO 14443-4 type A) card: `3B 8n 80 01`, the ATS historical bytes, TCK.
    public static func isoDEP(historicalBytes: [UInt8]) -> [UInt8] {
        precondition(historicalBytes.count <= 15, "an ATR holds at most 15 historical bytes")
        return withCheckByte([0x3B, 0x80 | UInt8(historicalBytes.count), 0x80, 0x01] + historicalBytes)
    }

    /// The historical bytes of an ATS (TL first, no CRC): what follows T0 and the interface bytes
    /// TA1, TB1 and TC1 that T0 bits 4-6 announce (ISO 14443-4 §5.2). Empty when the ATS has none.
    public static func historicalBytes(ofATS ats: [UInt8]) -> [UInt8] {
        guard ats.count >= 2 else { return [] }
        let length = min(Int(ats[0]), ats.count)
        let t0 = ats[1]
        let interfaceBytes = [0x10, 0x20, 0x40].filter { t0 & $0 != 0 }.count
        let start = 2 + interfaceBytes
        guard start < length else { return [] }
        return Array(ats[start..<length])
    }

    /// Appends TCK: the XOR of every byte from T0 to the last historical byte.
    static func withCheckByte(_ atr: [UInt8]) -> [UInt8] {
        atr + [atr.dropFirst().reduce(0, ^)]
    }
}
