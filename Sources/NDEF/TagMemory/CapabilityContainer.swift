/// Why a Capability Container does not describe an NDEF-formatted object.
public enum CapabilityContainerError: Error, Hashable, Sendable, CustomStringConvertible {
    case tooShort(needed: Int, available: Int)
    /// The magic number is not the NDEF one: the object is not formatted for NDEF.
    case notNDEF(magic: UInt8)
    /// The mapping's major version is newer than this codec reads.
    case unsupportedVersion(major: Int, minor: Int)
    /// A field holds a value the specification forbids, at the given byte offset.
    case invalidField(String, value: Int, offset: Int)
    /// The Type 4 CC file lacks an NDEF File Control TLV.
    case missingNDEFFileControl

    public var description: String {
        switch self {
        case .tooShort(let needed, let available):
            "capability container needs \(needed) bytes, has \(available)"
        case .notNDEF(let magic):
            "not formatted for NDEF (capability container magic \(Hex.code(magic)))"
        case .unsupportedVersion(let major, let minor):
            "unsupported mapping version \(major).\(minor)"
        case .invalidField(let field, let value, let offset):
            "invalid \(field) \(value) at byte \(offset) of the capability container"
        case .missingNDEFFileControl:
            "capability container has no NDEF file control TLV"
        }
    }
}

/// Read and write access as the capability containers encode it.
public enum Access: Hashable, Sendable {
    case granted
    case denied
    /// A proprietary or reserved condition, kept as its code.
    case other(UInt8)
}

/// The Type 2 Tag Capability Container: block 3, four bytes (NFC Forum Type 2 Tag 1.0 §6.1).
public struct Type2CapabilityContainer: Hashable, Sendable {
    public var majorVersion: Int
    public var minorVersion: Int
    /// Size of the data area in bytes (CC byte 2 × 8).
    public var dataAreaSize: Int
    public var read: Access
    public var write: Access

    public static let magic: UInt8 = 0xE1

    public init(_ bytes: some Collection<UInt8>) throws(CapabilityContainerError) {
        let cc = Array(bytes.prefix(4))
        guard cc.count == 4 else { throw .tooShort(needed: 4, available: cc.count) }
        guard cc[0] == Self.magic else { throw .notNDEF(magic: cc[0]) }
        majorVersion = Int(cc[1] >> 4)
        minorVersion = Int(cc[1] & 0x0F)
        guard majorVersion == 1 else { throw .unsupportedVersion(major: majorVersion, minor: minorVersion) }
        dataAreaSize = Int(cc[2]) * 8
        let readCode = cc[3] >> 4, writeCode = cc[3] & 0x0F
        read = readCode == 0 ? .granted : .other(readCode)
        write = writeCode == 0 ? .granted : writeCode == 0x0F ? .denied : .other(writeCode)
    }
}

/// The Type 4 Tag Capability Container file (NFC Forum Type 4 Tag 2.0/3.0 §5.1; mapping 1.0 has the same layout).
public struct Type4CapabilityContainer: Hashable, Sendable {
    public var length: Int
    public var majorVersion: Int
    public var minorVersion: Int
    /// Maximum bytes one READ BINARY may return (MLe).
    public var maxReadLength: Int
    /// Maximum bytes one UPDATE BINARY may send (MLc).
    public var maxWriteLength: Int
    public var ndefFileID: UInt16
    /// Maximum size of the NDEF file, including its 2-byte (or 4-byte, extended) length prefix.
    public var maxNDEFSize: Int
    public var read: Access
    public var write: Access
    /// Whether the NDEF file uses the extended (4-byte) length field (mapping 3.0, TLV 0x06).
    public var extended: Bool

