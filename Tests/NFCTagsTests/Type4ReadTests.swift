import NDEF
import NFCSim
import NFCTags
import TestSupport
import Testing

/// Reads of Type 4 objects. Round trips: SELECT application, SELECT CC, READ BINARY CC, SELECT
/// NDEF file, READ BINARY NLEN = 5, then one READ BINARY per chunk of at most MLe; +1 when the v2
/// AID is refused and v1 is tried.
@Suite struct Type4ReadTests {
    @Test func typicalPoster() async throws {
        let transport = InProcessTransport(try VirtualType4Tag(message: poster))
        let reading = try await Type4Tag.readNDEF(over: transport, uid: hex("08 11 22 33"))
        #expect(reading.message == poster)
        #expect(reading.platform == .type4)
        #expect(reading.uid == hex("08 11 22 33"))
        #expect(reading.capacity == 0x0800 - 2)
        #expect(reading.roundTrips == 6)
        #expect(await transport.commands == [
            hex("00 a4 04 00 07 d2760000850101 00"),
            hex("00 a4 00 0c 02 e103"),
            hex("00 b0 0000 0f"),
            hex("00 a4 00 0c 02 e104"),
            hex("00 b0 0000 02"),
            hex("00 b0 0002") + [UInt8(poster.encoded().count)],
        ])
    }

    @Test func smallMLeForcesManyChunks() async throws {
        let long = message(encodedSize: 100)
        let transport = InProcessTransport(try VirtualType4Tag(message: long, maxReadLength: 0x0F))
        let reading = try await Type4Tag.readNDEF(over: transport)
        #expect(reading.message == long)
        #expect(reading.roundTrips == 5 + 7)      // 100 bytes in chunks of 15
        let reads = await transport.commands.dropFirst(5)
        #expect(reads.allSatisfy { $0.last! <= 0x0F })
    }

    @Test func linkLimitBelowMLe() async throws {
        let long = message(encodedSize: 1000)
        let link = LinkCapabilities(maxResponseLength: 66, passesType2Extensions: false, extendedLengthAPDUs: false)
        let transport = InProcessTransport(try VirtualType4Tag(message: long, maxReadLength: 0xFF), capabilities: link)
        let reading = try await Type4Tag.readNDEF(over: transport)
        #expect(reading.message == long)
        #expect(reading.roundTrips == 5 + 16)     // 1000 bytes in chunks of 64
    }

    @Test func version1Fallback() async throws {
        let transport = InProcessTransport(try VirtualType4Tag(mapping: .version1, message: poster))
        let reading = try await Type4Tag.readNDEF(over: transport)
        #expect(reading.message == poster)
        #expect(reading.roundTrips == 7)
        let commands = await transport.commands
        #expect(commands[1] == hex("00 a4 04 00 07 d2760000850100"))
        #expect(commands[2] == hex("00 a4 00 00 02 e103"))      // mapping 1.0 selects files with P2 00
    }

    @Test func extendedLengthWhereCCAndLinkAllow() async throws {
        let big = message(encodedSize: 3000)
        let tag = try VirtualType4Tag(mapping: .version3Extended, message: big, maxReadLength: 0x1000, fileSize: 0x1000)
        let transport = InProcessTransport(tag)
        let reading = try await Type4Tag.readNDEF(over: transport)
        #expect(reading.message == big)
        #expect(reading.capacity == 0x1000 - 4)
        #expect(reading.roundTrips == 7)           // CCLEN 17: the CC takes two reads; ENLEN; one extended read
        let commands = await transport.commands
        #expect(commands[5] == hex("00 b0 0000 04"))
        #expect(commands[6] == hex("00 b0 0004 00 0bb8"))

        // The same object over a link without extended APDUs: 256-byte chunks.
        let short = InProcessTransport(tag, capabilities: shortAPDULink)
        #expect(try await Type4Tag.readNDEF(over: short).message == big)
        #expect(await short.roundTrips == 6 + 12)
    }

    /// A mapping 3.0 file past 32 KB: B0 while the chunk starts at offset 32 767 or below, then B1.
    @Test func offsetsPast32KUseB1() async throws {
        let huge = message(encodedSize: 34_000)
        let tag = try VirtualType4Tag(mapping: .version3Extended, message: huge, maxReadLength: 0x1000, fileSize: 0x10000)
        let transport = InProcessTransport(tag)
        let reading = try await Type4Tag.readNDEF(over: transport)
        #expect(reading.message == huge)
        // Chunks of 4096 from offset 4: eight B0 reads end at 32 771; 1 232 bytes remain, one B1.
        #expect(reading.roundTrips == 6 + 8 + 1)
        let last = await transport.commands.last
        #expect(last == hex("00 b1 0000 00 0005 54 03 008004 04d4"))     // extended: Lc 5, Le 1232 + 4 (53 82 04d0)
    }

    @Test func extendedReadBinaryWireForm() {
        #expect(ExtendedReadBinary.command(offset: 0x8004, length: 0x10).bytes == hex("00 b1 0000 05 54 03 008004 12"))
        for length in [0, 1, 0x7F, 0x80, 0xFF, 0x100, 0x1234] {
            let data = [UInt8](repeating: 0xAB, count: length)
            let wrapped = ExtendedReadBinary.response(data: data)
            #expect(wrapped.count == length + ExtendedReadBinary.headerLength(for: length))
            #expect(ExtendedReadBinary.data(inResponse: wrapped) == data)
        }
        #expect(ExtendedReadBinary.data(inResponse: hex("53 05 0102")) == nil)     // length past the end
        #expect(ExtendedReadBinary.data(inResponse: hex("54 01 01")) == nil)
        #expect(ExtendedReadBinary.data(inResponse: hex("53 83 000001 00")) == nil)
        #expect(ExtendedReadBinary.offset(inCommandData: hex("54 03 012345")) == 0x012345)
        #expect(ExtendedReadBinary.offset(inCommandData: hex("54 02 0123")) == nil)
    }

    @Test func emptyNDEFFile() async throws {
        let reading = try await Type4Tag.readNDEF(over: InProcessTransport(try VirtualType4Tag(message: nil)))
        #expect(reading.content == .empty)
        #expect(reading.roundTrips == 5)
    }

    @Test func noNDEFApplication() async throws {
        var tag = try VirtualType4Tag(message: poster)
        tag.statusOverrides[0xA4] = .fileNotFound
        let transport = InProcessTransport(tag)
        // Issue 23: no NDEF application reads as a blank object, holding nothing.
        let reading = try await Type4Tag.readNDEF(over: transport)
        #expect(!reading.formatted && reading.content == .empty && reading.roundTrips == 2)
        #expect(await transport.roundTrips == 2)
    }

    @Test func wrongStatusWords() async throws {
        var protected = try VirtualType4Tag(message: poster)
        protected.statusOverrides[0xB0] = .securityStatusNotSatisfied
        await #expect(throws: TagReadError.status(command: "READ BINARY capability container", .securityStatusNotSatisfied)) {
            try await Type4Tag.readNDEF(over: InProcessTransport(protected))
        }
        var odd = try VirtualType4Tag(message: poster)
        odd.statusOverrides[0xA4] = StatusWord(0x6A81)
        await #expect(throws: TagReadError.status(command: "SELECT NDEF application", StatusWord(0x6A81))) {
            try await Type4Tag.readNDEF(over: InProcessTransport(odd))
        }
    }

    @Test func hostileFiles() async throws {
        let cc = VirtualType4Tag.capabilityContainer(mapping: .version2, maxReadLength: 0xFF, fileSize: 0x0800)
        // NLEN larger than the file the CC declares.
        let overlong = VirtualType4Tag(mapping: .version2, capabilityContainer: cc, ndefFile: hex("fffe") + poster.encoded(), maxReadLength: 0xFF)
        await #expect(throws: TagReadError.invalidNDEFLength(0xFFFE, maximum: 0x07FE)) {
            try await Type4Tag.readNDEF(over: InProcessTransport(overlong))
        }
        // NLEN within the declared size, but the real file is shorter: the object says so (62 82).
        let short = VirtualType4Tag(mapping: .version2, capabilityContainer: cc, ndefFile: hex("0100") + poster.encoded(), maxReadLength: 0xFF)
        await #expect(throws: TagReadError.status(command: "READ BINARY NDEF message", .endOfFile)) {
            try await Type4Tag.readNDEF(over: InProcessTransport(short))
        }
        // A CC file that is not one.
        let garbage = VirtualType4Tag(mapping: .version2, capabilityContainer: hex("000f 20 0000 0000 00 00 00 00 00 00 00 00"),
                                      ndefFile: [], maxReadLength: 0xFF)
        await #expect(throws: TagReadError.capabilityContainer(.invalidField("MLe", value: 0, offset: 3))) {
            try await Type4Tag.readNDEF(over: InProcessTransport(garbage))
        }
        // A CC file shorter than 15 bytes: the object answers 62 82 and fewer bytes.
        let tiny = VirtualType4Tag(mapping: .version2, capabilityContainer: hex("000f 20"), ndefFile: [], maxReadLength: 0xFF)
        await #expect(throws: TagReadError.status(command: "READ BINARY capability container", .endOfFile)) {
            try await Type4Tag.readNDEF(over: InProcessTransport(tiny))
        }
    }

    @Test func removedMidRead() async throws {
        let long = message(encodedSize: 100)
        let tag = try VirtualType4Tag(message: long, maxReadLength: 0x0F, presence: FieldPresence(removeAfterCommands: 8))
        await #expect(throws: TagReadError.objectRemoved(roundTrips: 9)) {
            try await Type4Tag.readNDEF(over: InProcessTransport(tag))
        }
    }
}
