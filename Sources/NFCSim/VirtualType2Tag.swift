import NDEF
import NFCTags

/// A Type 2 chip (NTAG21x, MIFARE Ultralight family) answering GET_VERSION, READ, FAST_READ and
/// READ_SIG from a memory image as the NXP data sheets describe:
///
/// - READ returns 4 pages from the given one, rolling over to page 0 past the last page; an
///   address past the last page gets NAK 0x0.
/// - FAST_READ returns every page from start to end; start after end or end past the last page
///   gets NAK 0x0.
/// - A NAK, or a command the chip does not implement, sends it to IDLE: it answers nothing until
///   re-activated. The original Ultralight does not implement GET_VERSION or FAST_READ and stays
///   silent (``unknownCommandReply``).
public struct VirtualType2Tag: VirtualObject {
    public static let platform = TagPlatform.type2
    /// An NXP UID (manufacturer byte 0x04).
    public static let defaultUID: [UInt8] = [0x04, 0x5A, 0x31, 0x12, 0x6B, 0x2C, 0x80]

    public let product: Type2Product
    /// The whole memory, page 0 on.
    public private(set) var memory: [UInt8]
    public var presence: FieldPresence
    /// What the chip does with a command it does not implement: the original Ultralight is silent.
    public var unknownCommandReply: VirtualReply
    /// In IDLE after a NAK or an unknown command: silent until re-activated.
    public private(set) var isIdle = false
    /// ATQA (as libnfc prints it) and SAK the chip answers during activation: 00 44 and 00 for
    /// every NTAG and Ultralight; a dump may say otherwise.
    public var atqa: [UInt8] = [0x00, 0x44]
    public var sak: UInt8 = 0x00
    /// The originality signature READ_SIG (3C 00) answers; nil: a chip without READ_SIG. A chip
    /// of a family NXP signs starts with ``unsignedSignature``: no one but NXP can make a real
    /// one, so a made-up chip answers as clone chips typically do; a dump's signature (or
    /// `nfcsim --signature`) replaces it.
    public var signature: [UInt8]?
    /// What a made-up chip of a signing family answers READ_SIG with: 32 zero bytes.
    public static let unsignedSignature = [UInt8](repeating: 0, count: 32)
    /// The one-way counters READ_CNT (39 NN) answers, 24 bits each (Ultralight EV1 has three);
    /// empty: a chip without READ_CNT.
    public var counters: [UInt32] = []
    /// Pages from this one on are protected by the chip's password (NTAG21x AUTH0 with PROT set,
    /// as a dump that could not read them shows): READ of them and FAST_READ reaching them get
    /// NAK 0; nil: every page reads.
    public var readablePages: Int?
    /// The password PWD_AUTH checks: the PWD page the image holds (FF FF FF FF from the factory),
    /// which READ answers as zeros; nil for chips without one.
    public var password: [UInt8]? {
        product.configurationPages.map { Array(page($0.password)) }
    }
    /// The 2-byte answer to a right password: the first half of the PACK page the image holds
    /// (which also reads as zeros).
    public var passwordAcknowledge: [UInt8]? {
        product.configurationPages.map { Array(page($0.passwordAcknowledge).prefix(2)) }
    }
    /// After a right PWD_AUTH, until the chip is activated again.
    public private(set) var isAuthenticated = false

    /// A chip formatted for NDEF holding `message` (nil: an empty NDEF TLV).
    public init(product: Type2Product, uid: [UInt8] = defaultUID, message: NDEFMessage?,
                presence: FieldPresence = FieldPresence()) throws(VirtualObjectError) {
        let area = try Type2MemoryImage.dataArea(holding: message, capacity: product.ccDataAreaSize)
        try self.init(product: product, uid: uid, dataArea: area, presence: presence)
    }

    /// A chip whose data area (from page 4) holds exactly `dataArea`: TLVs as given, for
    /// unusual and hostile layouts.
    public init(product: Type2Product, uid: [UInt8] = defaultUID, dataArea: [UInt8],
                presence: FieldPresence = FieldPresence()) throws(VirtualObjectError) {
        let image = try Type2MemoryImage.make(product: product, uid: uid, dataArea: dataArea)
        try self.init(product: product, image: image, presence: presence)
    }

    /// A chip with a raw memory image of exactly its size (every page, page 0 on).
    public init(product: Type2Product, image: [UInt8], presence: FieldPresence = FieldPresence()) throws(VirtualObjectError) {
        guard image.count == product.totalPages * Type2Product.pageSize else {
            throw .wrongImageSize(expected: product.totalPages * Type2Product.pageSize, actual: image.count)
        }
        self.product = product
        memory = image
        self.presence = presence
        unknownCommandReply = product.version == nil ? .silence : .nak(Type2Acknowledgement.invalidArgument.rawValue)
        signature = product.originality == nil ? nil : Self.unsignedSignature
    }

