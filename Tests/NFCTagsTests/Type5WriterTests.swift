import NDEF
import NFCSim
import NFCTags
import Testing

/// The Type 5 writer and driver over the transport seam against the real simulated chip:
/// written, verified and read back; refusals before any WRITE; a chip swapped mid-write;
/// removal after each command; formatting only when asked; making read-only with LOCK BLOCK.
@Suite struct Type5WriterTests {
    static let tiUID: [UInt8] = [0xE0, 0x07, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78]
    static let otherUID: [UInt8] = [0xE0, 0x04, 0x01, 0x08, 0x11, 0x22, 0x33, 0x44]
    static let eightByteBlocks = Type5Product(name: "8-byte blocks", blockCount: 32, blockSize: 8,
                                              defaultUID: [0xE0, 0x02, 0x26, 0x00, 0x1C, 0x5A, 0x7B, 0x31])

    static func writes<Object>(_ transport: InProcessTransport<Object>) async -> [[UInt8]] {
        await transport.commands.filter { $0.count > 1 && $0[1] == Type5Command.writeSingleBlock }
    }

    @Test(arguments: [(Type5Product.icodeSLIX2, true), (.st25dv04k, false), (Self.eightByteBlocks, true)])
    func writesVerifiesAndReadsBack(product: Type5Product, systemInformation: Bool) async throws {
        let transport = InProcessTransport(try VirtualType5Tag(product: product, message: poster))
        let new = message(encodedSize: 200)
        let report = try await Type5Writer.write(new.encoded(), over: transport, systemInformation: systemInformation)
        #expect(report.changed && !report.formatted)
        #expect(report.roundTrips == (await transport.roundTrips))
        let reading = try await Type5Tag.readNDEF(over: transport, systemInformation: systemInformation)
        #expect(reading.message == new)
        let commands = await transport.commands
        let writes = await Self.writes(transport)
        // Addressed to the chip, no option flag for these chips; the UID checked right before the last WRITE.
        let uid = product.defaultUID
        #expect(writes.allSatisfy { $0[0] == 0x22 && Array($0[2..<10]) == uid.reversed() && $0.count == 11 + product.blockSize })
        let last = try #require(commands.lastIndex(of: writes.last!))
        #expect(commands[last - 1] == Type5Command.inventoryOneSlot)
        // A 3-byte length: the first WRITE puts 03 00 at the TLV's start (byte 4).
        let first = writes[0]
        #expect(Array(first[(11 + 4 % product.blockSize)...].prefix(2)) == [0x03, 0x00])
    }

    @Test func texasInstrumentsChipsGetTheOptionFlag() async throws {
        let transport = InProcessTransport(try VirtualType5Tag(product: .icodeSLIX, uid: Self.tiUID, message: poster))
        try await Type5Writer.write(message(encodedSize: 50).encoded(), over: transport, systemInformation: true)
        #expect(await Self.writes(transport).allSatisfy { $0[0] == 0x62 })
    }

