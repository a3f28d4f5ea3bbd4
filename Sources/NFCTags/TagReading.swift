import NDEF

/// Which NFC Forum tag platform an object speaks.
public enum TagPlatform: String, Hashable, Sendable {
    case type1, type2, type3, type4, type5
    /// MIFARE Classic formatted for NDEF (NXP AN1304): not an NFC Forum platform, read through
    /// its MIFARE application directory.
    case mifareClassic = "mifare-classic"
}

/// What one complete read of an object produced.
public struct TagReading: Hashable, Sendable {
    /// What the object holds.
    public enum Content: Hashable, Sendable {
        /// Formatted for NDEF but holding no message (an empty NDEF TLV, NLEN 0, or no NDEF TLV
        /// before the Terminator).
        case empty
        case message(NDEFMessage)
        /// The bytes were read completely but are not a valid NDEF message (strict decoding).
        /// ``TagReading/ndefBytes`` keeps them for lenient display.
        case undecodable(NDEFError)
    }

    public var platform: TagPlatform
    /// The chip's name when the protocol learnt it ("NTAG216"), else nil.
    public var product: String?
    /// The UID the backend saw during activation, if it passed one in.
    public var uid: [UInt8]?
    /// The largest NDEF message the object holds, in bytes: the data area less the TLV's type and
    /// length (Types 1, 2, 5, MIFARE Classic), the NDEF file less its length field (Type 4), the
    /// attribute block's Nmaxb blocks (Type 3). The figure `nfcscan info` and every report give.
    public var capacity: Int
    /// The NDEF message bytes exactly as stored (without TLV or NLEN framing).
    public var ndefBytes: [UInt8]
    public var content: Content
    /// Exchanges with the object this read took (commands sent plus re-activations).
    public var roundTrips: Int
    /// False for a blank object, one never formatted for messages (no NDEF magic number, no
    /// NDEF application or directory): it reads as holding nothing, as a formatted empty one does.
    public var formatted: Bool
    /// The chip's originality signature as read, for chips that carry one (nil: the chip is of no
    /// family NXP signs, or its family is not known).
    public var originality: OriginalityEvidence?

    public init(platform: TagPlatform, product: String?, uid: [UInt8]?, capacity: Int, ndefBytes: [UInt8], roundTrips: Int,
                formatted: Bool = true) {
        self.formatted = formatted
        self.platform = platform
        self.product = product
        self.uid = uid
        self.capacity = capacity
        self.ndefBytes = ndefBytes
        self.roundTrips = roundTrips
        if ndefBytes.isEmpty {
            content = .empty
        } else {
            do { content = .message(try NDEFMessage(decoding: ndefBytes)) } catch { content = .undecodable(error) }
        }
    }

    /// A blank object's reading: nothing held, no room known until it is formatted.
    public static func blank(platform: TagPlatform, product: String?, uid: [UInt8]?, roundTrips: Int) -> TagReading {
        TagReading(platform: platform, product: product, uid: uid, capacity: 0, ndefBytes: [], roundTrips: roundTrips, formatted: false)
    }

    /// The decoded message, or nil when the object is empty or its bytes do not decode.
    public var message: NDEFMessage? {
        if case .message(let message) = content { message } else { nil }
    }
}
