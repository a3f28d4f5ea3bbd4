/// How the object was found, with what it told the reader during activation.
public enum ObjectTechnology: Hashable, Sendable {
    /// ISO/IEC 14443 type A: ATQA, SAK and (ISO-DEP only) the ATS without TL.
    case iso14443A(atqa: [UInt8], sak: UInt8, ats: [UInt8])
    case felica(pmm: [UInt8], systemCode: [UInt8])
    case iso14443B(applicationData: [UInt8], protocolInfo: [UInt8])
    case jewel
    /// Another modulation (named as libnfc names it).
    case other(String)
}
