import NDEF
import NFCSim
import NFCTags
import TestSupport
import Testing

/// Reads of Type 3 (FeliCa Lite-S) objects. Round trips: one Check of the attribute block, then
/// one Check per Nbr blocks of message.
@Suite struct Type3ReadTests {
    let idm = VirtualType3Tag.defaultIDm

    @Test func posterInTwoChecks() async throws {
        let transport = InProcessTransport(try VirtualType3Tag(message: poster))
        let reading = try await Type3Tag.readNDEF(over: transport, idm: idm)
        #expect(reading.message == poster)
        #expect(reading.platform == .type3)
        #expect(reading.uid == idm)
        #expect(reading.capacity == 13 * 16)
        #expect(poster.encoded().count == 31)
        #expect(reading.roundTrips == 2)      // 31 bytes: blocks 1–2 in one Check
        #expect(await transport.commands == [
            hex("10 06") + idm + hex("01 0b00 01 8000"),
            hex("12 06") + idm + hex("01 0b00 02 8001 8002"),
        ])
    }

    @Test func fullLiteSTakesNbrBlocksPerCheck() async throws {
        let full = message(encodedSize: 13 * 16)
        let transport = InProcessTransport(try VirtualType3Tag(message: full))
        let reading = try await Type3Tag.readNDEF(over: transport, idm: idm)
        #expect(reading.message == full)
        #expect(reading.roundTrips == 1 + 4)  // 13 blocks, 4 per Check
    }

    @Test func linkLimitBelowNbr() async throws {
        // 282 blocks, Nbr 15 claimed; a 77-byte link carries 4 blocks per answer.
        let long = message(encodedSize: 4500)
        let link = LinkCapabilities(maxResponseLength: 77, passesType2Extensions: false, extendedLengthAPDUs: false)
        let transport = InProcessTransport(try VirtualType3Tag(message: long, blocks: 300, blocksPerCheck: 15), capabilities: link)
        let reading = try await Type3Tag.readNDEF(over: transport, idm: idm)
        #expect(reading.message == long)
        #expect(reading.roundTrips == 1 + 71) // ⌈282 / 4⌉
        // Blocks from 256 on use the 3-byte block list element.
        let commands = await transport.commands
        #expect(commands[64] == hex("17 06") + idm + hex("01 0b00 04 80fd 80fe 80ff 000001"))
        #expect(commands.last! == hex("14 06") + idm + hex("01 0b00 02 001901 001a01"))
    }

    @Test func emptyObject() async throws {
        let reading = try await Type3Tag.readNDEF(over: InProcessTransport(try VirtualType3Tag(message: nil)), idm: idm)
        #expect(reading.content == .empty)
        #expect(reading.roundTrips == 1)
    }

    @Test func attributeChecksumWrong() async throws {
        var tag = try VirtualType3Tag(message: poster)
        var block = Array(tag.memory[0..<16])
        block[15] &+= 1
        tag.write(block, atBlock: 0)
        let stored = Int(block[14]) << 8 | Int(block[15])
        let computed = block[0..<14].reduce(0) { $0 + Int($1) }
        await #expect(throws: TagReadError.attributeChecksum(stored: stored, computed: computed)) {
            try await Type3Tag.readNDEF(over: InProcessTransport(tag), idm: idm)
        }
    }

    @Test func hostileAttributeBlocks() async throws {
        func read(_ attribute: [UInt8]) async throws -> TagReading {
            var tag = try VirtualType3Tag(message: poster)
            tag.write(attribute, atBlock: 0)
            return try await Type3Tag.readNDEF(over: InProcessTransport(tag), idm: idm)
        }
        // Ln beyond Nmaxb blocks.
        await #expect(throws: TagReadError.invalidNDEFLength(0xFFFFFF, maximum: 13 * 16)) {
            try await read(Type3AttributeBlock.encode(blocksPerCheck: 4, blocksPerUpdate: 1, maxBlocks: 13, ndefLength: 0xFFFFFF))
        }
        // Nmaxb beyond the chip: the chip refuses the block.
        await #expect(throws: TagReadError.felicaStatus(command: "Check of block 14", flag1: 0xFF, flag2: 0xA8)) {
            try await read(Type3AttributeBlock.encode(blocksPerCheck: 1, blocksPerUpdate: 1, maxBlocks: 200, ndefLength: 15 * 16))
        }
        // Nbr beyond the chip's own limit.
        await #expect(throws: TagReadError.felicaStatus(command: "Check of blocks 1–7", flag1: 0xFF, flag2: 0xA2)) {
            try await read(Type3AttributeBlock.encode(blocksPerCheck: 8, blocksPerUpdate: 1, maxBlocks: 13, ndefLength: 100))
        }
        await #expect(throws: TagReadError.capabilityContainer(.invalidField("Nbr", value: 0, offset: 1))) {
            try await read(Type3AttributeBlock.encode(blocksPerCheck: 0, blocksPerUpdate: 1, maxBlocks: 13, ndefLength: 35))
        }
        await #expect(throws: TagReadError.capabilityContainer(.unsupportedVersion(major: 2, minor: 0))) {
            try await read(Type3AttributeBlock.encode(version: 0x20, blocksPerCheck: 4, blocksPerUpdate: 1, maxBlocks: 13, ndefLength: 35))
        }
        await #expect(throws: TagReadError.writeInProgress) {
            try await read(Type3AttributeBlock.encode(blocksPerCheck: 4, blocksPerUpdate: 1, maxBlocks: 13, writeFlag: 0x0F, ndefLength: 35))
        }
        // A blank block 0 has a valid checksum (0) but version 0.
        await #expect(throws: TagReadError.capabilityContainer(.unsupportedVersion(major: 0, minor: 0))) {
            try await read([UInt8](repeating: 0, count: 16))
        }
    }

    @Test func wrongIDmGetsSilence() async throws {
        // Silence after activation reads as the object having moved away.
        let transport = InProcessTransport(try VirtualType3Tag(message: poster))
        await #expect(throws: TagReadError.objectRemoved(roundTrips: 1)) {
            try await Type3Tag.readNDEF(over: transport, idm: hex("0102030405060708"))
        }
    }

    @Test func removedMidRead() async throws {
        let tag = try VirtualType3Tag(message: message(encodedSize: 13 * 16), presence: FieldPresence(removeAfterCommands: 2))
        await #expect(throws: TagReadError.objectRemoved(roundTrips: 3)) {
            try await Type3Tag.readNDEF(over: InProcessTransport(tag), idm: idm)
        }
    }

    @Test func virtualChipAnswersPollingAndRequestResponse() throws {
        var tag = try VirtualType3Tag(message: poster)
        #expect(tag.respond(to: hex("06 00 12fc 01 00")) == .frame(hex("14 01") + idm + VirtualType3Tag.defaultPMm + hex("12fc")))
        #expect(tag.respond(to: hex("06 00 ffff 00 00")) == .frame(hex("12 01") + idm + VirtualType3Tag.defaultPMm))
        #expect(tag.respond(to: hex("06 00 88b4 00 00")) == .silence)
        #expect(tag.respond(to: hex("0a 04") + idm) == .frame(hex("0b 05") + idm + hex("00")))
    }
}
