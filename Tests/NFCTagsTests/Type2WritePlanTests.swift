import NDEF
import NFCSim
import NFCTags
import PropertyBased
import Testing

/// The Type 2 write plan: refusals before anything is sent, the fewest pages, and tearing: the
/// object taken away after any number of its WRITEs reads, through the real reader, as the old
/// message, an empty one or the new one.
@Suite struct Type2WritePlanTests {
    /// What precedes the message in the data area.
    enum Prefix: CaseIterable {
        case none
        /// NTAG's own Lock Control TLV: dynamic lock bytes past the data area.
        case lockControl
        case nulls
        /// A Memory Control TLV reserving 8 bytes near the end of the data area (NTAG215: 16
        /// bytes of data follow them; NTAG213: they are its last 8).
        case reservedNearEnd
    }

    /// What the object holds before the write.
    enum Old: CaseIterable {
        case message
        case messageWithoutTerminator
        case emptyTLV
        case terminatorOnly
        case blank
    }

    static func prefixBytes(_ prefix: Prefix, capacity: Int) -> [UInt8] {
        switch prefix {
        case .none: return []
        case .lockControl:
            // Byte 160 (page 0x28, NTAG213) or 520 (page 0x82, NTAG215).
            return capacity > 200 ? [0x01, 0x03, 0x88, 0x50, 0x36] : [0x01, 0x03, 0xA0, 0x0C, 0x34]
        case .nulls: return [0x00, 0x00, 0x00]
        case .reservedNearEnd:
            // 32-byte pages (nibble 5): page 15 byte 8 = byte 488 (NTAG215); 16-byte pages: byte 152 (NTAG213).
            return capacity > 200 ? [0x02, 0x03, 0xF8, 0x08, 0x05] : [0x02, 0x03, 0x98, 0x08, 0x04]
        }
    }

