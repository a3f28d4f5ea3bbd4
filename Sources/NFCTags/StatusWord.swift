import NDEF

/// The two status bytes that end every ISO 7816-4 response (SW1 SW2).
public struct StatusWord: Hashable, Sendable, CustomStringConvertible {
    public var sw1: UInt8
    public var sw2: UInt8

    public init(_ sw1: UInt8, _ sw2: UInt8) {
        self.sw1 = sw1
        self.sw2 = sw2
    }

    public init(_ value: UInt16) {
        self.init(UInt8(value >> 8), UInt8(value & 0xFF))
    }

    public var value: UInt16 { UInt16(sw1) << 8 | UInt16(sw2) }
    public var bytes: [UInt8] { [sw1, sw2] }

    /// 90 00: command completed.
    public static let success = StatusWord(0x9000)
    /// 62 82: end of file reached before Le bytes were read (data returned is shorter).
    public static let endOfFile = StatusWord(0x6282)
    /// 67 00: wrong length (Lc or Le not allowed).
    public static let wrongLength = StatusWord(0x6700)
    /// 69 82: security status not satisfied (read protected).
    public static let securityStatusNotSatisfied = StatusWord(0x6982)
    /// 69 86: command not allowed (no current EF).
    public static let noCurrentFile = StatusWord(0x6986)
    /// 6A 82: file or application not found.
    public static let fileNotFound = StatusWord(0x6A82)
    /// 6A 86: incorrect parameters P1-P2.
    public static let wrongParameters = StatusWord(0x6A86)
    /// 6B 00: wrong parameters, offset outside the EF.
    public static let wrongOffset = StatusWord(0x6B00)
    /// 6D 00: instruction code not supported.
    public static let instructionNotSupported = StatusWord(0x6D00)
    /// 6E 00: class not supported.
    public static let classNotSupported = StatusWord(0x6E00)

    public var description: String { Hex.string(bytes) }
}

/// A response APDU: data, then the status word.
public struct ResponseAPDU: Hashable, Sendable {
    public var data: [UInt8]
    public var status: StatusWord

    public init(data: [UInt8] = [], status: StatusWord) {
        self.data = data
        self.status = status
    }

    /// Splits a raw response; nil when it is shorter than a status word.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 2 else { return nil }
        data = Array(bytes.dropLast(2))
        status = StatusWord(bytes[bytes.count - 2], bytes[bytes.count - 1])
    }

    public var bytes: [UInt8] { data + status.bytes }
}
