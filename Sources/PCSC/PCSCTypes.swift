/// One reader's state as SCardGetStatusChange reports it (the `dwEventState` bits).
public struct PCSCReaderStateFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let ignore = Self(rawValue: 0x0001)
    public static let changed = Self(rawValue: 0x0002)
    public static let unknown = Self(rawValue: 0x0004)
    public static let unavailable = Self(rawValue: 0x0008)
    public static let empty = Self(rawValue: 0x0010)
    public static let present = Self(rawValue: 0x0020)
    public static let atrMatch = Self(rawValue: 0x0040)
    public static let exclusive = Self(rawValue: 0x0080)
    public static let inUse = Self(rawValue: 0x0100)
    public static let mute = Self(rawValue: 0x0200)
    public static let unpowered = Self(rawValue: 0x0400)
}

/// A reader named in SCardGetStatusChange, with what the caller last saw and what pcscd reports.
///
/// pcsc-lite keeps an event counter per reader in the high 16 bits of `dwEventState` (and, for
/// ``PCSCReaderState/plugAndPlay``, the number of readers). Passing the last reported state back
/// as ``known`` makes pcscd answer as soon as anything happened since, even a removal and an
/// arrival between two calls, which the counter then shows as a step of two.
public struct PCSCReaderState: Hashable, Sendable {
    /// The pseudo-reader whose state changes when a reader is added or removed.
    public static let plugAndPlay = "\\\\?PnP?\\Notification"

    public var reader: String
    /// What the caller knows (`dwCurrentState`): 0 (unaware) at first, then the last ``reported``.
    public var known: UInt
    /// What pcscd reported (`dwEventState`).
    public var reported: UInt
    /// The card's ATR while one is present.
    public var atr: [UInt8]

    public init(reader: String, known: UInt = 0) {
        self.reader = reader
        self.known = known
        self.reported = 0
        self.atr = []
    }

    public var flags: PCSCReaderStateFlags { PCSCReaderStateFlags(rawValue: reported & 0xFFFF) }
    /// pcsc-lite's event counter: card insertions and removals so far (the reader count for
    /// ``plugAndPlay``).
    public var eventCount: Int { Int((reported >> 16) & 0xFFFF) }
    /// The state to pass next time: everything reported so far.
    public mutating func acknowledge() { known = reported & ~PCSCReaderStateFlags.changed.rawValue }
}

public enum PCSCShareMode: UInt32, Sendable {
    case exclusive = 1
    case shared = 2
    case direct = 3
}

/// What happens to the card when a handle is released.
public enum PCSCDisposition: UInt32, Sendable {
    case leave = 0
    case reset = 1
    case unpower = 2
    case eject = 3
}

public struct PCSCProtocol: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let t0 = Self(rawValue: 0x0001)
    public static let t1 = Self(rawValue: 0x0002)
    public static let raw = Self(rawValue: 0x0004)
    public static let any: Self = [.t0, .t1]
}

/// What SCardStatus says about a connected card.
public struct PCSCCardStatus: Hashable, Sendable {
    public var reader: String
    public var state: UInt
    public var activeProtocol: PCSCProtocol
    public var atr: [UInt8]
}