    /// Deterministic bytes from a seed, with old bytes left after the message to show that they
    /// never leak into a reading.
    static func bytes(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: seed &+ $0 &* 131 &+ ($0 >> 3)) }
    }

    /// The new message's length in a tearing property: mode 0 empty, 1 `fill` % of `largest`,
    /// 2 exactly full, 3 one byte over.
    static func newLength(mode: Int, largest: Int, fill: Int) -> Int {
        switch mode {
        case 0: 0
        case 1: largest * fill / 100
        case 2: largest
        default: largest + 1
        }
    }

    /// The data area of the old object and the message it holds.
    static func oldArea(_ old: Old, prefix: [UInt8], capacity: Int, free: Int, fill: Int, seed: Int) -> ([UInt8], [UInt8]) {
        let maxOld = free - (free - 2 < 0xFF ? 2 : 4)
        let message = bytes(max(0, maxOld) * fill / 100, seed: seed)
        let rest: [UInt8]
        switch old {
        case .message: rest = TLVWalker.encode(.ndefMessage, value: message)! + [0xFE] + bytes(capacity, seed: seed + 7)
        case .messageWithoutTerminator: rest = TLVWalker.encode(.ndefMessage, value: message)! + bytes(capacity, seed: seed + 7)
        case .emptyTLV: rest = [0x03, 0x00, 0xFE] + bytes(capacity, seed: seed + 7)
        case .terminatorOnly: rest = [0xFE] + bytes(capacity, seed: seed + 7)
        case .blank: rest = []
        }
        var area = Array((prefix + rest).prefix(capacity))
        area += [UInt8](repeating: 0, count: capacity - area.count)
        let holds: [UInt8] = old == .message || old == .messageWithoutTerminator ? message : []
        return (area, holds)
    }

    static func tag(_ product: Type2Product, area: [UInt8]) throws -> VirtualType2Tag {
        try VirtualType2Tag(product: product, dataArea: area)
    }

    /// The CC page and data area, as the plan takes them.
    static func memory(of tag: VirtualType2Tag) -> [UInt8] {
        Array(tag.memory[12..<(16 + tag.product.ccDataAreaSize)])
    }

    static func read(_ tag: VirtualType2Tag) async throws -> [UInt8] {
        try await Type2Tag.readNDEF(over: InProcessTransport(tag)).ndefBytes
    }

    @Test func tearingAfterEveryWriteReadsOldEmptyOrNew() async {
        let layout = zip(Gen.element(of: [Type2Product.ntag213, .ntag215]), Gen.element(of: Prefix.allCases),
                         Gen.element(of: Old.allCases))
        // New message: 0 empty, 1 random size, 2 exactly full, 3 one byte over.
        await propertyCheck(count: 150, input: layout, Gen.int(in: 0...3), Gen.int(in: 0...100), Gen.int(in: 0...100),
                            Gen.int(in: 0...0xFFFF)) { layout, mode, oldFill, newFill, seed in
            let (product, prefix, old) = (layout.0!, layout.1!, layout.2!)    // element(of:) a non-empty list
            let capacity = product.ccDataAreaSize
            let prefixBytes = Self.prefixBytes(prefix, capacity: capacity)
            // The reserved bytes hold what no reader takes for data; the messages flow around them.
            let reserved = prefix == .reservedNearEnd ? (capacity > 200 ? 472..<480 : 136..<144) : 0..<0
            let dataBytes = capacity - reserved.count
            // A blank area after NULLs alone is all NULLs: the message goes at its start.
            let free = dataBytes - (old == .blank && prefix == .nulls ? 0 : prefixBytes.count)
            var (area, oldMessage) = Self.oldArea(old, prefix: prefixBytes, capacity: dataBytes, free: free,
                                                  fill: oldFill, seed: seed)
            area.insert(contentsOf: [UInt8](repeating: 0xA5, count: reserved.count), at: reserved.lowerBound)
            var tag = try Self.tag(product, area: area)
            #expect(try await Self.read(tag) == oldMessage)

            let exact = free - 2 < 0xFF ? free - 2 : free - 4
            let size = Self.newLength(mode: mode, largest: exact, fill: newFill)
            let newMessage = Self.bytes(size, seed: seed ^ 0x5A5A)
            let plan: Type2WritePlan
            do {
                plan = try Type2WritePlan(memory: Self.memory(of: tag), userMemory: product.userMemory, message: newMessage)
            } catch let error as WriteRefusal {
                #expect(mode == 3, "refused \(size) bytes in \(free): \(error)")
                #expect(error == .doesNotFit(needed: TLVWalker.encode(.ndefMessage, value: newMessage)!.count, available: free))
                return
            }
            #expect(mode != 3, "planned \(size) bytes in \(free)")
            #expect(plan.available == free)
            for (index, write) in plan.writes.enumerated() {
                #expect(write.bytes.count == 4 && (4..<(4 + capacity / 4)).contains(write.page))
                tag.write(write.bytes, atPage: write.page)
                let reading = try await Self.read(tag)
                #expect(reading == oldMessage || reading == [] || reading == newMessage,
                        "after \(index + 1) of \(plan.writes.count) writes: \(reading.count) bytes")
            }
            #expect(try await Self.read(tag) == newMessage)
            #expect(Self.memory(of: tag).dropFirst(4) == plan.dataArea[...])
            #expect(plan.dataArea[reserved].allSatisfy { $0 == 0xA5 }, "a reserved byte was written")
        }
    }

    @Test func exactlyFullFitsOneByteOverIsRefused() throws {
        let tag = try VirtualType2Tag(product: .ntag213, message: nil)
        let memory = Self.memory(of: tag)
        // NTAG213: 144 bytes, 2 of them TLV type and 1-byte length.
        let full = try Type2WritePlan(memory: memory, userMemory: 144, message: Self.bytes(142, seed: 1))
        #expect(full.available == 144)
        #expect(full.dataArea.count == 144 && full.dataArea[1] == 142)
        #expect(throws: WriteRefusal.doesNotFit(needed: 145, available: 144)) {
            try Type2WritePlan(memory: memory, userMemory: 144, message: Self.bytes(143, seed: 1))
        }
        // NTAG215: 496 bytes; the 3-byte length form leaves 492.
        let large = try VirtualType2Tag(product: .ntag215, message: nil)
        _ = try Type2WritePlan(memory: Self.memory(of: large), userMemory: 496, message: Self.bytes(492, seed: 2))
        #expect(throws: WriteRefusal.doesNotFit(needed: 497, available: 496)) {
            try Type2WritePlan(memory: Self.memory(of: large), userMemory: 496, message: Self.bytes(493, seed: 2))
        }
        // GET_VERSION's user memory bounds a CC that overstates it.
        #expect(throws: WriteRefusal.doesNotFit(needed: 50, available: 48)) {
            try Type2WritePlan(memory: memory, userMemory: 48, message: Self.bytes(48, seed: 3))
        }
    }

    @Test func reservedAreaShrinksTheSpace() throws {
        // Memory Control TLV: bytes 152..<160 (data 136..<144) reserved; the message starts at 5.
        let tag = try VirtualType2Tag(product: .ntag213, dataArea: [0x02, 0x03, 0x98, 0x08, 0x04, 0x03, 0x00, 0xFE])
        let memory = Self.memory(of: tag)
        let plan = try Type2WritePlan(memory: memory, userMemory: 144, message: Self.bytes(129, seed: 4))
        #expect(plan.available == 131)
        #expect(plan.dataArea[136..<144].allSatisfy { $0 == 0 })
        #expect(throws: WriteRefusal.doesNotFit(needed: 132, available: 131)) {
            try Type2WritePlan(memory: memory, userMemory: 144, message: Self.bytes(130, seed: 4))
        }
    }

    @Test func readOnlyUnformattedAndShortMemoryAreRefused() throws {
        var tag = try VirtualType2Tag(product: .ntag213, message: poster)
        tag.write([0xE1, 0x10, 0x12, 0x0F], atPage: 3)
        #expect(throws: WriteRefusal.readOnly) {
            try Type2WritePlan(memory: Self.memory(of: tag), userMemory: 144, message: [])
        }
        tag.write([0x00, 0x00, 0x00, 0x00], atPage: 3)
        #expect(throws: WriteRefusal.notFormatted) {
            try Type2WritePlan(memory: Self.memory(of: tag), userMemory: 144, message: [])
        }
        tag.write([0xE1, 0x10, 0x12, 0x00], atPage: 3)
        #expect(throws: WriteRefusal.memoryIncomplete(needed: 148, available: 52)) {
            try Type2WritePlan(memory: Array(Self.memory(of: tag).prefix(52)), userMemory: 144, message: [])
        }
        tag.write([0xFF, 0x00, 0x00, 0x00], atPage: 4)
        #expect(throws: WriteRefusal.unreadableLayout(.reservedTag(offset: 0, tag: 0xFF))) {
            try Type2WritePlan(memory: Self.memory(of: tag), userMemory: 144, message: [])
        }
    }

    @Test func unchangedPagesAreNotWritten() throws {
        let tag = try VirtualType2Tag(product: .ntag215, message: poster)
        let memory = Self.memory(of: tag)
        #expect(try Type2WritePlan(memory: memory, userMemory: 496, message: poster.encoded()).writes == [])
        // Emptying: the length page alone (TLV 03 23 → 03 00), then the Terminator's page.
        let empty = try Type2WritePlan(memory: memory, userMemory: 496, message: [])
        #expect(empty.writes.map(\.page) == [4])
        #expect(empty.writes.first?.bytes == [0x03, 0x00, 0xFE] + [memory[7]])
        // A message one byte longer: length to 0, the last body page and Terminator, then the length.
        var longer = poster.encoded()
        longer.append(0x20)
        let plan = try Type2WritePlan(memory: memory, userMemory: 496, message: longer)
        let body = Set([1 + longer.count, 2 + longer.count].map { 4 + $0 / 4 }).sorted()    // last byte, Terminator
        #expect(plan.writes.map(\.page) == [4] + body + [4])
        #expect(plan.writes.first?.frame.prefix(4) == [0xA2, 0x04, 0x03, 0x00])
        #expect(plan.writes.last?.bytes.prefix(2) == [0x03, UInt8(longer.count)])
    }
}
