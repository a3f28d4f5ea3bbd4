import NDEF

/// Why an object's NDEF message could not be read. Every case is complete: no partial message
/// travels with an error.
public enum TagReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The object left the field (or stopped answering) in the middle of the read, after
    /// `roundTrips` exchanges. Tell the person to hold it still for longer.
    case objectRemoved(roundTrips: Int)
    /// Any other link failure.
    case transport(TransportError)
    /// The capability container does not describe an NDEF-formatted object, or is malformed.
    case capabilityContainer(CapabilityContainerError)
    /// The capability container forbids reading the NDEF data.
    case readAccessDenied
    /// The TLV structure of the data area is broken.
    case memory(TLVError)
    /// The NDEF message would reach past the end of the object's data area: the length bytes
    /// claim `needed` bytes of data area, the object has `capacity`.
    case messagePastEndOfMemory(needed: Int, capacity: Int)
    /// A Type 2 chip answered a command with a 4-bit NAK.
    case nak(command: String, code: UInt8)
    /// A password protects reading the object (NTAG21x PROT) and none was given.
    case passwordRequired
    /// A password protects reading the object and it refused the one given.
    case wrongPassword
    /// A password protects reading the object and the reader cannot send one (a PC/SC
    /// storage-card reader: ``TransportError/passwordNotPassed``), given or not.
    case passwordNotPassed
    /// A response of the wrong length for its command.
    case unexpectedResponse(command: String, expected: Int, received: Int)
    /// The object has no NDEF application (Type 4: neither the v2 nor the v1 AID selects).
    case noNDEFApplication
    /// A Type 4 command answered with a status word other than 90 00.
    case status(command: String, StatusWord)
    /// The NDEF file's length field (NLEN / ENLEN) is larger than the file can hold.
    case invalidNDEFLength(Int, maximum: Int)
    /// The read needs something the object or link cannot do (for example READ BINARY B1 with
    /// an MLe too small for its response header).
    case unsupported(String)
    /// Type 3: the Attribute Information Block's checksum (bytes 14–15) is not the sum of bytes 0–13.
    case attributeChecksum(stored: Int, computed: Int)
    /// Type 3: WriteF is 0x0F: a writer was interrupted and the stored message is incomplete.
    case writeInProgress
    /// Type 3: a FeliCa command answered with non-zero status flags.
    case felicaStatus(command: String, flag1: UInt8, flag2: UInt8)
    /// MIFARE Classic: a key refused, no or a corrupt application directory, a read refused.
    case mifareClassic(MifareClassicError)
    /// Type 5: an ISO 15693 command answered with the error flag and this error code.
    case iso15693Error(command: String, code: UInt8)

    public var description: String {
        switch self {
        case .objectRemoved(let roundTrips):
            "moved away too soon: the object left the reader after \(roundTrips) exchanges; hold it still until the read completes"
        case .transport(let error): error.description
        case .capabilityContainer(let error): error.description
        case .readAccessDenied: "the object does not allow its NDEF data to be read"
        case .memory(let error): "tag memory: \(error)"
        case .messagePastEndOfMemory(let needed, let capacity):
            "the NDEF message claims \(needed) bytes of tag memory but the object holds \(capacity)"
        case .nak(let command, let code): "the object refused \(command) (NAK \(Hex.code(code)))"
        case .passwordRequired: "reading is protected by a password"
        case .wrongPassword: "reading is protected by a password, and the object refused the one given"
        case .passwordNotPassed:
            "reading is protected by a password, which this reader cannot send (it passes only reads and writes to the chip); use a reader that passes the chip's own commands (a PC/SC reader with a pass-through such as an ACR122U, or a libnfc reader)"
        case .unexpectedResponse(let command, let expected, let received):
            "\(command) answered \(received) bytes, expected \(expected)"
        case .noNDEFApplication: "the object has no NDEF application"
        case .status(let command, let status): "\(command) failed with status \(status)"
        case .invalidNDEFLength(let length, let maximum):
            "the NDEF file claims a \(length)-byte message but holds at most \(maximum)"
        case .unsupported(let what): "not supported: \(what)"
        case .attributeChecksum(let stored, let computed):
            "the attribute information block is corrupt (checksum \(stored), bytes sum to \(computed))"
        case .writeInProgress: "the object's NDEF message was left half-written (WriteF 0F)"
        case .felicaStatus(let command, let flag1, let flag2):
            "\(command) failed with status flags \(Hex.code(flag1)) \(Hex.code(flag2))"
        case .mifareClassic(let error): error.description
        case .iso15693Error(let command, let code): "\(command) failed with ISO 15693 error \(Hex.code(code))"
        }
    }
}
