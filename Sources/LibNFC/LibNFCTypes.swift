import CLibNFC

/// A modulation type (nfc-types.h `nfc_modulation_type`).
public enum ModulationType: Hashable, Sendable, CaseIterable {
    case iso14443A, jewel, iso14443B, iso14443BI, iso14443B2SR, iso14443B2CT, felica, dep, barcode, iso14443BiClass

    init?(_ c: nfc_modulation_type) {
        switch c {
        case NMT_ISO14443A: self = .iso14443A
        case NMT_JEWEL: self = .jewel
        case NMT_ISO14443B: self = .iso14443B
        case NMT_ISO14443BI: self = .iso14443BI
        case NMT_ISO14443B2SR: self = .iso14443B2SR
        case NMT_ISO14443B2CT: self = .iso14443B2CT
        case NMT_FELICA: self = .felica
        case NMT_DEP: self = .dep
        case NMT_BARCODE: self = .barcode
        case NMT_ISO14443BICLASS: self = .iso14443BiClass
        default: return nil
        }
    }

    var c: nfc_modulation_type {
        switch self {
        case .iso14443A: NMT_ISO14443A
        case .jewel: NMT_JEWEL
        case .iso14443B: NMT_ISO14443B
        case .iso14443BI: NMT_ISO14443BI
        case .iso14443B2SR: NMT_ISO14443B2SR
        case .iso14443B2CT: NMT_ISO14443B2CT
        case .felica: NMT_FELICA
        case .dep: NMT_DEP
        case .barcode: NMT_BARCODE
        case .iso14443BiClass: NMT_ISO14443BICLASS
        }
    }
}

/// A baud rate (nfc-types.h `nfc_baud_rate`).
public enum BaudRate: Hashable, Sendable {
    case undefined, kbps106, kbps212, kbps424, kbps847

    init(_ c: nfc_baud_rate) {
        switch c {
        case NBR_106: self = .kbps106
        case NBR_212: self = .kbps212
        case NBR_424: self = .kbps424
        case NBR_847: self = .kbps847
        default: self = .undefined
        }
    }

    var c: nfc_baud_rate {
        switch self {
        case .undefined: NBR_UNDEFINED
        case .kbps106: NBR_106
        case .kbps212: NBR_212
        case .kbps424: NBR_424
        case .kbps847: NBR_847
        }
    }
}

/// A modulation and baud rate (nfc-types.h `nfc_modulation`).
public struct Modulation: Hashable, Sendable, CustomStringConvertible {
    public var type: ModulationType
    public var baudRate: BaudRate

    public init(_ type: ModulationType, _ baudRate: BaudRate) {
        self.type = type
        self.baudRate = baudRate
    }

    public static let iso14443A = Modulation(.iso14443A, .kbps106)
    public static let felica212 = Modulation(.felica, .kbps212)
    public static let felica424 = Modulation(.felica, .kbps424)
    public static let iso14443B = Modulation(.iso14443B, .kbps106)
    public static let jewel = Modulation(.jewel, .kbps106)

    var c: nfc_modulation { nfc_modulation(nmt: type.c, nbr: baudRate.c) }

    public var description: String {
        String(cString: str_nfc_modulation_type(type.c)) + " " + String(cString: str_nfc_baud_rate(baudRate.c))
    }
}

/// Device properties this project sets (nfc-types.h `nfc_property`).
public enum DeviceProperty: Hashable, Sendable {
    /// The chip adds and checks CRC itself.
    case handleCRC
    /// The chip adds and checks parity itself.
    case handleParity
    /// The RF field is on.
    case activateField
    /// Selection retries for ever (true) or tries once (false).
    case infiniteSelect
    /// The chip frames commands to the selected target itself (InDataExchange on a PN53x):
    /// ISO-DEP block framing and CRC are its business.
    case easyFraming
    /// The chip sends RATS itself after selecting an ISO-DEP type A object.
    case autoISO14443_4

    var c: nfc_property {
        switch self {
        case .handleCRC: NP_HANDLE_CRC
        case .handleParity: NP_HANDLE_PARITY
        case .activateField: NP_ACTIVATE_FIELD
        case .infiniteSelect: NP_INFINITE_SELECT
        case .easyFraming: NP_EASY_FRAMING
        case .autoISO14443_4: NP_AUTO_ISO14443_4
        }
    }
}

/// What libnfc learnt about a target while activating it. A value: no pointer into libnfc.
public struct Target: Hashable, Sendable {
    public enum Info: Hashable, Sendable {
        /// ATQA (in libnfc's order), SAK, UID, ATS (without TL; empty when not ISO-DEP).
        case iso14443A(atqa: [UInt8], sak: UInt8, uid: [UInt8], ats: [UInt8])
        /// IDm, PMm, system code (may be empty).
        case felica(idm: [UInt8], pmm: [UInt8], systemCode: [UInt8])
        /// ATQB fields: PUPI, application data, protocol info.
        case iso14443B(pupi: [UInt8], applicationData: [UInt8], protocolInfo: [UInt8])
        /// SENS_RES and the 4-byte Jewel ID.
        case jewel(sensRes: [UInt8], id: [UInt8])
        /// Another modulation; the wrapper keeps only the modulation.
        case other
    }

    public var modulation: Modulation
    public var info: Info
    /// The C value, to hand back to libnfc (presence checks).
    let raw: nfc_target

    init(_ t: nfc_target) {
        raw = t
        let type = ModulationType(t.nm.nmt) ?? .iso14443A
        modulation = Modulation(type, BaudRate(t.nm.nbr))
        switch t.nm.nmt {
        case NMT_ISO14443A:
            let a = t.nti.nai
            info = .iso14443A(atqa: Self.bytes(a.abtAtqa, 2), sak: a.btSak,
                              uid: Self.bytes(a.abtUid, min(a.szUidLen, 10)),
                              ats: Self.bytes(a.abtAts, min(a.szAtsLen, 254)))
        case NMT_FELICA:
            let f = t.nti.nfi
            info = .felica(idm: Self.bytes(f.abtId, 8), pmm: Self.bytes(f.abtPad, 8),
                           systemCode: f.szLen > 18 ? Self.bytes(f.abtSysCode, 2) : [])
        case NMT_ISO14443B:
            let b = t.nti.nbi
            info = .iso14443B(pupi: Self.bytes(b.abtPupi, 4), applicationData: Self.bytes(b.abtApplicationData, 4),
                              protocolInfo: Self.bytes(b.abtProtocolInfo, 3))
        case NMT_JEWEL:
            let j = t.nti.nji
            info = .jewel(sensRes: Self.bytes(j.btSensRes, 2), id: Self.bytes(j.btId, 4))
        default:
            info = .other
        }
    }

    /// The identifier the object answered anticollision with (UID, IDm, PUPI, Jewel ID).
    public var identifier: [UInt8] {
        switch info {
        case .iso14443A(_, _, let uid, _): uid
        case .felica(let idm, _, _): idm
        case .iso14443B(let pupi, _, _): pupi
        case .jewel(_, let id): id
        case .other: []
        }
    }

    public static func == (a: Target, b: Target) -> Bool { a.modulation == b.modulation && a.info == b.info }
    public func hash(into hasher: inout Hasher) { hasher.combine(modulation); hasher.combine(info) }

    private static func bytes<T>(_ tuple: T, _ count: Int) -> [UInt8] {
        withUnsafeBytes(of: tuple) { Array($0.prefix(count)) }
    }
}

/// Unchecked Sendable: a C struct of plain values (the modulation and the target's info bytes, no
/// pointers), copied whole wherever it goes.
extension nfc_target: @retroactive @unchecked Sendable {}
