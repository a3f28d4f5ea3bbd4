import NDEF
import NFCSim
import NFCTags
import PropertyBased
import Testing

/// The Type 5 write plan: refusals before anything is sent, and tearing: the chip taken away
/// after any number of its WRITE SINGLE BLOCKs reads, through the real reader, as the old
/// message, an empty one or the new one. Over 4- and 8-byte blocks and 4- and 8-byte CCs (a
/// 4-byte CC shares its 8-byte block with the data area).
@Suite struct Type5WritePlanTests {
    typealias Old = Type2WritePlanTests.Old

    static func bytes(_ count: Int, seed: Int) -> [UInt8] { Type2WritePlanTests.bytes(count, seed: seed) }

    static func product(blockSize: Int, blockCount: Int) -> Type5Product {
        Type5Product(name: "test \(blockCount)×\(blockSize)", blockCount: blockCount, blockSize: blockSize,
                     defaultUID: [0xE0, 0x04, 0x01, 0x08, 0x66, 0x2D, 0x4A, 0x90])
    }

    /// The CC for a chip of `total` bytes: `E1 40 MLEN 01`, or the 8-byte form.
    static func capabilityContainer(total: Int, long: Bool, write: UInt8 = 0) -> [UInt8] {
        let mlen = (total - (long ? 8 : 4)) / 8
        return long ? [0xE1, 0x40 | write, 0x00, 0x01, 0x00, 0x00, UInt8(mlen >> 8), UInt8(mlen & 0xFF)]
            : [0xE1, 0x40 | write, UInt8(mlen), 0x01]
    }

    static func read(_ tag: VirtualType5Tag, systemInformation: Bool) async throws -> [UInt8] {
        try await Type5Tag.readNDEF(over: InProcessTransport(tag), systemInformation: systemInformation).ndefBytes
    }

    @Test func tearingAfterEveryWriteReadsOldEmptyOrNew() async {
        let shape = zip(Gen.element(of: [4, 8]), Gen.element(of: [false, true]), Gen.element(of: Old.allCases))
        await propertyCheck(count: 150, input: shape, Gen.int(in: 8...64), Gen.int(in: 0...3), Gen.int(in: 0...100),
                            Gen.int(in: 0...100), Gen.int(in: 0...0xFFFF)) { shape, blocks, mode, oldFill, newFill, seed in
            let (blockSize, longCC, old) = (shape.0!, shape.1!, shape.2!)    // element(of:) a non-empty list
            let product = Self.product(blockSize: blockSize, blockCount: blocks)
            let total = blocks * blockSize
            let cc = Self.capabilityContainer(total: total, long: longCC)
            let size = (total - cc.count) / 8 * 8
            let nulls = seed % 3 == 0 && old != .blank ? [UInt8](repeating: 0, count: 3) : []
            let free = size - nulls.count
            let (dataArea, holds) = Type2WritePlanTests.oldArea(old, prefix: nulls, capacity: size, free: free, fill: oldFill, seed: seed)
            let area = dataArea + [UInt8](repeating: 0, count: total - cc.count - dataArea.count)
            var tag = try VirtualType5Tag(product: product, image: cc + area)
            let systemInformation = seed % 2 == 0
            #expect(try await Self.read(tag, systemInformation: systemInformation) == holds)

            let newSize = Type2WritePlanTests.newLength(mode: mode, largest: TLVAreaWritePlan.largestMessage(in: free), fill: newFill)
            let newMessage = Self.bytes(newSize, seed: seed ^ 0x5A5A)
            let plan: Type5WritePlan
            do {
                plan = try Type5WritePlan(memory: tag.memory, blockSize: blockSize, blockCount: blocks, message: newMessage)
            } catch let error as WriteRefusal {
                #expect(mode == 3, "refused \(newSize) bytes in \(free): \(error)")
                #expect(error == .doesNotFit(needed: TLVWalker.encode(.ndefMessage, value: newMessage)!.count, available: free))
                return
            }
            #expect(mode != 3, "planned \(newSize) bytes in \(free)")
            #expect(plan.available == free)
            for (index, write) in plan.writes.enumerated() {
                #expect(write.bytes.count == blockSize && write.block < blocks)
                #expect(write.block > 0 || Array(write.bytes.prefix(4)) == Array(cc.prefix(4)), "the CC is kept")
                tag.write(write.bytes, at: write.block * blockSize)
                let reading = try await Self.read(tag, systemInformation: systemInformation)
                #expect(reading == holds || reading == [] || reading == newMessage,
                        "after \(index + 1) of \(plan.writes.count) writes: \(reading.count) bytes")
            }
            #expect(try await Self.read(tag, systemInformation: systemInformation) == newMessage)
            #expect(Array(tag.memory.prefix(plan.memory.count)) == plan.memory)
        }
    }

    @Test func exactlyFullFitsOneByteOverIsRefused() throws {
        // ICODE SLIX: 28 blocks of 4, CC E1 40 0D: 104 bytes of data area.
        let tag = try VirtualType5Tag(product: .icodeSLIX, message: nil)
        let full = try Type5WritePlan(memory: tag.memory, blockSize: 4, blockCount: 28, message: Self.bytes(102, seed: 1))
        #expect(full.available == 104)
        #expect(throws: WriteRefusal.doesNotFit(needed: 105, available: 104)) {
            try Type5WritePlan(memory: tag.memory, blockSize: 4, blockCount: 28, message: Self.bytes(103, seed: 1))
        }
        // A 4-byte CC in 8-byte blocks: the first write keeps it and starts the TLV at byte 4.
        let product = Self.product(blockSize: 8, blockCount: 16)
        let eight = try VirtualType5Tag(product: product, image: Self.capabilityContainer(total: 128, long: false) + [0x03, 0x00, 0xFE] + [UInt8](repeating: 0, count: 121))
        let plan = try Type5WritePlan(memory: eight.memory, blockSize: 8, blockCount: 16, message: Self.bytes(20, seed: 2))
        #expect(plan.writes.first?.block == 0)
        #expect(plan.writes.first?.bytes.prefix(6) == [0xE1, 0x40, 0x0F, 0x01, 0x03, 0x00])
        #expect(plan.writes.last?.bytes.prefix(6) == [0xE1, 0x40, 0x0F, 0x01, 0x03, 20])
        #expect(plan.available == 120)
    }

    @Test func readOnlyBlankAndShortMemoryAreRefused() throws {
        let image = Self.capabilityContainer(total: 112, long: false, write: 0x03) + [0x03, 0x00, 0xFE] + [UInt8](repeating: 0, count: 105)
        #expect(throws: WriteRefusal.readOnly) {
            try Type5WritePlan(memory: image, blockSize: 4, blockCount: 28, message: [])
        }
        #expect(throws: WriteRefusal.notFormatted) {
            try Type5WritePlan(memory: [UInt8](repeating: 0, count: 112), blockSize: 4, blockCount: 28, message: [])
        }
        let formatted = Self.capabilityContainer(total: 112, long: false) + [0x03, 0x00, 0xFE]
        #expect(throws: WriteRefusal.memoryIncomplete(needed: 108, available: 7)) {
            try Type5WritePlan(memory: formatted, blockSize: 4, blockCount: 28, message: [])
        }
    }
}
