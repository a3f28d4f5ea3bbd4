import NDEF
import NFCTags

/// Why a virtual object cannot be built as asked.
public enum VirtualObjectError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The content needs `needed` bytes; the object holds `capacity`.
    case doesNotFit(needed: Int, capacity: Int)
    /// A UID of the wrong length (Type 1 and 2 chips have 7 bytes, a FeliCa IDm 8).
    case invalidUID(length: Int)
    /// A raw memory image whose size is not the chip's.
    case wrongImageSize(expected: Int, actual: Int)

    public var description: String {
        switch self {
        case .doesNotFit(let needed, let capacity): "content needs \(needed) bytes, the object holds \(capacity)"
        case .invalidUID(let length): "a Type 1 or 2 UID has 7 bytes and a FeliCa IDm 8, not \(length)"
        case .wrongImageSize(let expected, let actual): "the chip's memory is \(expected) bytes, the image \(actual)"
        }
    }
}

/// The whole memory of a Type 2 chip, page 0 to the last page, as it leaves the factory and is
/// then formatted for NDEF (NTAG21x data sheet §8.5, NFC Forum Type 2 Tag §2).
public enum Type2MemoryImage {
    /// UID (pages 0–1, with the two check bytes), static lock bytes (page 2), the capability
    /// container NXP writes for the product (page 3), `dataArea` from page 4 padded with zeros, and the
    /// configuration pages in their delivery state.
    public static func make(product: Type2Product, uid: [UInt8], dataArea: [UInt8]) throws(VirtualObjectError) -> [UInt8] {
        guard uid.count == 7 else { throw .invalidUID(length: uid.count) }
        guard dataArea.count <= product.userMemory else { throw .doesNotFit(needed: dataArea.count, capacity: product.userMemory) }
        // BCC0 = CT (0x88) ⊕ UID0 ⊕ UID1 ⊕ UID2; BCC1 = UID3 ⊕ UID4 ⊕ UID5 ⊕ UID6 (ISO 14443-3 cascade).
        let bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
        let bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
        var memory = [uid[0], uid[1], uid[2], bcc0, uid[3], uid[4], uid[5], uid[6], bcc1, 0x48, 0x00, 0x00]
        memory += [Type2CapabilityContainer.magic, 0x10, UInt8(product.ccDataAreaSize / 8), 0x00]
        memory += dataArea + [UInt8](repeating: 0, count: product.userMemory - dataArea.count)
        if let configuration = product.configurationPage {
            let pages = product.totalPages - configuration
            // Dynamic lock bytes (when the chip has them), CFG0 (AUTH0 FF: no password protection),
            // CFG1, PWD (FF FF FF FF from the factory; reads as zeros), PACK (00 00).
            if pages == 5 { memory += [0x00, 0x00, 0x00, 0xBD] }
            memory += [0x04, 0x00, 0x00, 0xFF, 0x00, 0x05, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00]
        }
        precondition(memory.count == product.totalPages * Type2Product.pageSize, "product table and layout disagree")
        return memory
    }

    /// A chip as it leaves the factory before NDEF formatting: the CC page and the data area
    /// zero, the configuration pages in their delivery state.
    public static func blank(product: Type2Product, uid: [UInt8]) throws(VirtualObjectError) -> [UInt8] {
        var memory = try make(product: product, uid: uid, dataArea: [])
        let cc = Type2Tag.ccPage * Type2Product.pageSize
        memory.replaceSubrange(cc..<(cc + Type2Product.pageSize), with: [0, 0, 0, 0])
        return memory
    }

    /// The data area holding `message` in an NDEF Message TLV (1- or 3-byte length), then the
    /// Terminator TLV when there is room. nil `message` writes an empty NDEF TLV (a formatted,
    /// empty object).
    public static func dataArea(holding message: NDEFMessage?, capacity: Int) throws(VirtualObjectError) -> [UInt8] {
        let bytes = message?.encoded() ?? []
        guard let tlv = TLVWalker.encode(.ndefMessage, value: bytes) else { throw .doesNotFit(needed: bytes.count, capacity: capacity) }
        guard tlv.count <= capacity else { throw .doesNotFit(needed: tlv.count, capacity: capacity) }
        return tlv.count < capacity ? tlv + [TLVBlock.Tag.terminator.rawValue] : tlv
    }

    /// A raw image of at most the chip's size, padded with zeros to it (nfc-mfultralight leaves
    /// out pages it could not read), and how many bytes were added; nil when it is longer.
    public static func padded(_ bytes: [UInt8], product: Type2Product) -> (image: [UInt8], padded: Int)? {
        let size = product.totalPages * Type2Product.pageSize
        guard bytes.count <= size else { return nil }
        return (bytes + [UInt8](repeating: 0, count: size - bytes.count), size - bytes.count)
    }
}
