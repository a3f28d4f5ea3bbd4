/// Everything nfcscan does to an object, one driver per tag platform behind one protocol (the
/// seam between the faces — CLI, daemon, write session — and the tag protocols), so a new
/// platform or a backend quirk stays a local change. A driver speaks to one object through
/// ``TagTransport``; the backend runs each call inside its own exclusive section (a PC/SC
/// transaction), so a call is one whole operation: identify, read or plan, write, read back.
///
/// Writes are tear-safe as the NFC Forum specifications order them: an object taken away after
/// any command reads back as the old message, an empty one or the new one. The object written is
/// the object read (its UID is checked before the last command), and every write is read back
/// and compared.
public protocol TagDriver: Sendable {
    var platform: TagPlatform { get }
    /// What the object is: formatted or blank, read-write or read-only, capacity and use (Core
    /// NFC's queryNDEFStatus). Changes nothing.
    func status() async throws(TagWriteError) -> TagStatus
    /// Reads the NDEF message.
    func readNDEF() async throws(TagReadError) -> TagReading
    /// Replaces the message with `message` (an encoded NDEF message; empty to erase: an empty
    /// NDEF message stays), formatting a blank object first only when `options` asks. With
    /// ``WriteOptions/lockAfter``, everything the lock after it needs is checked too before the
    /// first command that changes the object.
    @discardableResult
    func write(_ message: [UInt8], options: WriteOptions) async throws(TagWriteError) -> TagWriteReport
    /// Makes the object read-only for good (CC write access, lock bits, access bits), after
    /// checking it holds a valid layout. Irreversible: the faces ask first.
    @discardableResult
    func makeReadOnly(options: WriteOptions) async throws(TagWriteError) -> TagWriteReport
}

/// What a driver's ``TagDriver/status()`` found.
public struct TagStatus: Hashable, Sendable {
    public enum Access: String, Hashable, Sendable {
        case readWrite = "read-write"
        case readOnly = "read-only"
    }

    public var platform: TagPlatform
    /// The chip's name when known ("NTAG216").
    public var product: String?
    public var uid: [UInt8]?
    /// False for a blank object (formattable when asked).
    public var formatted: Bool
    public var access: Access
    /// The largest encoded NDEF message that fits now (framing and reserved areas counted out);
    /// for a blank object, what fits once formatted, when the driver knows.
    public var capacity: Int
    /// Bytes of the message it holds (0 when empty or blank).
    public var used: Int
    /// Whether a password protects writing (NTAG21x AUTH0 within memory), when the driver knows.
    public var passwordProtected: Bool?
    public var roundTrips: Int
    /// The chip's originality signature as read (``TagReading/originality``), for `nfcscan info`.
    public var originality: OriginalityEvidence?

    public init(platform: TagPlatform, product: String?, uid: [UInt8]?, formatted: Bool, access: Access,
                capacity: Int, used: Int, passwordProtected: Bool? = nil, roundTrips: Int, originality: OriginalityEvidence? = nil) {
        self.originality = originality
        self.platform = platform
        self.product = product
        self.uid = uid
        self.formatted = formatted
        self.access = access
        self.capacity = capacity
        self.used = used
        self.passwordProtected = passwordProtected
        self.roundTrips = roundTrips
    }
}

/// What the person asked for along with a write.
public struct WriteOptions: Hashable, Sendable {
    /// Format a blank object first (never without being asked).
    public var formatIfBlank: Bool
    /// The NTAG21x password (4 bytes) for PWD_AUTH before writing a protected object.
    public var password: [UInt8]?
    /// The write is to be followed by ``TagDriver/makeReadOnly(options:)`` in the same exclusive
    /// section (``ObjectWrite`` runs them so): ``TagDriver/write(_:options:)`` then refuses,
    /// before its first command, whatever would make that lock refuse (lock bits this chip or
    /// link cannot reach, a password the lock pages need, a card family without a standard
    /// lock, keys that do not open the trailers), so a write that cannot be locked changes nothing.
    public var lockAfter: Bool

    public init(formatIfBlank: Bool = false, password: [UInt8]? = nil, lockAfter: Bool = false) {
        self.formatIfBlank = formatIfBlank
        self.password = password
        self.lockAfter = lockAfter
    }
}

/// What a write, erase or make-read-only did.
public struct TagWriteReport: Hashable, Sendable {
    /// Commands sent to the object, reads and read-back included.
    public var roundTrips: Int
    /// Whether the object was blank and was formatted first.
    public var formatted: Bool
    /// Whether anything had to be written (false: the object already held it).
    public var changed: Bool
    /// After making read-only: whether the chip itself now refuses writes (lock bits, LOCK
    /// BLOCK, access bits), or false when only the capability container says read-only (the link
    /// did not pass the lock commands: readers and writers that follow the NFC Forum CC honour
    /// it, a tool writing blocks directly does not). Nil for writes.
    public var chipLocked: Bool?

    public init(roundTrips: Int, formatted: Bool = false, changed: Bool = true, chipLocked: Bool? = nil) {
        self.roundTrips = roundTrips
        self.formatted = formatted
        self.changed = changed
        self.chipLocked = chipLocked
    }
}

extension TLVAreaWritePlan {
    /// The largest message an NDEF TLV of `available` bytes holds (1-byte length up to 254, else
    /// the 3-byte form).
    public static func largestMessage(in available: Int) -> Int {
        if available - 4 >= 0xFF { return min(available - 4, 0xFFFE) }
        return max(0, min(available - 2, 0xFE))
    }
}
