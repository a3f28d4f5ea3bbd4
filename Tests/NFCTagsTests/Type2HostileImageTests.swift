import NDEF
import NFCSim
import NFCTags
import TestSupport
import Testing

/// Malformed and hostile Type 2 memory: every one gives a typed error or an honest result, never
/// a crash, a read past the chip, or a partial message.
@Suite struct Type2HostileImageTests {
    func read(_ tag: VirtualType2Tag, over link: LinkCapabilities = .unrestricted) async throws -> TagReading {
        try await Type2Tag.readNDEF(over: InProcessTransport(tag, capabilities: link))
    }

    @Test func ccClaimingTwoKilobytesOnA144ByteChip() async throws {
        var tag = try VirtualType2Tag(product: .ntag213, dataArea: hex("03 ff 012c") + [UInt8](repeating: 0xD1, count: 140))
        tag.write(hex("e1 10 ff 00"), atPage: 3)
        let transport = InProcessTransport(tag)
        await #expect(throws: TagReadError.messagePastEndOfMemory(needed: 304, capacity: 144)) {
            try await Type2Tag.readNDEF(over: transport)
        }
        // GET_VERSION bounded the data area: nothing past the user memory was asked for.
        #expect(await transport.commands == [[0x60], [0x3C, 0x00], [0x3A, 3, 15]])
    }

    @Test func ccOverstatingAnUltralightEndsInNAKNotWrappedData() async throws {
        // No GET_VERSION on this chip: the CC is trusted until the chip refuses a page.
        var tag = try VirtualType2Tag(product: .ultralight, dataArea: hex("03 ff 012c") + [UInt8](repeating: 0xD1, count: 44))
        tag.write(hex("e1 10 ff 00"), atPage: 3)
        await #expect(throws: TagReadError.nak(command: "READ page 19", code: 0)) { try await read(tag) }
    }

    @Test func tlvLengthPastTheEnd() async throws {
        let oneByte = try VirtualType2Tag(product: .ntag213, dataArea: hex("03 fe d1"))
        await #expect(throws: TagReadError.messagePastEndOfMemory(needed: 256, capacity: 144)) { try await read(oneByte) }
        let threeByte = try VirtualType2Tag(product: .ntag216, dataArea: hex("03 ff ffff"))
        await #expect(throws: TagReadError.memory(.invalidLength(offset: 0, value: 0xFFFF))) { try await read(threeByte) }
        let justPast = try VirtualType2Tag(product: .ntag216, dataArea: hex("03 ff 0365"))   // 869 + 4 > 872
        await #expect(throws: TagReadError.messagePastEndOfMemory(needed: 873, capacity: 872)) { try await read(justPast) }
    }

    @Test func badMagicAndVersion() async throws {
        var tag = try VirtualType2Tag(product: .ntag215, message: poster)
        // GET_VERSION, READ_SIG, FAST_READ: a blank chip is asked its signature too.
        var blank = TagReading.blank(platform: .type2, product: "NTAG215", uid: nil, roundTrips: 3)
        blank.originality = .signature(.ntag21x, VirtualType2Tag.unsignedSignature)
        // Issue 23: no NDEF magic number is a blank object, holding nothing, not a failed read.
        tag.write(hex("e2 10 3e 00"), atPage: 3)
        #expect(try await read(tag) == blank)
        tag.write(hex("00 00 00 00"), atPage: 3)    // a blank, unformatted chip
        #expect(try await read(tag) == blank)
        tag.write(hex("e1 20 3e 00"), atPage: 3)
        await #expect(throws: TagReadError.capabilityContainer(.unsupportedVersion(major: 2, minor: 0))) { try await read(tag) }
    }

    @Test func readAccessDenied() async throws {
        var tag = try VirtualType2Tag(product: .ntag213, message: poster)
        tag.write(hex("e1 10 12 80"), atPage: 3)
        await #expect(throws: TagReadError.readAccessDenied) { try await read(tag) }
    }

    @Test func reservedTLVTagIsSkipped() async throws {
        // Issue 23: a TLV of a reserved tag is walked past by its length, not refused.
        let tag = try VirtualType2Tag(product: .ntag213, dataArea: hex("00 00 42 01 00") + TLVWalker.encode(.ndefMessage, value: poster.encoded())! + [0xFE])
        #expect(try await read(tag).message == poster)
        let none = try VirtualType2Tag(product: .ntag213, dataArea: hex("00 00 42 01 00 fe"))
        #expect(try await read(none).content == .empty)
        let ff = try VirtualType2Tag(product: .ntag213, dataArea: hex("00 00 ff 01 00"))
        await #expect(throws: TagReadError.memory(.reservedTag(offset: 2, tag: 0xFF))) { try await read(ff) }
    }

    @Test func reservedAreaOverTheControlTLVItself() async throws {
        // Memory Control reserving byte 18: inside its own TLV (bytes 16–20).
        let tag = try VirtualType2Tag(product: .ntag213, dataArea: hex("02 03 42 04 02 03 00 fe"))
        await #expect(throws: TagReadError.memory(.reservedAreaOverTLVs(byteAddress: 18))) { try await read(tag) }
    }

    @Test func messageBytesThatDoNotDecode() async throws {
        let tag = try VirtualType2Tag(product: .ntag213, dataArea: hex("03 03 d1 01 ff fe"))
        let reading = try await read(tag)
        #expect(reading.ndefBytes == hex("d1 01 ff"))
        guard case .undecodable = reading.content else {
            Issue.record("expected undecodable content, got \(reading.content)")
            return
        }
    }

    @Test func noNDEFTLVBeforeTheTerminator() async throws {
        let terminatorOnly = try VirtualType2Tag(product: .ntag216, dataArea: hex("fe 03 05"))
        #expect(try await read(terminatorOnly).content == .empty)
        // All padding: the whole data area is read, once, and holds nothing.
        let blank = try VirtualType2Tag(product: .ntag213, dataArea: [])
        let transport = InProcessTransport(blank)
        #expect(try await Type2Tag.readNDEF(over: transport).content == .empty)
        #expect(await transport.commands == [[0x60], [0x3C, 0x00], [0x3A, 3, 15], [0x3A, 16, 27], [0x3A, 28, 39]])
    }

    @Test func chipAnsweringGarbageToGetVersion() async throws {
        let transport = InProcessTransport(ShortVersionTag())
        await #expect(throws: TagReadError.unexpectedResponse(command: "GET_VERSION", expected: 8, received: 3)) {
            try await Type2Tag.readNDEF(over: transport)
        }
    }

    /// Pseudo-random data areas on every product and link: any outcome but a crash or a hang.
    @Test func randomImagesNeverCrash() async throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for round in 0..<150 {
            let product = Type2Product.known[round % Type2Product.known.count]
            // Mostly TLV-shaped starts, so the walker gets past the first byte.
            var area = (0..<product.userMemory).map { _ in next() }
            area[0] = [0x03, 0x01, 0x02, 0x00, 0xFD][round % 5]
            var tag = try VirtualType2Tag(product: product, dataArea: area)
            if round % 3 == 0 { tag.write([0xE1, 0x10, next(), next() & 0x0F], atPage: 3) }
            let link: LinkCapabilities = [.unrestricted, pn532Link, storageCardLink][round % 3]
            let transport = InProcessTransport(tag, capabilities: link)
            do {
                let reading = try await Type2Tag.readNDEF(over: transport)
                #expect(reading.ndefBytes.count <= reading.capacity)
            } catch {
                #expect(!error.description.isEmpty)
            }
            #expect(await transport.roundTrips < 80)
        }
    }
}

/// A chip that answers GET_VERSION with 3 bytes: not a Type 2 chip any table knows.
struct ShortVersionTag: VirtualObject {
    static let platform = TagPlatform.type2
    var isPresent: Bool { true }
    mutating func respond(to command: [UInt8]) -> VirtualReply { .frame([0x00, 0x04, 0x04]) }
    mutating func reactivate() -> Bool { true }
}
