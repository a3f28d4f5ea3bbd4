import NDEF

/// One Type 2 WRITE (A2): four bytes to one page.
public struct Type2PageWrite: Hashable, Sendable {
    public var page: Int
    public var bytes: [UInt8]

    /// The command frame, without the CRC the backend adds.
    public var frame: [UInt8] { [Type2Command.writeCode, UInt8(page)] + bytes }
}

/// The WRITEs that replace a Type 2 object's NDEF message in the tear-safe order of NFC Forum
/// Type 2 Tag §7.5.3 (``TLVAreaWritePlan`` with 4-byte pages): the CC is checked (formatted,
/// write access granted), the data area bounded as the reader bounds it, and the areas Lock and
/// Memory Control TLVs reserve kept out of the message's way. A write to be locked after it is
/// planned with its lock (``Type2LockPlan`` over the data area as it will then be), so a lock
/// the chip or the link cannot do refuses the write before its first WRITE.
public struct Type2WritePlan: Hashable, Sendable {
    /// The WRITEs, in the order they must be sent.
    public let writes: [Type2PageWrite]
    /// Data-area bytes the NDEF TLV may use from where it goes.
    public let available: Int
    /// The data area (from page 4) once every write is done.
    public let dataArea: [UInt8]
    /// The lock that follows the write, when one was asked for.
    public let lock: Type2LockPlan?

    /// Plans writing `message` (the encoded NDEF message; empty for an empty message).
    /// - Parameters:
    ///   - memory: the object's memory from the capability container page (3) on, through the end
    ///     of the data area, as read.
    ///   - userMemory: the chip's user memory from GET_VERSION, when known (bounds the CC as the
    ///     reader does).
    ///   - lock: what making the object read-only after the write needs to know; nil when no
    ///     lock follows.
    public init(memory: [UInt8], userMemory: Int?, message: [UInt8], lock: Type2LockContext? = nil) throws(WriteRefusal) {
        let layout = try Type2DataLayout(memory: memory, userMemory: userMemory)
        guard layout.writable else { throw .readOnly }
        let plan = try TLVAreaWritePlan(data: layout.data, blockSize: Type2Product.pageSize, reserved: layout.reserved, message: message)
        writes = plan.writes.map { Type2PageWrite(page: Type2Product.firstUserPage + $0.block, bytes: $0.bytes) }
        available = plan.available
        dataArea = plan.dataArea
        guard let lock else {
            self.lock = nil
            return
        }
        var after = memory
        after.replaceSubrange(4..<(4 + plan.dataArea.count), with: plan.dataArea)
        self.lock = try Type2LockPlan(product: lock.product, header: lock.header,
                                      layout: try Type2DataLayout(memory: after, userMemory: userMemory),
                                      dynamicLockBytes: lock.dynamicLockBytes, link: lock.link)
    }
}

/// What planning a lock needs beyond the data area (``Type2LockPlan``): the chip, pages 0–3 and
/// the dynamic lock page as the write's first commands read them, and the link they came over.
public struct Type2LockContext: Hashable, Sendable {
    public var product: Type2Product?
    /// Pages 0–3 as read (UID, lock bytes, CC).
    public var header: [UInt8]
    public var dynamicLockBytes: [UInt8]?
    public var link: LinkCapabilities

    public init(product: Type2Product?, header: [UInt8], dynamicLockBytes: [UInt8]?, link: LinkCapabilities) {
        self.product = product
        self.header = header
        self.dynamicLockBytes = dynamicLockBytes
        self.link = link
    }
}

/// A formatted Type 2 object's data area as the CC and its TLVs lay it out: what planning a
/// write, planning a lock and reporting status all start from. The areas Lock and Memory Control
/// TLVs reserve are found as the reader finds them (``TLVDataArea``), so a write flows around
/// them and never changes their bytes.
public struct Type2DataLayout: Hashable, Sendable {
    /// The data area (from page 4), as long as the CC (bounded by the chip's memory) says,
    /// reserved bytes included.
    public let data: [UInt8]
    /// Areas Lock and Memory Control TLVs reserve, as offsets into ``data``.
    public let reserved: [Range<Int>]
    /// Whether the CC grants write access.
    public let writable: Bool
    /// The NDEF message as a reader reads it (around the reserved areas); nil when the data area
    /// holds no NDEF Message TLV.
    public let message: [UInt8]?

    /// - Parameter memory: from the CC page (3) through the end of the data area, as read.
    public init(memory: [UInt8], userMemory: Int?) throws(WriteRefusal) {
        let cc: Type2CapabilityContainer
        do { cc = try Type2CapabilityContainer(memory.prefix(4)) } catch {
            if case .notNDEF = error { throw .notFormatted }
            throw .capabilityContainer(error)
        }
        let capacity = Type2Tag.capacity(of: cc, userMemory: userMemory)
        guard memory.count >= 4 + capacity else { throw .memoryIncomplete(needed: 4 + capacity, available: memory.count) }
        data = Array(memory[4..<(4 + capacity)])
        writable = cc.write == .granted

        let start = Type2Tag.dataAreaStart
        let area: TLVDataArea
        do { area = try TLVDataArea(memory: data, base: start, bounds: start..<(start + capacity)) } catch {
            throw .unreadableLayout(error)
        }
        if let needed = area.needed { throw .unreadableLayout(.truncated(offset: area.data.count, needed: needed)) }
        reserved = area.reserved.map { ($0.lowerBound - start)..<($0.upperBound - start) }
        message = area.message
    }

    /// Bytes of the NDEF message held (0 when there is none).
    public var used: Int { message?.count ?? 0 }

    /// The largest message a write could store now.
    public var capacity: Int {
        let plan = try? TLVAreaWritePlan(data: data, blockSize: Type2Product.pageSize, reserved: reserved, message: [])
        return TLVAreaWritePlan.largestMessage(in: plan?.available ?? 0)
    }
}