    /// The 7-byte UID stored in pages 0–1.
    public var uid: [UInt8] { Array(memory[0..<3] + memory[4..<8]) }

    public var isPresent: Bool { presence.isPresent }

    /// Overwrites memory from `page` on (for building hostile images from a formatted one).
    public mutating func write(_ bytes: [UInt8], atPage page: Int) {
        let start = page * Type2Product.pageSize
        precondition(start + bytes.count <= memory.count, "write past the end of the chip")
        memory.replaceSubrange(start..<(start + bytes.count), with: bytes)
    }

    public mutating func reactivate() -> Bool {
        guard presence.isPresent else { return false }
        isIdle = false
        isAuthenticated = false
        return true
    }

    /// Puts pages from `page` on behind `password` (PWD and PACK; CFG0 AUTH0; CFG1 PROT when reads
    /// are protected too), as a writer with the old password would, for chips with configuration pages.
    public mutating func protect(from page: Int, password: [UInt8], acknowledge: [UInt8] = [0x00, 0x00], readsToo: Bool = false) {
        guard let pages = product.configurationPages else { preconditionFailure("the \(product.name) has no password") }
        precondition(password.count == 4 && acknowledge.count == 2, "PWD is 4 bytes, PACK 2")
        write(password + acknowledge + [0x00, 0x00], atPage: pages.password)
        memory[pages.cfg0 * Type2Product.pageSize + 3] = UInt8(page)
        let access = pages.cfg1 * Type2Product.pageSize
        memory[access] = readsToo ? memory[access] | 0x80 : memory[access] & 0x7F
    }

    /// AUTH0 and PROT as CFG0 and CFG1 hold them now.
    private var protection: Type2PasswordProtection? {
        guard let pages = product.configurationPages else { return nil }
        return Type2PasswordProtection(configuration: memory[(pages.cfg0 * Type2Product.pageSize)...].prefix(8))
    }

    /// Pages from this one on do not answer READ: a dump's unreadable pages, or PROT before PWD_AUTH.
    private var firstUnreadablePage: Int {
        var limit = min(product.totalPages, readablePages ?? product.totalPages)
        if let protection, protection.readProtected, !isAuthenticated { limit = min(limit, protection.auth0) }
        return limit
    }

    static let compatibilityWriteCode: UInt8 = 0xA0

    public mutating func respond(to frame: [UInt8]) -> VirtualReply {
        guard presence.admit(), !isIdle else { return .silence }
        let reply = switch frame.first {
        case Type2Command.writeCode: store(frame)
        // COMPATIBILITY_WRITE (A0 page + 16 bytes, of which the chip stores the first 4), as a PN53x
        // carries libnfc's MIFARE write in one InDataExchange (`nfc-mfultralight w` uses it).
        case Self.compatibilityWriteCode where frame.count == 18: store([Type2Command.writeCode, frame[1]] + frame[2..<6])
        case Type2PasswordProtection.authenticateCode where product.configurationPages != nil: authenticate(frame)
        default: answer(frame)
        }
        if case .frame = reply { return reply }
        isIdle = true
        return reply
    }

