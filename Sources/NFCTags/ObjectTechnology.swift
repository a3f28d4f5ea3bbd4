/// How the object was found, with what it told the reader during activation.
public enum ObjectTechnology: Hashable, Sendable {
    /// ISO/IEC 14443 type A: ATQA, SAK and (ISO-DEP only) the ATS without TL.
    case iso14443A(atqa: [UInt8], sak: UInt8, ats: [UInt8])
    case felica(pmm: [UInt8], systemCode: [UInt8])
    case iso14443B(applicationData: [UInt8], protocolInfo: [UInt8])
    case jewel
    /// A card a PC/SC reader reports: what its ATR says it is, and the ATR (pcscd passes no
    /// activation data on).
    case pcscCard(TechnologyName, atr: [UInt8])
    /// Another modulation (named as libnfc names it).
    case other(String)

    /// The one vocabulary every backend reports the technology in (`technology` in the JSON).
    public var name: TechnologyName {
        switch self {
        case .iso14443A: .iso14443a
        case .felica: .felica
        case .iso14443B: .iso14443b
        case .jewel: .jewel
        case .pcscCard(let name, _): name
        case .other: .other
        }
    }
}

/// The `technology` of every report, whichever backend found the object (Docs/json-schema.md).
public enum TechnologyName: String, Hashable, Sendable, CaseIterable {
    case iso14443a
    case iso14443b
    /// An ISO/IEC 14443-4 (ISO-DEP) card whose type, A or B, the reader did not say (PC/SC).
    case iso14443_4 = "iso14443-4"
    case felica
    /// Innovision Jewel / Topaz (NFC Forum Type 1).
    case jewel
    case iso15693
    /// Any other modulation (the backend's name for it is in `modulation`).
    case other
}
