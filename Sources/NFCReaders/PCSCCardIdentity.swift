import NDEF
import NFCTags

/// What a contactless card's ATR says it is, as a PC/SC reader builds it (PC/SC Part 3 and its
/// supplement, §3.1.3.2.3).
///
/// - A storage card (Ultralight, NTAG, MIFARE Classic, FeliCa, Jewel, ISO 15693 labels):
///   `3B 8F 80 01 80 4F 0C A0 00 00 03 06 SS NN NN 00 00 00 00 TCK`, SS the standard and NN NN
///   the card name. Readers report NTAG 21x as Ultralight (`00 03`).
/// - An ISO-DEP (ISO 14443-4) card: `3B 8n 80 01 <n historical bytes> TCK`, the historical bytes
///   taken from the ATS (type A) or the ATQB (type B). Read as Type 4 with plain APDUs.
public struct PCSCCardIdentity: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        case storageCard(standard: UInt8, name: UInt16)
        case isoDEP(historicalBytes: [UInt8])
        /// A contact card or an ATR this project cannot place.
        case other
    }

    public var atr: [UInt8]
    public var kind: Kind

    /// Part 3 supplement card names.
    public static let cardNames: [UInt16: String] = [
        0x0001: "MIFARE Classic 1K", 0x0002: "MIFARE Classic 4K", 0x0003: "MIFARE Ultralight",
        0x0026: "MIFARE Mini", 0x002F: "Jewel", 0x0030: "Topaz", 0x003A: "MIFARE Ultralight C",
        0x003B: "FeliCa", 0x003D: "MIFARE Ultralight EV1",
    ]

    /// Part 3 standards.
    public static let standards: [UInt8: String] = [
        0x03: "ISO 14443 A part 3", 0x07: "ISO 14443 B part 3", 0x0B: "ISO 15693 part 3", 0x11: "FeliCa",
    ]

    static let pcscRID: [UInt8] = [0xA0, 0x00, 0x00, 0x03, 0x06]

    public init(atr: [UInt8]) {
        self.atr = atr
        if atr.count >= 15, atr[0] == 0x3B, atr[1] == 0x8F, atr[2] == 0x80, atr[3] == 0x01, atr[4] == 0x80,
           atr[5] == 0x4F, atr[6] == 0x0C, Array(atr[7..<12]) == Self.pcscRID {
            kind = .storageCard(standard: atr[12], name: UInt16(atr[13]) << 8 | UInt16(atr[14]))
        } else if atr.count >= 4, atr[0] == 0x3B, atr[1] & 0xF0 == 0x80, atr[2] == 0x80, atr[3] == 0x01,
                  atr.count >= 4 + Int(atr[1] & 0x0F) {
            kind = .isoDEP(historicalBytes: Array(atr[4..<(4 + Int(atr[1] & 0x0F))]))
        } else {
            kind = .other
        }
    }

    /// The tag platform this project reads the card as: Type 2 for the Ultralight family (and
    /// NTAG), Type 4 for ISO-DEP, Type 1 for Jewel/Topaz, Type 3 for FeliCa, Type 5 for ISO 15693;
    /// MIFARE Classic for Classic 1K/4K and Mini; nil for unknown cards.
    public var platform: TagPlatform? {
        switch kind {
        case .storageCard(0x11, _): .type3
        case .storageCard(0x0B, _): .type5
        case .storageCard(_, 0x0003), .storageCard(_, 0x003A), .storageCard(_, 0x003D): .type2
        case .storageCard(_, 0x002F), .storageCard(_, 0x0030): .type1
        case .storageCard(_, 0x0001), .storageCard(_, 0x0002), .storageCard(_, 0x0026): .mifareClassic
        case .storageCard: nil
        case .isoDEP: .type4
        case .other: nil
        }
    }

    /// What the ATR says the card is, in the vocabulary of every backend: a storage card's
    /// standard (Jewel and Topaz as `jewel`, as libnfc reports them); an ISO-DEP card as
    /// `iso14443-4` (its ATR does not say whether it is type A or B).
    public var technology: TechnologyName {
        switch kind {
        case .storageCard(_, 0x002F), .storageCard(_, 0x0030): .jewel
        case .storageCard(0x03, _): .iso14443a
        case .storageCard(0x07, _): .iso14443b
        case .storageCard(0x0B, _): .iso15693
        case .storageCard(0x11, _), .storageCard(_, 0x003B): .felica
        case .storageCard: .other
        case .isoDEP: .iso14443_4
        case .other: .other
        }
    }

    public var description: String {
        switch kind {
        case .storageCard(let standard, let name):
            let cardName = Self.cardNames[name] ?? "card name \(Hex.spaced([UInt8(name >> 8), UInt8(name & 0xFF)], uppercase: true))"
            let standardName = Self.standards[standard] ?? "standard \(Hex.spaced([standard], uppercase: true))"
            return "PC/SC storage card: \(cardName) (\(standardName))"
        case .isoDEP(let historical):
            return historical.isEmpty ? "ISO-DEP (ISO 14443-4)" : "ISO-DEP (ISO 14443-4), historical bytes \(Hex.spaced(historical, uppercase: true))"
        case .other:
            return "card with ATR \(Hex.spaced(atr, uppercase: true))"
        }
    }
}
