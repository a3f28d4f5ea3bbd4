import NDEF

/// One block of a TLV data area to write: its index counted from the block holding the data
/// area's first byte.
public struct DataAreaBlockWrite: Hashable, Sendable {
    public var block: Int
    public var bytes: [UInt8]

    public init(block: Int, bytes: [UInt8]) {
        self.block = block
        self.bytes = bytes
    }
}

/// The block writes that replace the NDEF message in a TLV data area (Types 1, 2 and 5 and
/// MIFARE Classic's NDEF sectors) in the tear-safe order NFC Forum Type 2 Tag §7.5.3 gives, which
/// Type 5 and MIFARE Classic follow as well: an object taken away after any write reads as the old
/// message, an empty one or the new one.
///
/// 1. **Empty**: the block holding the TLV's first length byte is written with that byte 0 (the
///    rest of the block already as in the end state), and the block holding the TLV type 03 when
///    it is another block. When the TLV goes where a Terminator was, the length block goes first
///    (the Terminator still ends the walk); otherwise the type block goes first (what follows it
///    is already 00, or it already is 03).
/// 2. **Body**: every other block that changes, in address order: the message, the 3-byte length's
///    last two bytes, the Terminator. A reader stops at the empty TLV and never sees them.
/// 3. **Commit**: the length block again, with the real first length byte (0xFF of the 3-byte
///    form, or the 1-byte length): one write, so the message appears whole or not at all.
///
/// Blocks whose bytes do not change are not written. The message goes where the NDEF TLV is, or
/// where the Terminator is, or after the last non-NULL TLV (Lock and Memory Control TLVs and the
/// bytes before the message are never changed). It must end before the data area does and before
/// the first reserved area after where it starts. Bytes after the new Terminator are left as they
/// are: readers stop at the message.
public struct TLVAreaWritePlan: Hashable, Sendable {
    /// The writes, in the order they must be sent.
    public let writes: [DataAreaBlockWrite]
    /// Bytes the NDEF TLV may use from where it goes.
    public let available: Int
    /// The data area once every write is done.
    public let dataArea: [UInt8]

    /// Plans writing `message` (the encoded NDEF message; empty for an empty message).
    /// - Parameters:
    ///   - data: the whole data area as read; its length is the capacity (a partial last block
    ///     is left out).
    ///   - blockSize: bytes one write command stores (4 for Type 2, 4 or 8 for Type 5, 16 for
    ///     MIFARE Classic, 8 for Type 1's WRITE-E8 blocks).
    ///   - reserved: areas of the data area (offsets into `data`) the message must not reach
    ///     (Lock and Memory Control TLVs' areas).
    ///   - leading: the bytes before the data area in the block that holds its first byte (a
    ///     4-byte Type 5 CC in 8-byte blocks), kept as they are when that block is written.
    public init(data: [UInt8], blockSize: Int, reserved: [Range<Int>] = [], leading: [UInt8] = [],
                message: [UInt8]) throws(WriteRefusal) {
        precondition(blockSize > 0 && leading.count < blockSize, "a block holds bytes, the data area starts in the first")
        let data = Array(data.prefix(max(0, (leading.count + data.count) / blockSize * blockSize - leading.count)))
        let capacity = data.count
        let blocks: [TLVBlock]
        do { blocks = try TLVWalker.blocks(in: data) } catch { throw .unreadableLayout(error) }
        let start = blocks.first { $0.tag == .ndefMessage || $0.tag == .terminator }?.offset
            ?? blocks.last { $0.tag != .null }?.valueRange.upperBound ?? 0

        var limit = capacity
        for area in reserved where area.upperBound > start && !area.isEmpty {
            limit = min(limit, max(start, area.lowerBound))
        }
        available = max(0, limit - start)
        guard let tlv = TLVWalker.encode(.ndefMessage, value: message) else {
            throw .doesNotFit(needed: message.count + 4, available: available)
        }
        guard tlv.count <= available else { throw .doesNotFit(needed: tlv.count, available: available) }

        var final = data
        final.replaceSubrange(start..<(start + tlv.count), with: tlv)
        if start + tlv.count < limit { final[start + tlv.count] = TLVBlock.Tag.terminator.rawValue }
        guard final != data else {
            (writes, dataArea) = ([], final)
            return
        }
        var staging = final
        staging[start + 1] = 0

        var current = leading + data
        var writes: [DataAreaBlockWrite] = []
        func write(_ block: Int, from area: [UInt8]) {
            let image = leading + area
            let range = (block * blockSize)..<((block + 1) * blockSize)
            guard current[range] != image[range] else { return }
            current.replaceSubrange(range, with: image[range])
            writes.append(DataAreaBlockWrite(block: block, bytes: Array(image[range])))
        }
        let typeBlock = (leading.count + start) / blockSize, lengthBlock = (leading.count + start + 1) / blockSize
        if data[start] == TLVBlock.Tag.terminator.rawValue {
            write(lengthBlock, from: staging)
            write(typeBlock, from: staging)
        } else {
            write(typeBlock, from: staging)
            write(lengthBlock, from: staging)
        }
        for block in 0..<((leading.count + capacity) / blockSize) where block != lengthBlock { write(block, from: staging) }
        write(lengthBlock, from: final)
        self.writes = writes
        dataArea = final
    }
}
