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
/// bytes before the message are never changed). It must end before the data area does; it flows
/// around the reserved areas (lock bits, reserved memory), whose bytes are never changed, as the
/// reader skips them (``TLVDataArea``). Bytes after the new Terminator are left as they are:
/// readers stop at the message.
public struct TLVAreaWritePlan: Hashable, Sendable {
    /// The writes, in the order they must be sent.
    public let writes: [DataAreaBlockWrite]
    /// Bytes the NDEF TLV may use from where it goes (reserved areas counted out).
    public let available: Int
    /// The data area once every write is done.
    public let dataArea: [UInt8]

    /// Plans writing `message` (the encoded NDEF message; empty for an empty message).
    /// - Parameters:
    ///   - data: the whole data area as read; its length is the capacity (a partial last block
    ///     is left out).
    ///   - blockSize: bytes one write command stores (4 for Type 2, 4 or 8 for Type 5, 16 for
    ///     MIFARE Classic, 8 for Type 1's WRITE-E8 blocks).
    ///   - reserved: areas of the data area (offsets into `data`) that are not data (Lock and
    ///     Memory Control TLVs' areas): skipped, and written only as read.
    ///   - leading: the bytes before the data area in the block that holds its first byte (a
    ///     4-byte Type 5 CC in 8-byte blocks), kept as they are when that block is written.
    public init(data: [UInt8], blockSize: Int, reserved: [Range<Int>] = [], leading: [UInt8] = [],
                message: [UInt8]) throws(WriteRefusal) {
        precondition(blockSize > 0 && leading.count < blockSize, "a block holds bytes, the data area starts in the first")
        let data = Array(data.prefix(max(0, (leading.count + data.count) / blockSize * blockSize - leading.count)))
        // The data bytes in order, around the reserved areas: where each sits in `data`.
        let positions = data.indices.filter { index in !reserved.contains { $0.contains(index) } }
        let bytes = positions.map { data[$0] }
        let blocks: [TLVBlock]
        do { blocks = try TLVWalker.blocks(in: bytes) } catch { throw .unreadableLayout(error) }
        let start = TLVDataArea.messageStart(in: blocks)

        available = max(0, positions.count - start)
        guard let tlv = TLVWalker.encode(.ndefMessage, value: message) else {
            throw .doesNotFit(needed: message.count + 4, available: available)
        }
        guard tlv.count <= available else { throw .doesNotFit(needed: tlv.count, available: available) }

        var final = bytes
        final.replaceSubrange(start..<(start + tlv.count), with: tlv)
        if start + tlv.count < positions.count { final[start + tlv.count] = TLVBlock.Tag.terminator.rawValue }
        /// `leading` and the data area with `logical` in its data bytes, the reserved ones as read.
        func image(_ logical: [UInt8]) -> [UInt8] {
            var area = data
            for (index, position) in positions.enumerated() { area[position] = logical[index] }
            return leading + area
        }
        guard final != bytes else {
            (writes, dataArea) = ([], data)
            return
        }
        var staging = final
        staging[start + 1] = 0

        var current = leading + data
        var writes: [DataAreaBlockWrite] = []
        func write(_ block: Int, from image: [UInt8]) {
            let range = (block * blockSize)..<((block + 1) * blockSize)
            guard current[range] != image[range] else { return }
            current.replaceSubrange(range, with: image[range])
            writes.append(DataAreaBlockWrite(block: block, bytes: Array(image[range])))
        }
        let typeBlock = (leading.count + positions[start]) / blockSize
        let lengthBlock = (leading.count + positions[start + 1]) / blockSize
        let staged = image(staging), done = image(final)
        if bytes[start] == TLVBlock.Tag.terminator.rawValue {
            write(lengthBlock, from: staged)
            write(typeBlock, from: staged)
        } else {
            write(typeBlock, from: staged)
            write(lengthBlock, from: staged)
        }
        for block in 0..<((leading.count + data.count) / blockSize) where block != lengthBlock { write(block, from: staged) }
        write(lengthBlock, from: done)
        self.writes = writes
        dataArea = Array(done.dropFirst(leading.count))
    }
}
