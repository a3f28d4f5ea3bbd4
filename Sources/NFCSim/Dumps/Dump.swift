import NDEF
import NFCTags

/// A dump file read: which format it was, the chip it describes and what nfcsim should tell the
/// person about it (bytes the reader could not read, values it had to assume).
public struct Dump: Sendable {
    public var format: DumpFormat
    public var chip: DumpedChip
    public var notes: [String]

    public init(format: DumpFormat, chip: DumpedChip, notes: [String] = []) {
        self.format = format
        self.chip = chip
        self.notes = notes
    }
}

public enum DumpFormat: String, Hashable, Sendable {
    case flipper = "Flipper Zero .nfc"
    case proxmark3 = "Proxmark3 JSON"
    case metrodroid = "Metrodroid JSON"
    case raw = "raw image"
}

/// The chip a dump describes, with everything the simulator needs to answer as it did.
public enum DumpedChip: Sendable, Equatable {
    case type2(Type2Dump)
    case classic(ClassicDump)
    case type5(Type5Dump)
    case felica(FeliCaDump)
    /// A Topaz (Type 1): only a raw image holds one (no dump format describes it).
    case type1(Type1Dump)

    /// "NTAG213", "MIFARE Classic 1K", "ICODE SLIX", "FeliCa Lite-S", "Topaz 512".
    public var name: String {
        switch self {
        case .type2(let dump): dump.product.name
        case .classic(let dump): dump.size.name
        case .type5(let dump): dump.product.name
        case .felica: "FeliCa"
        case .type1(let dump): dump.product.name
        }
    }
}

/// A dump's originality signature as the chip answered its signature command: kept as it is, all
/// zeros too (a clone's answer, which a genuine chip never gives), except all zeros for a chip of
/// no signing family (`signs` false), where a reader writes zeros for the command it did not send.
func dumpedSignature(_ bytes: [UInt8]?, signs: Bool) -> [UInt8]? {
    guard let bytes, signs || bytes.contains(where: { $0 != 0 }) else { return nil }
    return bytes
}

/// A Type 2 chip (NTAG, MIFARE Ultralight family): its memory page 0 on, the product its
/// GET_VERSION answer (or, for chips without one, its name and page count) makes it, and what it
/// answers during activation.
public struct Type2Dump: Sendable, Equatable {
    public var product: Type2Product
    public var memory: [UInt8]
    /// ATQA as libnfc prints it (00 44 for every NTAG and Ultralight).
    public var atqa: [UInt8]
    public var sak: UInt8
    /// The 32-byte originality signature READ_SIG answers, when the dump has one (all zeros too:
    /// what a clone answered); nil: the dump does not say, and the chip answers as a made-up one
    /// of its family does (``VirtualType2Tag/signature``).
    public var signature: [UInt8]?
    /// The three one-way counters READ_CNT answers (Ultralight EV1).
    public var counters: [UInt32]
    /// Pages from this one on were not read (the chip protects them); nil: every page reads.
    public var readablePages: Int?

    public init(product: Type2Product, memory: [UInt8], atqa: [UInt8], sak: UInt8, signature: [UInt8]?, counters: [UInt32], readablePages: Int? = nil) {
        self.product = product
        self.memory = memory
        self.atqa = atqa
        self.sak = sak
        self.signature = signature
        self.counters = counters
        self.readablePages = readablePages
    }

    /// The product the dump describes. A GET_VERSION answer that is not all zeros decides the
    /// chip (the reader learns its size from it, as from the real chip); chips without
    /// GET_VERSION (Ultralight, Ultralight C, NTAG203) are the original Ultralight's behaviour
    /// with the dump's page count. Either way the dump's page count is the memory.
    public static func product(name: String?, version: [UInt8]?, pageCount: Int) -> Type2Product {
        let version = version.flatMap { $0.count == 8 && $0.contains { $0 != 0 } ? $0 : nil }
        var product: Type2Product
        var identified = false
        if let version {
            if let known = Type2Product.identify(version: version) {
                product = known
                identified = true
            } else {
                product = .ntag213
                product.name = name ?? "Type 2 chip (GET_VERSION \(Hex.string(version)))"
                product.configurationPage = nil
                product.dynamicLock = nil
                product.originality = nil
            }
            product.version = version
            product.supportsFastRead = true
        } else {
            product = .ultralight
            product.name = name ?? (pageCount == 42 ? "NTAG203" : pageCount == 48 ? "MIFARE Ultralight C" : product.name)
        }
        // A chip of its data sheet's size keeps the data sheet's CC size (so `--save` writes back
        // the product nfcsim presented); another page count makes the user memory the CC size.
        if identified, product.totalPages == pageCount { return product }
        product.totalPages = pageCount
        if let configuration = product.configurationPage, configuration >= pageCount { product.configurationPage = nil }
        product.userPages = max(0, (product.configurationPage ?? pageCount) - Type2Product.firstUserPage)
        product.ccDataAreaSize = product.userMemory
        return product
    }

