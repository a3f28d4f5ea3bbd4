/// The Updates that replace the NDEF message of a Type 3 object, in the order NFC Forum Type 3
/// Tag §7 gives, so an object taken away after any of them reads as the old message, the new
/// one, or "write in progress" — which a reader refuses rather than showing part of a message:
///
/// 1. The attribute block with WriteF 0F (the rest as it was, the old Ln included).
/// 2. The message's blocks 1…⌈Ln/16⌉ (the last padded with zeros), at most Nbw per Update.
/// 3. The attribute block with WriteF 00 and the new Ln (and its checksum): one Update commits.
///
/// Refused before anything is sent: an attribute block that does not decode, RWFlag 00
/// (read-only) or another value than 01, Nbw 0, a message longer than Nmaxb blocks.
public struct Type3WritePlan: Hashable, Sendable {
    /// One Update: blocks of the NDEF service, 16 bytes of data each.
    public struct Update: Hashable, Sendable {
        public var blocks: [Int]
        public var data: [UInt8]
    }

    public let updates: [Update]
    /// The attribute block once the plan is done.
    public let attributeBlock: [UInt8]
    /// The blocks after the attribute block the message takes, padded to whole blocks.
    public let dataBlocks: [UInt8]
    /// Bytes the object holds at most (Nmaxb × 16).
    public let capacity: Int

    /// - Parameters:
    ///   - attributeBlock: block 0 as read.
    ///   - current: the message the object holds, when it was read (an equal message and WriteF 00
    ///     need no Update).
    ///   - maxBlocksPerFrame: what one Update frame may carry on the link.
    public init(attributeBlock block: [UInt8], current: [UInt8]? = nil, message: [UInt8],
                maxBlocksPerFrame: Int = FeliCaFrame.maxBlocksPerUpdateFrame) throws(WriteRefusal) {
        let attribute = try Self.decode(block)
        guard attribute.readWriteFlag == 0x01 else {
            if attribute.readWriteFlag == 0x00 { throw .readOnly }
            throw .capabilityContainer(.invalidField("RWFlag", value: Int(attribute.readWriteFlag), offset: 10))
        }
        guard attribute.blocksPerUpdate > 0 else { throw .capabilityContainer(.invalidField("Nbw", value: 0, offset: 2)) }
        capacity = attribute.maxBlocks * 16
        guard message.count <= capacity else { throw .doesNotFit(needed: message.count, available: capacity) }
        let blockCount = (message.count + 15) / 16
        dataBlocks = message + [UInt8](repeating: 0, count: blockCount * 16 - message.count)
        attributeBlock = Type3AttributeBlock.updating(block, writeFlag: 0x00, readWriteFlag: attribute.readWriteFlag, ndefLength: message.count)
        if current == message, attribute.writeFlag == 0x00, attributeBlock == Array(block.prefix(16)) {
            updates = []
            return
        }
        var updates = [Update(blocks: [0], data: Type3AttributeBlock.updating(block, writeFlag: Type3AttributeBlock.writeInProgress,
                                                                                   readWriteFlag: attribute.readWriteFlag, ndefLength: attribute.ndefLength))]
        let perUpdate = max(1, min(attribute.blocksPerUpdate, maxBlocksPerFrame))
        var next = 1
        while next <= blockCount {
            let blocks = Array(next...min(blockCount, next + perUpdate - 1))
            updates.append(Update(blocks: blocks, data: Array(dataBlocks[((blocks[0] - 1) * 16)..<(blocks.last! * 16)])))
            next += blocks.count
        }
        updates.append(Update(blocks: [0], data: attributeBlock))
        self.updates = updates
    }

    /// Block 0 as a writer takes it: WriteF 0F is allowed (the write replaces the half-written
    /// message); a block that does not decode is a refusal, an all-zero one an unformatted object.
    static func decode(_ block: [UInt8]) throws(WriteRefusal) -> Type3AttributeBlock {
        if block.count >= 16, block.prefix(16).allSatisfy({ $0 == 0 }) { throw .notFormatted }
        do { return try Type3AttributeBlock(block, allowingWriteInProgress: true) } catch {
            switch error {
            case .capabilityContainer(let cc): throw .capabilityContainer(cc)
            case .attributeChecksum(let stored, _): throw .capabilityContainer(.invalidField("checksum", value: stored, offset: 14))
            case .invalidNDEFLength(let length, _): throw .capabilityContainer(.invalidField("Ln", value: length, offset: 11))
            default: throw .capabilityContainer(.tooShort(needed: 16, available: block.count))
            }
        }
    }
}