    @Test func tooLargeAndReadOnlyAreRefusedBeforeAnyWrite() async throws {
        let transport = InProcessTransport(try VirtualType5Tag(product: .icodeSLIX, message: poster))
        try await Type5Writer.write([UInt8](repeating: 0x20, count: 102), over: transport, systemInformation: true)
        await #expect(throws: TagWriteError.refused(.doesNotFit(needed: 105, available: 104))) {
            try await Type5Writer.write([UInt8](repeating: 0x20, count: 103), over: transport, systemInformation: true)
        }
        var tag = try VirtualType5Tag(product: .icodeSLIX, message: poster)
        tag.write([0xE1, 0x43], at: 0)
        let locked = InProcessTransport(tag)
        await #expect(throws: TagWriteError.refused(.readOnly)) {
            try await Type5Writer.write([], over: locked, systemInformation: false)
        }
        #expect(await Self.writes(locked).isEmpty)
        let status = try await Type5Driver(transport: locked, uid: nil, systemInformation: true).status()
        #expect(status.access == .readOnly)
        #expect(status.used == poster.encoded().count)
        #expect(status.capacity == 102)
    }

    @Test func anotherChipBeforeTheLastWriteIsRefused() async throws {
        let first = try VirtualType5Tag(product: .icodeSLIX2, message: poster)
        let second = try VirtualType5Tag(product: .icodeSLIX2, uid: Self.otherUID, message: poster)
        let new = message(encodedSize: 100)
        // Where the check before the commit falls, from a write that runs through.
        let plain = InProcessTransport(first)
        try await Type5Writer.write(new.encoded(), over: plain, systemInformation: true)
        let check = try #require(await plain.commands.lastIndex(of: Type5Command.inventoryOneSlot))
        for swap in [6, 9, check] {
            let transport = InProcessTransport(SwappedObject(first: first, second: second, commandsBeforeSwap: swap))
            do {
                try await Type5Writer.write(new.encoded(), over: transport, systemInformation: true)
                Issue.record("written with another chip after \(swap) commands")
            } catch {
                // Swapped right before the check: refused by it; before that, the addressed WRITE
                // went unanswered (the chip written to is gone).
                #expect(swap == check ? error == .differentObject : error.isRemoval, "swap after \(swap): \(error)")
            }
            let object = await transport.object
            #expect(try await Type5Tag.readNDEF(over: InProcessTransport(object.second)).message == poster)
            let firstHolds = try await Type5Tag.readNDEF(over: InProcessTransport(object.first)).ndefBytes
            #expect(firstHolds == poster.encoded() || firstHolds == [])
            if swap == check { #expect(await transport.commands.last == Type5Command.inventoryOneSlot) }
        }
    }

    @Test func removedMidWriteLeavesOldEmptyOrNew() async throws {
        let new = message(encodedSize: 150)
        for commands in 1...60 {
            let tag = try VirtualType5Tag(product: .icodeSLIX2, message: poster, presence: FieldPresence(removeAfterCommands: commands))
            let transport = InProcessTransport(tag)
            do {
                try await Type5Writer.write(new.encoded(), over: transport, systemInformation: true)
            } catch {
                #expect(error.isRemoval, "\(error)")
            }
            var left = await transport.object
            left.presence = FieldPresence()
            let bytes = try await Type5Tag.readNDEF(over: InProcessTransport(left)).ndefBytes
            #expect(bytes == poster.encoded() || bytes == [] || bytes == new.encoded(), "gone after \(commands)")
        }
    }

    @Test func blankChipsAreFormattedOnlyWhenAsked() async throws {
        let blank = try VirtualType5Tag(product: .icodeSLIX, image: [UInt8](repeating: 0, count: 112))
        let transport = InProcessTransport(blank)
        await #expect(throws: TagWriteError.refused(.notFormatted)) {
            try await Type5Writer.write(poster.encoded(), over: transport, systemInformation: true)
        }
        #expect(await Self.writes(transport).isEmpty)
        let driver = Type5Driver(transport: transport, uid: nil, systemInformation: true)
        let before = try await driver.status()
        #expect(!before.formatted && before.capacity == 102)
        // Without the chip's size (no system information over this link) it cannot be formatted.
        await #expect(throws: TagWriteError.refused(.cannotFormat("the chip's memory size is unknown: this reader does not pass GET SYSTEM INFORMATION"))) {
            try await Type5Driver(transport: transport, uid: nil, systemInformation: false).write(poster.encoded(), options: WriteOptions(formatIfBlank: true))
        }
        let report = try await driver.write(poster.encoded(), options: WriteOptions(formatIfBlank: true))
        #expect(report.formatted)
        #expect(Array(await transport.object.memory.prefix(4)) == [0xE1, 0x40, 0x0D, 0x01])
        #expect(try await Type5Tag.readNDEF(over: transport).message == poster)
        // The empty message went in before the CC: a chip taken away mid-format is blank or empty.
        let writes = await Self.writes(transport)
        #expect(writes.prefix(2).map { $0[10] } == [1, 0])
        #expect(writes[0].suffix(4) == [0x03, 0x00, 0xFE, 0x00])
        await #expect(throws: TagWriteError.self) {
            try await Type5Writer.write([], over: InProcessTransport(blank), systemInformation: true, format: false)
        }
    }

    @Test func makingReadOnlySetsTheCCThenLocksTheBlocks() async throws {
        let transport = InProcessTransport(try VirtualType5Tag(product: .icodeSLIX, message: poster))
        let driver = Type5Driver(transport: transport, uid: nil, systemInformation: true)
        let report = try await driver.makeReadOnly(options: WriteOptions())
        #expect(report.chipLocked == true && report.changed)
        let chip = await transport.object
        #expect(chip.memory[1] == 0x43)
        #expect(chip.lockedBlocks == Set(0..<27))    // the CC and data area (MLEN 13: bytes 4–107)
        // The CC went first, then every LOCK BLOCK; the message is still there, read-only.
        let codes = await transport.commands.compactMap { $0.count > 1 ? $0[1] : nil }
        let firstLock = try #require(codes.firstIndex(of: Type5Command.lockBlock))
        #expect(codes.lastIndex(of: Type5Command.writeSingleBlock)! < firstLock)
        #expect(try await Type5Tag.readNDEF(over: transport).message == poster)
        #expect(try await driver.status().access == .readOnly)
        await #expect(throws: TagWriteError.refused(.readOnly)) {
            try await driver.write([], options: WriteOptions())
        }
        // The chip itself refuses a WRITE now (error 12: locked), and LOCK again answers 11.
        var locked = chip
        #expect(locked.respond(to: Type5Command.write(block: 3, [1, 2, 3, 4], option: false)) == .frame([0x01, 0x12]))
        #expect(locked.respond(to: Type5Command.lock(block: 3, option: false)) == .frame([0x01, 0x11]))
        // Again: already read-only, every block already locked.
        let again = try await driver.makeReadOnly(options: WriteOptions())
        #expect(again.chipLocked == true)
    }
}