    private func answer(_ frame: [UInt8]) -> VirtualReply {
        let pages = product.totalPages
        // READ_CNT (MF0ULx1 data sheet §8.10), which only dumped chips carry.
        if frame.count == 2, frame[0] == 0x39, !counters.isEmpty {
            guard Int(frame[1]) < counters.count else { return .nak(Type2Acknowledgement.invalidArgument.rawValue) }
            let value = counters[Int(frame[1])]
            return .frame([UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)])
        }
        switch Type2Command(frame: frame) {
        case .getVersion:
            guard let version = product.version else { return unknownCommandReply }
            return .frame(version)
        case .read(let page):
            guard Int(page) < firstUnreadablePage else { return .nak(Type2Acknowledgement.invalidArgument.rawValue) }
            return .frame((0..<4).flatMap { readPage((Int(page) + $0) % pages) })
        case .fastRead(let start, let end):
            guard product.supportsFastRead else { return unknownCommandReply }
            guard start <= end, Int(end) < firstUnreadablePage else { return .nak(Type2Acknowledgement.invalidArgument.rawValue) }
            return .frame((Int(start)...Int(end)).flatMap { readPage($0) })
        case .readSignature:
            guard let signature else { return unknownCommandReply }
            return .frame(signature)
        case nil:
            return unknownCommandReply
        }
    }

    /// PWD_AUTH (1B + 4 bytes): PACK for the right password (authenticated until the next
    /// activation), NAK otherwise.
    private mutating func authenticate(_ frame: [UInt8]) -> VirtualReply {
        guard frame.count == 5, let password, let passwordAcknowledge, Array(frame[1...]) == password else {
            return .nak(Type2Acknowledgement.invalidArgument.rawValue)
        }
        isAuthenticated = true
        return .frame(passwordAcknowledge)
    }

    /// Whether a WRITE to `page` is refused: pages locked by the static or dynamic lock bits, and
    /// pages from AUTH0 on before PWD_AUTH.
    private func refusesWrite(to page: Int) -> Bool {
        let lockBytes = memory[(Type2StaticLock.page * Type2Product.pageSize + 2)...].prefix(2)
        if Type2StaticLock.locks(page, lockBytes: lockBytes) { return true }
        if let lock = product.dynamicLock, let lockPage = product.configurationPages?.dynamicLock, page < lockPage,
           lock.locks(page, lockBytes: memory[(lockPage * Type2Product.pageSize)...].prefix(2)) { return true }
        if let protection, protection.protects(page), !isAuthenticated { return true }
        // CFGLCK (ACCESS bit 6) locks CFG0 and CFG1 for good.
        if let pages = product.configurationPages, page == pages.cfg0 || page == pages.cfg1,
           memory[pages.cfg1 * Type2Product.pageSize] & 0x40 != 0 { return true }
        return false
    }

    /// WRITE (A2 page b0 b1 b2 b3), as the data sheets describe it: pages 0–1 (UID) are
    /// read-only; the lock bytes (page 2 bytes 2–3, the dynamic lock page's bytes 0–2) and the
    /// CC (page 3) are one-time programmable, so bits are ORed in; PWD and PACK are stored in the
    /// image (what `--save` keeps) but read as zeros; a page locked by lock bits, or protected by AUTH0 before PWD_AUTH, gets a NAK;
    /// other pages are replaced. The ACK crosses as an empty frame, as a PN53x InDataExchange
    /// returns it. Block-locking bits freeze the lock bits they cover; CFGLCK locks CFG0/CFG1.
    private mutating func store(_ frame: [UInt8]) -> VirtualReply {
        let page = Int(frame.count == 6 ? frame[1] : 0)
        guard frame.count == 6, page >= 2, page < product.totalPages, !refusesWrite(to: page) else {
            return .nak(Type2Acknowledgement.invalidArgument.rawValue)
        }
        let bytes = Array(frame[2...])
        let pages = product.configurationPages
        let start = page * Type2Product.pageSize
        switch page {
        case Type2StaticLock.page:
            orLockBits(bytes, at: start + 2, frozen: Type2StaticLock.frozenBits(Int(memory[start + 2])))
        case Type2Tag.ccPage:
            for index in 0..<Type2Product.pageSize { memory[start + index] |= bytes[index] }
        case pages?.dynamicLock:
            orLockBits(bytes, at: start, frozen: product.dynamicLock?.frozenBits(Int(memory[start + 2])) ?? 0)
            memory[start + 2] |= bytes[2]
        case pages?.passwordAcknowledge:
            // PACK's bytes 2–3 are RFU.
            memory.replaceSubrange(start..<(start + 2), with: bytes.prefix(2))
        default:
            memory.replaceSubrange(start..<(start + Type2Product.pageSize), with: bytes)
        }
        return .frame([])
    }

    /// ORs two lock bytes (`bytes[0...1]` of the write for the dynamic page, `bytes[2...3]` for
    /// page 2) into memory at `offset`, leaving bits the block-locking bits freeze as they are.
    private mutating func orLockBits(_ bytes: [UInt8], at offset: Int, frozen: Int) {
        let source = offset % Type2Product.pageSize
        let wanted = (Int(bytes[source]) | Int(bytes[source + 1]) << 8) & ~frozen
        memory[offset] |= UInt8(wanted & 0xFF)
        memory[offset + 1] |= UInt8(wanted >> 8)
    }

    private func page(_ number: Int) -> ArraySlice<UInt8> {
        memory[(number * Type2Product.pageSize)..<((number + 1) * Type2Product.pageSize)]
    }

    /// The whole memory as READ answers it: PWD and PACK as zeros.
    public var memoryAsRead: [UInt8] { (0..<product.totalPages).flatMap { readPage($0) } }

    /// A page as READ answers it: PWD and PACK as zeros.
    private func readPage(_ number: Int) -> ArraySlice<UInt8> {
        if let pages = product.configurationPages, number == pages.password || number == pages.passwordAcknowledge {
            return [0x00, 0x00, 0x00, 0x00]
        }
        return page(number)
    }
}
