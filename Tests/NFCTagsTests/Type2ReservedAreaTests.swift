import NDEF
import NFCSim
import NFCTags
import TestSupport
import Testing

/// Issue 23: the areas a Lock Control or Memory Control TLV reserves in a Type 2 data area (NFC
/// Forum Type 2 Tag §2.3.1–2.3.2) are skipped by the reader wherever they fall — between TLVs and
/// inside the message — and a write flows around them without changing a byte of them.
@Suite struct Type2ReservedAreaTests {
    /// What the reserved bytes hold: lock bytes all set, which no TLV walk may take for data.
    static func junk(_ count: Int) -> [UInt8] { [UInt8](repeating: 0xFF, count: count) }

    /// Lock Control: 16 lock bits (2 bytes) at page 5 byte 1 = byte 21, right after the TLV.
    static let lockBetweenTLVs = hex("01 03 51 10 42")
    /// Memory Control: 4 bytes at page 6 = byte 24, three bytes into the NDEF TLV that follows.
    static let memoryInsideMessage = hex("02 03 60 04 02")

    /// A data area holding `message` after `control`, with `reserved` (data-area offsets) holding
    /// `junk` and the TLVs laid around it.
    static func area(control: [UInt8], reserved: Range<Int>, message: NDEFMessage) -> [UInt8] {
        var area = control + TLVWalker.encode(.ndefMessage, value: message.encoded())! + [0xFE]
        area.insert(contentsOf: junk(reserved.count), at: reserved.lowerBound)
        return area
    }

    func read(_ tag: VirtualType2Tag, initialDataBytes: Int = Type2Tag.initialDataBytes) async throws -> TagReading {
        try await Type2Tag.readNDEF(over: InProcessTransport(tag), initialDataBytes: initialDataBytes)
    }

    /// The two layouts: lock bytes between the control TLV and the message (before: read as a TLV
    /// tag, "reserved TLV tag 0xff"), reserved memory inside the message (before: "a reserved
    /// memory area at byte 24 lies inside the NDEF message (not supported)").
    static let layouts: [(control: [UInt8], reserved: Range<Int>)] = [(lockBetweenTLVs, 5..<7), (memoryInsideMessage, 8..<12)]

    @Test(arguments: layouts)
    func theReaderSkipsTheArea(control: [UInt8], reserved: Range<Int>) async throws {
        let tag = try VirtualType2Tag(product: .ntag213, dataArea: Self.area(control: control, reserved: reserved, message: poster))
        for initial in [4, Type2Tag.initialDataBytes] {
            let reading = try await read(tag, initialDataBytes: initial)
            #expect(reading.message == poster)
            // The room after the control TLV, less the area it reserves: what a write finds.
            #expect(reading.capacity == TLVAreaWritePlan.largestMessage(in: 144 - reserved.count - control.count))
        }
    }

    @Test func aLongMessageReadsAcrossAnAreaInItsMiddle() async throws {
        // Memory Control: 8 bytes at page 8 of 16-byte pages (byte 128), inside a 3-byte-length message.
        let long = NDEFMessage(URIRecord(uri: "https://example.com/" + String(repeating: "a", count: 300)).record())
        let tag = try VirtualType2Tag(product: .ntag215, dataArea: Self.area(control: hex("02 03 80 08 04"), reserved: 112..<120, message: long))
        let reading = try await read(tag, initialDataBytes: 4)
        #expect(reading.message == long)
    }

    @Test func writesFlowAroundTheAreaAndNeverChangeIt() async throws {
        for (control, reserved) in Self.layouts {
            var tag = try VirtualType2Tag(product: .ntag213, dataArea: Self.area(control: control, reserved: reserved, message: poster))
            let memory = Array(tag.memory[12..<(16 + 144)])
            let layout = try Type2DataLayout(memory: memory, userMemory: 144)
            #expect(layout.reserved == [reserved])
            #expect(layout.message == poster.encoded())
            // The room counts the reserved bytes out: 144 less the area, the control TLV and 2 of framing.
            #expect(layout.capacity == 144 - reserved.count - control.count - 2)
            let longer = NDEFMessage(URIRecord(uri: "https://example.com/" + String(repeating: "b", count: 100)).record())
            let plan = try Type2WritePlan(memory: memory, userMemory: 144, message: longer.encoded())
            for write in plan.writes {
                tag.write(write.bytes, atPage: write.page)
                let now = try await read(tag)
                #expect(now.message == poster || now.content == .empty || now.message == longer)
                #expect(Array(tag.memory[(16 + reserved.lowerBound)..<(16 + reserved.upperBound)]) == Self.junk(reserved.count))
            }
            #expect(try await read(tag).message == longer)
            // Exactly full fits; one byte more does not.
            let room = layout.capacity
            #expect(throws: WriteRefusal.doesNotFit(needed: room + 3, available: room + 2)) {
                try Type2WritePlan(memory: memory, userMemory: 144, message: [UInt8](repeating: 0, count: room + 1))
            }
        }
    }

    @Test func theWriterWritesAroundTheAreaAndReadsItBack() async throws {
        // The whole writer (identify, read, plan, write, read back) over the memory area inside the message.
        let tag = try VirtualType2Tag(product: .ntag213, dataArea: Self.area(control: Self.memoryInsideMessage, reserved: 8..<12, message: poster))
        let transport = InProcessTransport(tag)
        let longer = NDEFMessage(URIRecord(uri: "https://example.com/" + String(repeating: "c", count: 60)).record())
        try await Type2Writer.write(longer.encoded(), over: transport)
        let written = await transport.object
        #expect(Array(written.memory[24..<28]) == Self.junk(4))
        #expect(try await read(written).message == longer)
    }
}
