import NDEF
import NFCSim
import NFCTags
import Testing

/// Reads of Type 1 (Topaz) objects. Round trips: RID and RALL; a Topaz 512 adds one RSEG per
/// further segment its TLVs reach into.
@Suite struct Type1ReadTests {
    func read(_ tag: VirtualType1Tag, over link: LinkCapabilities = .unrestricted) async throws -> TagReading {
        try await Type1Tag.readNDEF(over: InProcessTransport(tag, capabilities: link))
    }

    @Test func topaz96Poster() async throws {
        let transport = InProcessTransport(try VirtualType1Tag(product: .topaz96, message: poster))
        let reading = try await Type1Tag.readNDEF(over: transport)
        #expect(reading.message == poster)
        #expect(reading.platform == .type1)
        #expect(reading.product == "Topaz 96")
        #expect(reading.uid == VirtualType1Tag.defaultUID)
        #expect(reading.capacity == 92 - 2)
        #expect(reading.roundTrips == 2)
        #expect(await transport.commands == [[0x78], [0x00]])
    }

    @Test func topaz96Full() async throws {
        let full = message(encodedSize: 90)   // 92 bytes of data area less the TLV header
        let reading = try await read(try VirtualType1Tag(product: .topaz96, message: full))
        #expect(reading.message == full)
        #expect(throws: VirtualObjectError.doesNotFit(needed: 93, capacity: 92)) {
            try VirtualType1Tag(product: .topaz96, message: message(encodedSize: 91))
        }
    }

    @Test func topaz512ShortMessageStaysInStaticMemory() async throws {
        let transport = InProcessTransport(try VirtualType1Tag(product: .topaz512, message: poster))
        let reading = try await Type1Tag.readNDEF(over: transport)
        #expect(reading.message == poster)
        #expect(reading.product == "Topaz 512")
        // The data bytes less the 10 of its Lock and Memory Control TLVs and the 3-byte length form's TLV header.
        #expect(reading.capacity == 92 + 384 - 10 - 4)
        #expect(reading.roundTrips == 2)
    }

    @Test func topaz512LongMessageAcrossTheReservedBlocks() async throws {
        // 466 bytes of NDEF TLV room: 476 less the two control TLVs.
        let long = message(encodedSize: 460)
        let transport = InProcessTransport(try VirtualType1Tag(product: .topaz512, message: long))
        let reading = try await Type1Tag.readNDEF(over: transport)
        #expect(reading.message == long)
        #expect(reading.roundTrips == 2 + 3)   // segments 1, 2 and 3
        #expect(await transport.commands.dropFirst(2) == [[0x10, 0x10], [0x10, 0x20], [0x10, 0x30]])
        let mid = message(encodedSize: 200)     // ends in segment 1
        let midTransport = InProcessTransport(try VirtualType1Tag(product: .topaz512, message: mid))
        #expect(try await Type1Tag.readNDEF(over: midTransport).message == mid)
        #expect(await midTransport.roundTrips == 3)
    }

    @Test func emptyAndUnformatted() async throws {
        #expect(try await read(try VirtualType1Tag(product: .topaz96, message: nil)).content == .empty)
        var blank = try VirtualType1Tag(product: .topaz96, dataArea: [])
        blank.write([0, 0, 0, 0], at: 8)
        // Issue 23: a blank object holds nothing, and says it is not formatted.
        let reading = try await read(blank)
        #expect(!reading.formatted && reading.content == .empty && reading.product == "Topaz 96")
    }

    @Test func hostileImages() async throws {
        // A TLV length past the 92-byte data area.
        let past = try VirtualType1Tag(product: .topaz96, dataArea: [0x03, 0xFE, 0xD1])
        await #expect(throws: TagReadError.messagePastEndOfMemory(needed: 256, capacity: 92)) { try await read(past) }
        // TMS claiming 2 KiB on a static chip: the static memory bounds it.
        var static96 = try VirtualType1Tag(product: .topaz96, dataArea: [0x03, 0xFF, 0x01, 0x00])
        static96.write([0xE1, 0x10, 0xFF, 0x00], at: 8)
        await #expect(throws: TagReadError.messagePastEndOfMemory(needed: 260, capacity: 92)) { try await read(static96) }
        // Read access denied.
        var denied = try VirtualType1Tag(product: .topaz96, message: poster)
        denied.write([0xE1, 0x10, 0x0E, 0x80], at: 8)
        await #expect(throws: TagReadError.readAccessDenied) { try await read(denied) }
        // A Memory Control TLV reserving the bytes of the TLVs already walked.
        let selfOverlap = try VirtualType1Tag(product: .topaz512, dataArea: [0x02, 0x03, 0x20, 0x04, 0x03, 0x03, 0x00, 0xFE])
        await #expect(throws: TagReadError.memory(.reservedAreaOverTLVs(byteAddress: 16))) { try await read(selfOverlap) }
        // TMS beyond what RSEG addresses is capped at 2 KiB; the chip then falls silent.
        var huge = try VirtualType1Tag(product: .topaz512, dataArea: Array(VirtualType1Tag.topaz512ControlTLVs) + [0x03, 0xFF, 0x07, 0x00])
        huge.write([0xE1, 0x10, 0xFF, 0x00], at: 8)
        await #expect(throws: TagReadError.objectRemoved(roundTrips: 6)) { try await read(huge) }
    }

    @Test func notAType1Header() async throws {
        struct Other: VirtualObject {
            static let platform = TagPlatform.type1
            var isPresent: Bool { true }
            mutating func respond(to command: [UInt8]) -> VirtualReply { .frame([0x21, 0x00, 1, 2, 3, 4]) }
            mutating func reactivate() -> Bool { true }
        }
        await #expect(throws: TagReadError.unsupported("header ROM HR0 0x21 is not a Type 1 tag's")) {
            try await Type1Tag.readNDEF(over: InProcessTransport(Other()))
        }
    }

    @Test func removedMidRead() async throws {
        let tag = try VirtualType1Tag(product: .topaz512, message: message(encodedSize: 460), presence: FieldPresence(removeAfterCommands: 3))
        await #expect(throws: TagReadError.objectRemoved(roundTrips: 4)) { try await read(tag) }
    }

    @Test func virtualChipTakesShortAndFullForms() throws {
        var tag = try VirtualType1Tag(product: .topaz512, message: poster)
        let uid = VirtualType1Tag.defaultUID
        #expect(tag.respond(to: [0x78]) == .frame([0x12, 0x4C] + uid.prefix(4)))
        #expect(tag.respond(to: [0x78, 0, 0, 0, 0, 0, 0]) == .frame([0x12, 0x4C] + uid.prefix(4)))
        #expect(tag.respond(to: [0x01, 0x08]) == .frame([0x08, 0xE1]))
        #expect(tag.respond(to: [0x01, 0x08, 0x00] + uid.prefix(4)) == .frame([0x08, 0xE1]))
        #expect(tag.respond(to: [0x01, 0x08, 0x00, 9, 9, 9, 9]) == .silence)   // another UID
        guard case .frame(let block) = tag.respond(to: [0x02, 0x01]) else { Issue.record("no READ8 answer"); return }
        #expect(block == [0x01, 0xE1, 0x10, 0x3F, 0x00, 0x01, 0x03, 0xF2, 0x30])
        var small = try VirtualType1Tag(product: .topaz96, message: poster)
        #expect(small.respond(to: [0x10, 0x00]) == .silence)   // no RSEG on a static chip
    }
}
