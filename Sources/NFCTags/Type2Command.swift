/// A Type 2 command frame, as the chip receives it (without the CRC, which the backend adds).
public enum Type2Command: Hashable, Sendable {
    /// 0x60: product, vendor and memory size (NTAG 21x, Ultralight EV1; not the original Ultralight).
    case getVersion
    /// 0x30: 16 bytes from `page` on (4 pages), wrapping to page 0 past the last page.
    case read(page: UInt8)
    /// 0x3A: every page from `start` to `end` inclusive, in one response.
    case fastRead(start: UInt8, end: UInt8)
    /// 0x3C 00: the 32-byte originality signature (NTAG21x, Ultralight EV1); the address byte is RFU, 00.
    case readSignature

    public static let getVersionCode: UInt8 = 0x60
    public static let readCode: UInt8 = 0x30
    public static let fastReadCode: UInt8 = 0x3A
    public static let readSignatureCode: UInt8 = 0x3C
    /// 0xA2: WRITE of one 4-byte page (``Type2PageWrite``).
    public static let writeCode: UInt8 = 0xA2

    /// Bytes the chip answers with when it accepts the command.
    public var expectedResponseLength: Int {
        switch self {
        case .getVersion: 8
        case .read: 16
        case .fastRead(let start, let end): (Int(end) - Int(start) + 1) * Type2Product.pageSize
        case .readSignature: 32
        }
    }

    public var frame: [UInt8] {
        switch self {
        case .getVersion: [Self.getVersionCode]
        case .read(let page): [Self.readCode, page]
        case .fastRead(let start, let end): [Self.fastReadCode, start, end]
        case .readSignature: [Self.readSignatureCode, 0x00]
        }
    }

    /// Parses a frame (for simulators); nil for commands this enum does not model.
    public init?(frame: [UInt8]) {
        switch (frame.first, frame.count) {
        case (Self.getVersionCode, 1): self = .getVersion
        case (Self.readCode, 2): self = .read(page: frame[1])
        case (Self.fastReadCode, 3): self = .fastRead(start: frame[1], end: frame[2])
        case (Self.readSignatureCode, 2) where frame[1] == 0x00: self = .readSignature
        default: return nil
        }
    }
}

/// The 4-bit answers of Type 2 chips (NTAG21x data sheet §9.3). A transport delivers one as a
/// one-byte response.
public enum Type2Acknowledgement: UInt8, Hashable, Sendable {
    case ack = 0xA
    /// Invalid argument (an address out of range).
    case invalidArgument = 0x0
    case parityOrCRCError = 0x1
    case counterOverflow = 0x4
    case writeError = 0x5
}