    public init(_ bytes: some Collection<UInt8>) throws(CapabilityContainerError) {
        let cc = Array(bytes)
        guard cc.count >= 15 else { throw .tooShort(needed: 15, available: cc.count) }
        length = Int(cc[0]) << 8 | Int(cc[1])
        guard length >= 15 && length <= cc.count else { throw .invalidField("CCLEN", value: length, offset: 0) }
        majorVersion = Int(cc[2] >> 4)
        minorVersion = Int(cc[2] & 0x0F)
        // Mapping 1.0 (the v1 NDEF application, still on older tags and phones) has the 2.0 layout.
        guard (1...3).contains(majorVersion) else { throw .unsupportedVersion(major: majorVersion, minor: minorVersion) }
        maxReadLength = Int(cc[3]) << 8 | Int(cc[4])
        guard maxReadLength >= 0x0F else { throw .invalidField("MLe", value: maxReadLength, offset: 3) }
        maxWriteLength = Int(cc[5]) << 8 | Int(cc[6])
        guard maxWriteLength >= 0x01 else { throw .invalidField("MLc", value: maxWriteLength, offset: 5) }

        // Walk the TLVs after the fixed header for the (extended) NDEF File Control TLV.
        var index = 7
        var found: (id: UInt16, size: Int, read: UInt8, write: UInt8, extended: Bool)?
        while index + 2 <= length, found == nil {
            let tag = cc[index], tlvLength = Int(cc[index + 1])
            let value = index + 2
            guard value + tlvLength <= length else { throw .invalidField("TLV length", value: tlvLength, offset: index + 1) }
            switch (tag, tlvLength) {
            case (0x04, 6):
                found = (UInt16(cc[value]) << 8 | UInt16(cc[value + 1]), Int(cc[value + 2]) << 8 | Int(cc[value + 3]),
                         cc[value + 4], cc[value + 5], false)
            case (0x06, _) where majorVersion < 3:
                throw .invalidField("extended NDEF file control TLV before mapping 3.0, tag", value: 6, offset: index)
            case (0x06, 8):
                let size = (value + 2..<value + 6).reduce(0) { $0 << 8 | Int(cc[$1]) }
                found = (UInt16(cc[value]) << 8 | UInt16(cc[value + 1]), size, cc[value + 6], cc[value + 7], true)
            case (0x04, _), (0x06, _):
                throw .invalidField("NDEF file control TLV length", value: tlvLength, offset: index + 1)
            default:
                break
            }
            index = value + tlvLength
        }
        guard let found else { throw .missingNDEFFileControl }
        guard found.id != 0x0000, found.id != 0xE102, found.id != 0xE103, found.id != 0x3F00, found.id != 0x3FFF, found.id != 0xFFFF else {
            throw .invalidField("NDEF file ID", value: Int(found.id), offset: 9)
        }
        guard found.size >= (found.extended ? 5 : 3) else { throw .invalidField("maximum NDEF size", value: found.size, offset: 11) }
        ndefFileID = found.id
        maxNDEFSize = found.size
        extended = found.extended
        read = found.read == 0x00 ? .granted : .other(found.read)
        write = found.write == 0x00 ? .granted : found.write == 0xFF ? .denied : .other(found.write)
    }
}

/// The Type 5 Tag Capability Container: the first 4 or 8 bytes of block 0 (NFC Forum Type 5 Tag 1.0 §4.1).
public struct Type5CapabilityContainer: Hashable, Sendable {
    /// 4 (one-byte MLEN) or 8 (two-byte MLEN, for large memories).
    public var length: Int
    /// Magic 0xE2 means blocks are addressed with two bytes.
    public var twoByteAddressing: Bool
    public var majorVersion: Int
    public var minorVersion: Int
    public var read: Access
    public var write: Access
    /// Size of the data area in bytes (MLEN × 8).
    public var dataAreaSize: Int
    /// Whether READ MULTIPLE BLOCKS is supported.
    public var supportsReadMultipleBlocks: Bool
    /// Whether the special frame format is required for writes (and so locks).
    public var requiresSpecialFrame: Bool
    public var supportsLockBlock: Bool

    public init(_ bytes: some Collection<UInt8>) throws(CapabilityContainerError) {
        let cc = Array(bytes.prefix(8))
        guard cc.count >= 4 else { throw .tooShort(needed: 4, available: cc.count) }
        guard cc[0] == 0xE1 || cc[0] == 0xE2 else { throw .notNDEF(magic: cc[0]) }
        twoByteAddressing = cc[0] == 0xE2
        majorVersion = Int(cc[1] >> 6)
        minorVersion = Int(cc[1] >> 4 & 0x03)
        guard majorVersion == 1 else { throw .unsupportedVersion(major: majorVersion, minor: minorVersion) }
        let readCode = cc[1] >> 2 & 0x03, writeCode = cc[1] & 0x03
        read = readCode == 0 ? .granted : .other(readCode)
        write = writeCode == 0 ? .granted : writeCode == 3 ? .denied : .other(writeCode)
        supportsReadMultipleBlocks = cc[3] & 0x01 != 0
        supportsLockBlock = cc[3] & 0x08 != 0
        requiresSpecialFrame = cc[3] & 0x10 != 0
        if cc[2] == 0 {
            guard cc.count == 8 else { throw .tooShort(needed: 8, available: cc.count) }
            length = 8
            dataAreaSize = (Int(cc[6]) << 8 | Int(cc[7])) * 8
        } else {
            length = 4
            dataAreaSize = Int(cc[2]) * 8
        }
    }
}
