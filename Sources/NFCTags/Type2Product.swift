/// A Type 2 chip model: what GET_VERSION answers and how its memory is laid out.
///
/// Facts from the NXP data sheets (NTAG210/212 rev. 3.4, NTAG213/215/216 rev. 3.2, MF0ULX1 rev. 3.2,
/// MF0ICU1 rev. 3.9). Tag protocols use the table to learn the exact user memory from GET_VERSION;
/// the simulator uses it to lay out its images, so both describe the same chips.
public struct Type2Product: Hashable, Sendable {
    /// Marketing name, as printed on data sheets ("NTAG216").
    public var name: String
    /// The 8-byte GET_VERSION response, or nil for chips that do not implement GET_VERSION.
    public var version: [UInt8]?
    /// Number of 4-byte pages the chip answers READ for.
    public var totalPages: Int
    /// Pages of user memory, starting at page 4.
    public var userPages: Int
    /// Data area the capability container of an NDEF-formatted chip announces (CC byte 2 × 8).
    /// NXP formats NTAG215 and NTAG216 with a little less than their user memory (496 of 504,
    /// 872 of 888 bytes); readers go by the CC.
    public var ccDataAreaSize: Int
    /// First page of the configuration area (dynamic lock bytes, CFG0/CFG1, PWD, PACK), if any.
    public var configurationPage: Int?
    /// Whether the chip implements FAST_READ (0x3A).
    public var supportsFastRead: Bool
    /// The dynamic lock bits, where the data sheet's layout is known to this table (NTAG213/215/216);
    /// nil for chips without them (48 bytes of user memory: the static lock bits reach it all) and
    /// for NTAG212 and MF0UL21, whose lock bits nfcscan does not set.
    public var dynamicLock: Type2DynamicLock? = nil
    /// The family whose originality signature the chip answers READ_SIG (3C 00) with, 32 bytes
    /// (NTAG210/212 and NTAG213/215/216 data sheets, MF0ULX1); nil for chips without one (the
    /// original Ultralight, Ultralight C, NTAG203).
    public var originality: OriginalityFamily? = nil

    public static let pageSize = 4
    public static let firstUserPage = 4

    /// User memory in bytes.
    public var userMemory: Int { userPages * Self.pageSize }
    /// Last page of user memory.
    public var lastUserPage: Int { Self.firstUserPage + userPages - 1 }

    public static let ntag210 = Type2Product(name: "NTAG210", version: [0x00, 0x04, 0x04, 0x01, 0x01, 0x00, 0x0B, 0x03],
                                             totalPages: 20, userPages: 12, ccDataAreaSize: 48, configurationPage: 0x10, supportsFastRead: true,
                                             originality: .ntag21x)
    public static let ntag212 = Type2Product(name: "NTAG212", version: [0x00, 0x04, 0x04, 0x01, 0x01, 0x00, 0x0E, 0x03],
                                             totalPages: 41, userPages: 32, ccDataAreaSize: 128, configurationPage: 0x24, supportsFastRead: true,
                                             originality: .ntag21x)
    public static let ntag213 = Type2Product(name: "NTAG213", version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03],
                                             totalPages: 45, userPages: 36, ccDataAreaSize: 144, configurationPage: 0x28, supportsFastRead: true,
                                             dynamicLock: .ntag213, originality: .ntag21x)
    public static let ntag215 = Type2Product(name: "NTAG215", version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03],
                                             totalPages: 135, userPages: 126, ccDataAreaSize: 496, configurationPage: 0x82, supportsFastRead: true,
                                             dynamicLock: .ntag215, originality: .ntag21x)
    public static let ntag216 = Type2Product(name: "NTAG216", version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x13, 0x03],
                                             totalPages: 231, userPages: 222, ccDataAreaSize: 872, configurationPage: 0xE2, supportsFastRead: true,
                                             dynamicLock: .ntag216, originality: .ntag21x)
    /// MIFARE Ultralight EV1, 48 bytes of user memory (MF0UL11).
    public static let ultralightEV1_48 = Type2Product(name: "MIFARE Ultralight EV1 (MF0UL11)",
                                                      version: [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0B, 0x03],
                                                      totalPages: 20, userPages: 12, ccDataAreaSize: 48, configurationPage: 0x10, supportsFastRead: true,
                                                      originality: .ultralightEV1)
    /// MIFARE Ultralight EV1, 128 bytes of user memory (MF0UL21).
    public static let ultralightEV1_128 = Type2Product(name: "MIFARE Ultralight EV1 (MF0UL21)",
                                                       version: [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0E, 0x03],
                                                       totalPages: 41, userPages: 32, ccDataAreaSize: 128, configurationPage: 0x24, supportsFastRead: true,
                                                       originality: .ultralightEV1)
    /// The original MIFARE Ultralight (MF0ICU1): no GET_VERSION, no FAST_READ, 48 bytes.
    public static let ultralight = Type2Product(name: "MIFARE Ultralight", version: nil,
                                                totalPages: 16, userPages: 12, ccDataAreaSize: 48, configurationPage: nil, supportsFastRead: false)

    /// Every chip the table knows.
    public static let known: [Type2Product] = [.ntag210, .ntag212, .ntag213, .ntag215, .ntag216,
                                               .ultralightEV1_48, .ultralightEV1_128, .ultralight]

    /// The chip a GET_VERSION response names, matched on vendor, product type and storage size
    /// (subtype and revision vary between batches of the same chip), or nil for an unknown chip.
    public static func identify(version: [UInt8]) -> Type2Product? {
        guard version.count == 8 else { return nil }
        return known.first { product in
            guard let known = product.version else { return false }
            return known[1] == version[1] && known[2] == version[2] && known[6] == version[6]
        }
    }
}
