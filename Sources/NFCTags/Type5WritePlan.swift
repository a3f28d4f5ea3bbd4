import NDEF

/// The WRITE SINGLE BLOCKs that replace a Type 5 object's NDEF message, in the tear-safe order
/// Type 5 Tag shares with Type 2 (``TLVAreaWritePlan`` over the chip's 4- or 8-byte blocks): the
/// CC is checked (formatted, write access granted), the data area bounded by MLEN and the chip's
/// size, and a 4-byte CC sharing an 8-byte block kept as it is.
public struct Type5WritePlan: Hashable, Sendable {
    /// One block to write: its number on the chip and its bytes.
    public struct BlockWrite: Hashable, Sendable {
        public var block: Int
        public var bytes: [UInt8]
    }

    /// The writes, in the order they must be sent; the last one makes the message appear.
    public let writes: [BlockWrite]
    /// Data-area bytes the NDEF TLV may use from where it goes.
    public let available: Int
    /// The memory from block 0 through the data area once every write is done.
    public let memory: [UInt8]

    /// Plans writing `message` (the encoded NDEF message; empty for an empty message).
    /// - Parameters:
    ///   - memory: the chip's memory from block 0 through the end of the data area, as read.
    ///   - blockSize: bytes per block (GET SYSTEM INFORMATION, or the length of a block read).
    ///   - blockCount: the chip's blocks, when it reported them (bounds an overstated MLEN).
    public init(memory: [UInt8], blockSize: Int, blockCount: Int?, message: [UInt8]) throws(WriteRefusal) {
        let cc: Type5CapabilityContainer
        do { cc = try Type5CapabilityContainer(memory.prefix(memory.count > 2 && memory[2] == 0 ? 8 : 4)) } catch {
            if case .notNDEF = error { throw .notFormatted }
            throw .capabilityContainer(error)
        }
        guard cc.write == .granted else { throw .readOnly }
        var size = cc.dataAreaSize
        if let blockCount { size = min(size, blockCount * blockSize - cc.length) }
        size = max(0, size)
        // A data area ending mid-block (a 4-byte CC in 8-byte blocks) is given through the end of
        // that block, the bytes past it reserved: the block is written whole, those bytes as read.
        let end = cc.length + size, blockEnd = (end + blockSize - 1) / blockSize * blockSize
        guard memory.count >= blockEnd else { throw .memoryIncomplete(needed: blockEnd, available: memory.count) }
        let firstBlock = cc.length / blockSize
        let leading = Array(memory[(firstBlock * blockSize)..<cc.length])
        let plan = try TLVAreaWritePlan(data: Array(memory[cc.length..<blockEnd]), blockSize: blockSize,
                                        reserved: blockEnd > end ? [size..<(blockEnd - cc.length)] : [],
                                        leading: leading, message: message)
        let writes = plan.writes.map { BlockWrite(block: firstBlock + $0.block, bytes: $0.bytes) }
        if let last = writes.map(\.block).max(), last > 255 {
            throw .unsupported("writing Type 5 blocks past 255 (the extended commands of large chips)")
        }
        self.writes = writes
        available = plan.available
        var after = memory
        for write in writes { after.replaceSubrange((write.block * blockSize)..<((write.block + 1) * blockSize), with: write.bytes) }
        self.memory = Array(after.prefix(blockEnd))
    }

    /// The CC of a blank chip of `totalBytes` bytes: `E1 40 MLEN features` (mapping 1.0, read
    /// and write access granted), MLEN counting only the blocks a single-byte address reaches
    /// (at most 256, so MLEN fits one byte), and the empty NDEF message that starts its data area.
    /// - Parameter features: CC byte 3 (01 READ MULTIPLE BLOCKS, 08 LOCK BLOCK, 10 special frame).
    public static func blankLayout(totalBytes: Int, blockSize: Int, features: UInt8) -> (capabilityContainer: [UInt8], dataArea: [UInt8]) {
        let reachable = min(totalBytes, 256 * blockSize)
        return ([0xE1, 0x40, UInt8(min(0xFF, max(0, reachable - 4) / 8)), features], [0x03, 0x00, 0xFE])
    }
}