    /// The chip, ready to answer.
    public func virtualTag() throws(VirtualObjectError) -> VirtualType2Tag {
        var tag = try VirtualType2Tag(product: product, image: memory)
        tag.atqa = atqa
        tag.sak = sak
        if let signature { tag.signature = signature }
        tag.counters = counters
        tag.readablePages = readablePages
        return tag
    }
}

/// A MIFARE Classic: its blocks, and the keys the dump does not know (a sector whose trailer was
/// not read, or shows `??` for a key), which the chip then refuses, as it refuses a reader
/// without them.
public struct ClassicDump: Sendable, Equatable {
    public var size: MifareClassicSize
    public var uid: [UInt8]
    public var atqa: [UInt8]?
    public var sak: UInt8?
    public var memory: [UInt8]
    public var unknownKeys: Set<MifareClassicKeySlot>

    /// Builds the memory from blocks as a dump gives them: a nil block was not read, a nil byte
    /// is `??`. Unread bytes read as zeros once authenticated; a key with an unread byte is
    /// unknown (all six bytes zero); unread access bits are the transport configuration (FF 07 80).
    public init(size: MifareClassicSize, uid: [UInt8], atqa: [UInt8]?, sak: UInt8?, blocks: [[UInt8?]?]) {
        self.size = size
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        var memory = [UInt8](repeating: 0, count: size.blockCount * MifareClassicSize.blockSize)
        var unknown = Set<MifareClassicKeySlot>()
        for sector in 0..<size.sectorCount {
            let trailer = size.trailerBlock(ofSector: sector)
            let bytes = trailer < blocks.count ? blocks[trailer] : nil
            let trailerBytes = bytes.flatMap { $0.count == 16 ? $0 : nil }
            if trailerBytes.map({ $0[0..<6].contains(nil) }) ?? true { unknown.insert(MifareClassicKeySlot(sector: sector, keyB: false)) }
            if trailerBytes.map({ $0[10..<16].contains(nil) }) ?? true { unknown.insert(MifareClassicKeySlot(sector: sector, keyB: true)) }
        }
        for (number, block) in blocks.prefix(size.blockCount).enumerated() {
            guard var block, block.count == 16 else { continue }
            if number == size.trailerBlock(ofSector: size.sector(ofBlock: number)) {
                if block[6..<9].contains(nil) { block.replaceSubrange(6..<9, with: [0xFF, 0x07, 0x80]) }
                // A key with an unread byte is unknown as a whole: none of its bytes is kept, so the
                // chip is the same whichever of them the dump had (and as nfcsim --save writes it).
                for key in [0..<6, 10..<16] where block[key].contains(nil) {
                    block.replaceSubrange(key, with: [UInt8?](repeating: nil, count: 6))
                }
            }
            memory.replaceSubrange((number * 16)..<(number * 16 + 16), with: block.map { $0 ?? 0 })
        }
        self.memory = memory
        unknownKeys = unknown
    }

    /// The size a dump's block count makes.
    static func size(blockCount: Int) -> MifareClassicSize? {
        MifareClassicSize.allCases.first { $0.blockCount == blockCount }
    }

    /// The size a dump's sector count makes.
    static func size(sectorCount: Int) -> MifareClassicSize? {
        MifareClassicSize.allCases.first { $0.sectorCount == sectorCount }
    }

    public func virtualChip() throws(VirtualObjectError) -> VirtualMifareClassic {
        var chip = try VirtualMifareClassic(size: size, uid: uid, image: memory)
        chip.unknownKeys = unknownKeys
        chip.atqa = atqa
        chip.sak = sak
        return chip
    }
}

/// An ISO 15693 (NFC Forum Type 5) chip: its geometry and memory as the dump read them.
public struct Type5Dump: Sendable, Equatable {
    public var product: Type5Product
    public var uid: [UInt8]
    public var memory: [UInt8]
    /// The 32-byte signature READ SIGNATURE answers (ICODE SLIX2, DNA), when the dump has one;
    /// nil: the chip answers as a made-up one of its kind does (``VirtualType5Tag/signature``).
    public var signature: [UInt8]? = nil

    public func virtualTag() throws(VirtualObjectError) -> VirtualType5Tag {
        var tag = try VirtualType5Tag(product: product, uid: uid, image: memory)
        if let signature { tag.signature = signature }
        return tag
    }
}

/// A FeliCa holding an NDEF service (0x000B): the service's blocks, attribute block first, and
/// the IDm and PMm it answers POLLING with.
public struct FeliCaDump: Sendable, Equatable {
    public var idm: [UInt8]
    public var pmm: [UInt8]
    public var blocks: [UInt8]

    public func virtualTag() throws(VirtualObjectError) -> VirtualType3Tag {
        try VirtualType3Tag(image: blocks, idm: idm, pmm: pmm)
    }
}

/// A Topaz 96 or 512 (NFC Forum Type 1): its whole memory, block 0 (the UID) on.
public struct Type1Dump: Sendable, Equatable {
    public var product: VirtualType1Tag.Product
    public var memory: [UInt8]

    public func virtualTag() -> VirtualType1Tag {
        VirtualType1Tag(product: product, image: memory)
    }
}
