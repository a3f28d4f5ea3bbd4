import NDEF

/// Why a message cannot be written (or an object formatted or made read-only); nothing has been
/// sent to the object when one is given. Shared by every platform's driver, so the faces (CLI exit
/// statuses, the D-Bus write session's endings) map one set of reasons.
public enum WriteRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The object is blank (no NDEF capability container, NDEF application or MAD): it must be
    /// formatted first, which happens only when asked.
    case notFormatted
    /// The capability container is malformed or of a mapping version this writer does not know.
    case capabilityContainer(CapabilityContainerError)
    /// The object says it is read-only (CC write access, Type 4 file write access, Type 3
    /// RWFlag, MIFARE Classic access bits).
    case readOnly
    /// The data area's TLVs cannot be walked, so where the message goes is unknown.
    case unreadableLayout(TLVError)
    /// The plan needs the whole data area as read; `available` bytes were given.
    case memoryIncomplete(needed: Int, available: Int)
    /// The message with its framing needs `needed` bytes; `available` bytes are free.
    case doesNotFit(needed: Int, available: Int)
    /// The object is protected by a password (NTAG21x PWD_AUTH) and none was given.
    case passwordRequired
    /// The object refused the password given.
    case wrongPassword
    /// MIFARE Classic: the sector's keys are not the public NDEF keys (nor those given).
    case keysRefused(sector: Int)
    /// Formatting was asked of an object that already holds an NDEF layout.
    case alreadyFormatted
    /// The object cannot be formatted (or locked) by this writer; the text says why.
    case cannotFormat(String)
    /// Writing this kind of object, or over this link, is not possible; the text says why.
    case unsupported(String)

    public var description: String {
        switch self {
        case .notFormatted: "not formatted for NDEF"
        case .capabilityContainer(let error): error.description
        case .readOnly: "read-only"
        case .unreadableLayout(let error): "data area unreadable: \(error)"
        case .memoryIncomplete(let needed, let available): "memory read \(available) of \(needed) bytes"
        case .doesNotFit(let needed, let available): "message needs \(needed) bytes, \(available) free"
        case .passwordRequired: "protected by a password"
        case .wrongPassword: "the password was refused"
        case .keysRefused(let sector): "sector \(sector) does not open with the NDEF keys"
        case .alreadyFormatted: "already formatted for NDEF"
        case .cannotFormat(let why): "cannot be formatted: \(why)"
        case .unsupported(let what): "not supported: \(what)"
        }
    }
}

/// Why a write, format or make-read-only did not end verified on the object.
public enum TagWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Refused before anything was written.
    case refused(WriteRefusal)
    /// The link failed, or the object left, while reading or writing (`objectRemoved` is "moved
    /// away too soon"); a tear-safe write leaves the old, an empty or the new message.
    case link(TagReadError)
    /// The object answered a write command at this block or page address with a refusal.
    case writeRefused(address: Int, response: [UInt8])
    /// Another object answered before the last command: it was not sent.
    case differentObject
    /// What was read back differs from what was written.
    case didNotVerify

    public var description: String {
        switch self {
        case .refused(let refusal): "refused: \(refusal)"
        case .link(let error): error.description
        case .writeRefused(let address, let response): "the write at \(address) was answered \(Hex.string(response))"
        case .differentObject: "another object answered before the last write"
        case .didNotVerify: "the object did not read back as written"
        }
    }

    /// Whether the object left (or fell silent) mid-operation: "moved away too soon".
    public var isRemoval: Bool {
        if case .link(.objectRemoved) = self { return true }
        return false
    }
}
