/// How a Type 2 chip's lock bits and configuration pages are laid out, so the writer (making an
/// object read-only, checking password protection) and the simulator (refusing writes to locked
/// or protected pages) work from one description. Facts from the NXP data sheets (NTAG213/215/216
/// rev. 3.2 §8.5.2–8.5.3 and §8.5.7, MF0ULX1 rev. 3.2 §8.5).

/// The static lock bytes (page 2 bytes 2–3), as every Type 2 chip has them: byte 2 bits 0–2 are
/// block-locking bits, bit 3 locks the CC (page 3), bits 4–7 pages 4–7; byte 3 locks pages 8–15.
public enum Type2StaticLock {
    public static let page = 2
    /// The last page the static lock bits reach.
    public static let lastPage = 15
    /// Written to page 2 to lock pages 3–15 and freeze those bits (bytes 0–1 are UID and internal
    /// bytes the chip ignores in a WRITE).
    public static let lockingEverything: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    /// The lock bits (bytes 2–3, as one 16-bit value, byte 2 low) that the block-locking bits in
    /// `bits` freeze: BL CC the CC's lock bit, BL 9-4 the bits of pages 4–9, BL 15-10 those of
    /// pages 10–15.
    public static func frozenBits(_ bits: Int) -> Int {
        var frozen = 0
        if bits & 0x1 != 0 { frozen |= 1 << 3 }
        if bits & 0x2 != 0 { frozen |= 0b11_1111 << 4 }
        if bits & 0x4 != 0 { frozen |= 0b11_1111 << 10 }
        return frozen
    }

    /// Whether the lock bytes (page 2 bytes 2–3) lock `page` (3–15) against writing.
    public static func locks(_ page: Int, lockBytes: ArraySlice<UInt8>) -> Bool {
        guard (3...lastPage).contains(page), lockBytes.count == 2 else { return false }
        let bits = Int(lockBytes[lockBytes.startIndex]) | Int(lockBytes[lockBytes.startIndex + 1]) << 8
        return bits & (1 << page) != 0
    }
}

/// The dynamic lock bytes of an NTAG213/215/216 (the page right after user memory): bytes 0–1
/// hold one lock bit per `pagesPerBit` pages from page 16, byte 2 the block-locking bits (one per
/// two lock bits), byte 3 and the remaining bits are RFUI and are written as 0, as the data sheet
/// asks (byte 3 reads BD).
public struct Type2DynamicLock: Hashable, Sendable {
    /// First page the dynamic lock bits reach.
    public static let firstPage = 16
    public var pagesPerBit: Int
    public var lockBits: Int
    public var blockLockBits: Int

    public init(pagesPerBit: Int, lockBits: Int, blockLockBits: Int) {
        precondition(lockBits <= 16 && blockLockBits <= 8, "two lock bytes and one block-lock byte")
        self.pagesPerBit = pagesPerBit
        self.lockBits = lockBits
        self.blockLockBits = blockLockBits
    }

    /// The page write that sets every lock and block-locking bit and no RFUI bit.
    public var lockingEverything: [UInt8] {
        let locks = (1 << lockBits) - 1
        return [UInt8(locks & 0xFF), UInt8(locks >> 8), UInt8((1 << blockLockBits) - 1), 0x00]
    }

    /// The lock bits (bytes 0–1 as one 16-bit value) that the block-locking bits in `blockBits`
    /// (byte 2) freeze: each covers two lock bits.
    public func frozenBits(_ blockBits: Int) -> Int {
        (0..<blockLockBits).reduce(0) { frozen, bit in blockBits & (1 << bit) != 0 ? frozen | (0b11 << (2 * bit)) : frozen }
    }

    /// Whether the dynamic lock bytes `bytes` (bytes 0–1 of the page) lock `page`.
    public func locks(_ page: Int, lockBytes bytes: ArraySlice<UInt8>) -> Bool {
        guard page >= Self.firstPage, bytes.count >= 2 else { return false }
        let bit = (page - Self.firstPage) / pagesPerBit
        guard bit < lockBits else { return false }
        let bits = Int(bytes[bytes.startIndex]) | Int(bytes[bytes.startIndex + 1]) << 8
        return bits & (1 << bit) != 0
    }

    /// NTAG213: 2 pages a bit (pages 16–39), bytes FF 0F 3F.
    public static let ntag213 = Type2DynamicLock(pagesPerBit: 2, lockBits: 12, blockLockBits: 6)
    /// NTAG215: 16 pages a bit (pages 16–129), bytes FF 00 0F.
    public static let ntag215 = Type2DynamicLock(pagesPerBit: 16, lockBits: 8, blockLockBits: 4)
    /// NTAG216: 16 pages a bit (pages 16–225), bytes FF 3F 7F.
    public static let ntag216 = Type2DynamicLock(pagesPerBit: 16, lockBits: 14, blockLockBits: 7)
}

/// Where an NTAG21x / Ultralight EV1's configuration pages are: the dynamic lock page (chips
/// with more than 48 bytes), CFG0 (AUTH0 in byte 3), CFG1 (ACCESS in byte 0, PROT its bit 7),
/// PWD and PACK (both read as zeros).
public struct Type2ConfigurationPages: Hashable, Sendable {
    public var dynamicLock: Int?
    public var cfg0: Int
    public var cfg1: Int { cfg0 + 1 }
    public var password: Int { cfg0 + 2 }
    public var passwordAcknowledge: Int { cfg0 + 3 }

    /// The first page a READ for both the dynamic lock bytes and CFG0/CFG1 starts at.
    public var firstPage: Int { dynamicLock ?? cfg0 }
}

extension Type2Product {
    /// The configuration pages, for chips that have them.
    public var configurationPages: Type2ConfigurationPages? {
        guard let first = configurationPage else { return nil }
        switch totalPages - first {
        case 5: return Type2ConfigurationPages(dynamicLock: first, cfg0: first + 1)
        case 4: return Type2ConfigurationPages(dynamicLock: nil, cfg0: first)
        default: return nil
        }
    }
}

/// What CFG0 and CFG1 say about password protection (NTAG21x §8.8, MF0ULX1 §8.6): pages from
/// AUTH0 on need PWD_AUTH to be written, and to be read too when PROT is set.
public struct Type2PasswordProtection: Hashable, Sendable {
    public static let authenticateCode: UInt8 = 0x1B
    /// First protected page; past the last page means none.
    public var auth0: Int
    public var readProtected: Bool

    public init(auth0: Int, readProtected: Bool) {
        self.auth0 = auth0
        self.readProtected = readProtected
    }

    /// From the 8 bytes of CFG0 and CFG1.
    public init?(configuration bytes: ArraySlice<UInt8>) {
        guard bytes.count >= 8 else { return nil }
        let start = bytes.startIndex
        self.init(auth0: Int(bytes[start + 3]), readProtected: bytes[start + 4] & 0x80 != 0)
    }

    /// Whether writing `page` needs the password.
    public func protects(_ page: Int) -> Bool { page >= auth0 }

    /// The PWD_AUTH frame (`1B` and the 4-byte password); the chip answers its 2-byte PACK.
    public static func authenticate(_ password: [UInt8]) -> [UInt8] { [authenticateCode] + password }
}
