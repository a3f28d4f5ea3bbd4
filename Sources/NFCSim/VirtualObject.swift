import NFCTags

/// What a virtual object does with one command frame, as the chip would on the air.
public enum VirtualReply: Hashable, Sendable {
    /// A response frame (without CRC).
    case frame([UInt8])
    /// A Type 2 chip's 4-bit NAK (``Type2Acknowledgement``); transports deliver it as one byte.
    case nak(UInt8)
    /// No answer at all: the reader times out.
    case silence
}

/// A simulated contactless object: it answers command frames exactly as the real chip does, so
/// the same object can sit behind the in-process transport in tests and behind real daemons
/// (vpcd, a PN532 emulator) in `nfcsim`.
public protocol VirtualObject: Sendable {
    /// The NFC Forum platform the object speaks, so a link can refuse what it cannot carry.
    static var platform: TagPlatform { get }
    /// Whether the object is still in the field.
    var isPresent: Bool { get }
    /// Answers one command frame.
    mutating func respond(to command: [UInt8]) -> VirtualReply
    /// Activation again (WUPA/SELECT, or RATS for ISO-DEP): volatile state returns to its
    /// just-selected values. False when the object has left the field.
    mutating func reactivate() -> Bool
}

/// When a virtual object leaves the field: after answering a given number of commands, to test
/// what a reader does with an object moved away mid-read.
public struct FieldPresence: Hashable, Sendable {
    /// Commands answered before the object leaves; nil to stay for ever.
    public var removeAfterCommands: Int?
    public private(set) var commandsAnswered = 0

    public init(removeAfterCommands: Int? = nil) {
        self.removeAfterCommands = removeAfterCommands
    }

    public var isPresent: Bool { removeAfterCommands.map { commandsAnswered < $0 } ?? true }

    /// Counts one command; false when the object is already gone and must stay silent.
    public mutating func admit() -> Bool {
        guard isPresent else { return false }
        commandsAnswered += 1
        return true
    }
}
