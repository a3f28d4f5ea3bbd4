import NDEF

/// Formatting a blank Type 2 chip for NDEF (NFC Forum Type 2 Tag §6.2, as NXP formats NTAG21x at
/// the factory): an empty NDEF TLV and a Terminator at page 4, then the capability container
/// `E1 10 <size/8> 00` with the data-area size the chip's table entry gives (0x12, 0x3E, 0x6D for
/// NTAG213/215/216; 0x06 and 0x10 for the 48- and 128-byte chips). Page 4 goes first: an object
/// taken away before the CC is written still reads as blank; after it, as formatted and empty.
///
/// The CC page is one-time programmable: a WRITE ORs its bits in. So a chip whose CC already holds
/// bits the new CC lacks cannot be formatted (the result would be neither), and one whose static
/// lock bits lock page 3 or 4 cannot either.
public struct Type2FormatPlan: Hashable, Sendable {
    /// Page 4, then the CC page.
    public let writes: [Type2PageWrite]
    public let capabilityContainer: [UInt8]

    /// The empty NDEF TLV and the Terminator.
    public static let emptyDataArea: [UInt8] = [TLVBlock.Tag.ndefMessage.rawValue, 0x00, TLVBlock.Tag.terminator.rawValue, 0x00]

    /// - Parameters:
    ///   - product: the chip GET_VERSION named; nil (no GET_VERSION, or a chip the table does not
    ///     know) is refused: its memory size is unknown, and a wrong CC cannot be undone.
    ///   - header: pages 0–3 as read (UID, lock bytes, CC).
    public init(product: Type2Product?, header: [UInt8]) throws(WriteRefusal) {
        guard header.count >= 16 else { throw .memoryIncomplete(needed: 16, available: header.count) }
        guard let product, product.version != nil else {
            throw .cannotFormat("the chip did not say which model it is, so the size of its memory is unknown")
        }
        let current = Array(header[12..<16])
        if current[0] == Type2CapabilityContainer.magic { throw .alreadyFormatted }
        let cc: [UInt8] = [Type2CapabilityContainer.magic, 0x10, UInt8(product.ccDataAreaSize / 8), 0x00]
        guard zip(current, cc).allSatisfy({ $0 | $1 == $1 }) else {
            throw .cannotFormat("its capability container (written once for good) already holds \(Hex.string(current))")
        }
        let lockBytes = header[10..<12]
        guard !Type2StaticLock.locks(Type2Tag.ccPage, lockBytes: lockBytes),
              !Type2StaticLock.locks(Type2Product.firstUserPage, lockBytes: lockBytes) else {
            throw .cannotFormat("its first pages are locked")
        }
        capabilityContainer = cc
        writes = [Type2PageWrite(page: Type2Product.firstUserPage, bytes: Self.emptyDataArea),
                  Type2PageWrite(page: Type2Tag.ccPage, bytes: cc)]
    }
}
