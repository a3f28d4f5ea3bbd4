import NDEF
import NFCSim
import NFCTags
import PropertyBased
import Testing

/// Writing MIFARE Classic objects (NXP AN1304): the plan over the NDEF sectors' data blocks, torn
/// after every WRITE and read back by the real reader; capacity edges; other keys refused before
/// anything is written; format (torn and resumed), write and read; make read-only.
@Suite struct MifareClassicWriteTests {
    static let uid = MifareClassicImage.defaultUID

    /// Deterministic bytes from a seed (the Type 2 plan tests' own).
    static func bytes(_ count: Int, seed: Int) -> [UInt8] { Type2WritePlanTests.bytes(count, seed: seed) }

    /// The NDEF area, data and trailers of a chip formatted by ``MifareClassicImage``, as the
    /// writer's reads find them (keys read as zeros).
    static func survey(_ chip: VirtualMifareClassic) -> (MifareClassicNDEFArea, [UInt8], [Int: [UInt8]]) {
        let area = MifareClassicNDEFArea(geometry: chip.size, sectors: MifareClassicNDEF.ndefSectors(formatting: chip.size))
        let data = area.blocks.flatMap { chip.block($0) }
        var trailers: [Int: [UInt8]] = [:]
        for sector in area.sectors {
            var trailer = chip.block(chip.size.trailerBlock(ofSector: sector))
            trailer.replaceSubrange(0..<6, with: [0, 0, 0, 0, 0, 0])
            trailer.replaceSubrange(10..<16, with: [0, 0, 0, 0, 0, 0])
            trailers[sector] = trailer
        }
        return (area, data, trailers)
    }

    static func read(_ chip: VirtualMifareClassic) async throws(TagReadError) -> [UInt8] {
        try await MifareClassicTag.readNDEF(over: InProcessTransport(chip), uid: uid, size: chip.size).ndefBytes
    }

    static func writeCommands(_ transport: InProcessTransport<VirtualMifareClassic>) async -> [[UInt8]] {
        await transport.commands.filter { $0.first == MifareClassicCommand.write }
    }

    enum Old: CaseIterable { case message, messageWithoutTerminator, emptyTLV, terminatorOnly }

    @Test func tearingAfterEveryWriteReadsOldEmptyOrNew() async {
        let sizes = Gen.element(of: [MifareClassicSize.classic1K, .classic4K, .mini])
        // New message: 0 empty, 1 random size, 2 exactly full, 3 one byte over.
        await propertyCheck(count: 150, input: sizes, Gen.element(of: Old.allCases), Gen.int(in: 0...3), Gen.int(in: 0...100),
                            Gen.int(in: 0...100), Gen.int(in: 0...0xFFFF)) { size, old, mode, oldFill, newFill, seed in
            let (size, old) = (size!, old!)
            let ndefSectors = MifareClassicNDEF.ndefSectors(formatting: size)
            let capacity = MifareClassicNDEFArea(geometry: size, sectors: ndefSectors).capacity
            let largest = TLVAreaWritePlan.largestMessage(in: capacity)
            let oldMessage = Self.bytes(largest * oldFill / 100, seed: seed)
            let junk = Self.bytes(capacity, seed: seed + 7)
            let area: [UInt8] = switch old {
            case .message: TLVWalker.encode(.ndefMessage, value: oldMessage)! + [0xFE] + junk
            case .messageWithoutTerminator: TLVWalker.encode(.ndefMessage, value: oldMessage)! + junk
            case .emptyTLV: [0x03, 0x00, 0xFE] + junk
            case .terminatorOnly: [0xFE] + junk
            }
            var chip = try VirtualMifareClassic(size: size, image: MifareClassicImage.makeImage(
                size: size, uid: Self.uid, ndefSectors: ndefSectors, dataArea: Array(area.prefix(capacity))))
            let holds = old == .message || old == .messageWithoutTerminator ? oldMessage : []
            #expect(try await Self.read(chip) == holds)

            let length = Type2WritePlanTests.newLength(mode: mode, largest: largest, fill: newFill)
            let new = Self.bytes(length, seed: seed ^ 0x5A5A)
            let (ndefArea, data, trailers) = Self.survey(chip)
            let plan: MifareClassicWritePlan
            do {
                plan = try MifareClassicWritePlan(area: ndefArea, data: data, trailers: trailers, message: new)
            } catch let error as WriteRefusal {
                #expect(mode == 3, "refused \(length) bytes in \(capacity): \(error)")
                #expect(error == .doesNotFit(needed: TLVWalker.encode(.ndefMessage, value: new)!.count, available: capacity))
                return
            }
            #expect(mode != 3, "planned \(length) bytes in \(capacity)")
            for (index, write) in plan.writes.enumerated() {
                // Only NDEF data blocks: never a trailer, never the MAD.
                #expect(ndefArea.blocks.contains(write.block) && write.bytes.count == 16)
                chip.write(write.bytes, atBlock: write.block)
                let reading = try await Self.read(chip)
                #expect(reading == holds || reading == [] || reading == new,
                        "\(size) after \(index + 1) of \(plan.writes.count) writes: \(reading.count) bytes")
            }
            #expect(try await Self.read(chip) == new)
        }
    }

    @Test(arguments: [(MifareClassicSize.classic1K, 720), (.classic4K, 3360), (.mini, 192)])
    func exactlyFullIsWrittenOneByteOverIsRefused(size: MifareClassicSize, capacity: Int) async throws {
        let largest = TLVAreaWritePlan.largestMessage(in: capacity)
        let transport = InProcessTransport(try VirtualMifareClassic(size: size, message: poster))
        let full = Self.bytes(largest, seed: 3)
        let report = try await MifareClassicWriter.write(full, uid: Self.uid, size: size, options: WriteOptions(), over: transport)
        #expect(report.changed && !report.formatted)
        #expect(try await MifareClassicTag.readNDEF(over: transport, uid: Self.uid, size: size).ndefBytes == full)
        let status = try await MifareClassicDriver(transport: transport, uid: Self.uid, size: size).status()
        #expect(status.formatted && status.access == .readWrite && status.capacity == largest && status.used == largest)

        let before = await Self.writeCommands(transport).count
        let needed = TLVWalker.encode(.ndefMessage, value: full + [0])!.count
        await #expect(throws: TagWriteError.refused(.doesNotFit(needed: needed, available: capacity))) {
            try await MifareClassicWriter.write(full + [0], uid: Self.uid, size: size, options: WriteOptions(), over: transport)
        }
        #expect(await Self.writeCommands(transport).count == before)
    }

    @Test func writesWithTheNDEFKeyAAndVerifies() async throws {
        let transport = InProcessTransport(try VirtualMifareClassic(size: .classic1K, message: poster))
        let new = message(encodedSize: 100)
        let report = try await MifareClassicDriver(transport: transport, uid: Self.uid, size: .classic1K).write(new.encoded(), options: WriteOptions())
        let commands = await transport.commands
        #expect(try await MifareClassicTag.readNDEF(over: transport, uid: Self.uid, size: .classic1K).message == new)
        // Every AUTHENTICATE before a WRITE uses the NFC Forum key A; the first write empties the
        // TLV in block 4, the last is block 4 again (the commit), after block 0 was read.
        let writes = commands.enumerated().filter { $0.element.first == MifareClassicCommand.write }
        #expect(writes.first?.element.prefix(4) == [0xA0, 0x04, 0x03, 0x00])
        #expect(writes.last?.element.prefix(2) == [0xA0, 0x04])
        let lastWrite = writes.last!.offset
        #expect(commands[lastWrite - 1] == [0x60, 0x07] + MifareClassicNDEF.ndefKeyA + Self.uid)
        #expect(commands[lastWrite - 2] == [0x30, 0x00])
        #expect(commands[lastWrite - 3] == [0x60, 0x03] + MifareClassicNDEF.madKeyA + Self.uid)
        #expect(report.roundTrips == commands.count)
        // Unchanged: nothing written.
        let again = try await MifareClassicWriter.write(new.encoded(), uid: Self.uid, size: .classic1K, options: WriteOptions(), over: transport)
        #expect(!again.changed)
    }

    @Test func aSevenByteUIDIsWrittenAndChecked() async throws {
        let uid: [UInt8] = [0x04, 0x6E, 0x21, 0x5A, 0x3C, 0x91, 0x80]
        let transport = InProcessTransport(try VirtualMifareClassic(size: .classic4K, uid: uid, message: poster))
        let new = message(encodedSize: 1000)
        _ = try await MifareClassicWriter.write(new.encoded(), uid: uid, size: .classic4K, options: WriteOptions(), over: transport)
        #expect(try await MifareClassicTag.readNDEF(over: transport, uid: uid, size: .classic4K).message == new)
    }

    @Test func otherKeysAreRefusedBeforeAnythingIsWritten() async throws {
        // Sector 3's key A is private; sector 5 is written only with key B (MAD-style access
        // bits); sector 2 says read-only in its GPB.
        var privateKey = try VirtualMifareClassic(size: .classic1K, message: poster)
        privateKey.write([0x11, 0x22, 0x33, 0x44, 0x55, 0x66], atBlock: 15)
        var keyBOnly = try VirtualMifareClassic(size: .classic1K, message: poster)
        keyBOnly.write(MifareClassicTrailer.make(keyA: MifareClassicNDEF.ndefKeyA, accessBits: MifareClassicTrailer.madAccessBits,
                                                 generalPurposeByte: 0x40), atBlock: 23)
        var readOnly = try VirtualMifareClassic(size: .classic1K, message: poster)
        readOnly.write(MifareClassicTrailer.make(keyA: MifareClassicNDEF.ndefKeyA, accessBits: MifareClassicTrailer.ndefAccessBits,
                                                 generalPurposeByte: 0x43), atBlock: 11)
        for (chip, refusal) in [(privateKey, WriteRefusal.keysRefused(sector: 3)), (keyBOnly, .keysRefused(sector: 5)), (readOnly, .readOnly)] {
            let transport = InProcessTransport(chip)
            await #expect(throws: TagWriteError.refused(refusal)) {
                try await MifareClassicWriter.write(message(encodedSize: 30).encoded(), uid: Self.uid, size: .classic1K,
                                                    options: WriteOptions(formatIfBlank: true), over: transport)
            }
            #expect(await Self.writeCommands(transport).isEmpty)
        }
        // A blank chip with one sector on other keys is not formatted, even when asked.
        var blank = try VirtualMifareClassic(size: .classic1K, image: MifareClassicImage.blank(size: .classic1K))
        blank.write([0x11, 0x22, 0x33, 0x44, 0x55, 0x66], atBlock: 39)
        let transport = InProcessTransport(blank)
        await #expect(throws: TagWriteError.refused(.keysRefused(sector: 9))) {
            try await MifareClassicWriter.write([], uid: Self.uid, size: .classic1K, options: WriteOptions(formatIfBlank: true), over: transport)
        }
        #expect(await Self.writeCommands(transport).isEmpty)
        // A MAD without NDEF sectors (other applications) is not formatted over.
        let others = try VirtualMifareClassic(size: .classic1K, image: MifareClassicImage.makeImage(
            size: .classic1K, uid: Self.uid, ndefSectors: [], dataArea: []))
        let otherApps = InProcessTransport(others)
        await #expect(throws: TagWriteError.refused(.cannotFormat("it holds other applications (a MIFARE application directory without NDEF)"))) {
            try await MifareClassicWriter.write([], uid: Self.uid, size: .classic1K, options: WriteOptions(formatIfBlank: true), over: otherApps)
        }
        #expect(await Self.writeCommands(otherApps).isEmpty)
    }

    @Test func theStorageCardTakesUpdateBinaryAsTheChipTakesWrite() throws {
        var card = VPCDMifareClassicCard(chip: try VirtualMifareClassic(size: .classic1K, message: poster))
        let block = [UInt8](repeating: 0x42, count: 16)
        // Not authenticated: the chip refuses, the reader says 63 00.
        #expect(card.transmit([0xFF, 0xD6, 0x00, 0x04, 0x10] + block) == [0x63, 0x00])
        #expect(card.transmit([0xFF, 0x82, 0x00, 0x00, 0x06] + MifareClassicNDEF.ndefKeyA) == [0x90, 0x00])
        #expect(card.transmit([0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, 0x07, 0x60, 0x00]) == [0x90, 0x00])
        #expect(card.transmit([0xFF, 0xD6, 0x00, 0x04, 0x10] + block) == [0x90, 0x00])
        // The trailer needs key B; a short block and a block past the end are the reader's errors.
        #expect(card.transmit([0xFF, 0xD6, 0x00, 0x07, 0x10] + MifareClassicTrailer.readOnly()) == [0x63, 0x00])
        #expect(card.transmit([0xFF, 0xD6, 0x00, 0x04, 0x04, 1, 2, 3, 4]) == [0x67, 0x00])
        #expect(card.transmit([0xFF, 0xD6, 0x00, 0x40, 0x10] + block) == [0x6A, 0x82])
        #expect(card.chip.block(4) == block)
    }

    @Test(arguments: MifareClassicSize.allCases)
    func formatThenWriteThenRead(size: MifareClassicSize) async throws {
        // Leftover bytes in the data blocks must never read as a message.
        let transport = InProcessTransport(try VirtualMifareClassic(size: size, image: MifareClassicImage.blank(size: size, fill: 0x03)))
        let driver = MifareClassicDriver(transport: transport, uid: Self.uid, size: size)
        let blank = try await driver.status()
        #expect(!blank.formatted && blank.capacity == MifareClassicFormatPlan.capacity(of: size))
        await #expect(throws: TagWriteError.refused(.notFormatted)) { try await driver.write(poster.encoded(), options: WriteOptions()) }
        #expect(await Self.writeCommands(transport).isEmpty)

        // Too large for the formatted object: refused, still blank.
        let tooLarge = Self.bytes(blank.capacity + 1, seed: 5)
        await #expect(throws: TagWriteError.refused(.doesNotFit(needed: TLVWalker.encode(.ndefMessage, value: tooLarge)!.count,
                                                                available: blank.capacity + (blank.capacity < 0xFF ? 2 : 4)))) {
            try await driver.write(tooLarge, options: WriteOptions(formatIfBlank: true))
        }
        #expect(await Self.writeCommands(transport).isEmpty)

        let report = try await driver.write(poster.encoded(), options: WriteOptions(formatIfBlank: true))
        #expect(report.formatted && report.changed)
        #expect(try await driver.readNDEF().message == poster)
        let status = try await driver.status()
        #expect(status.formatted && status.access == .readWrite && status.capacity == MifareClassicFormatPlan.capacity(of: size))
        // The layout is AN1304's, as MifareClassicImage builds it (keys included).
        let chip = await transport.object
        let reference = try VirtualMifareClassic(size: size, message: poster)
        for sector in 0..<size.sectorCount {
            #expect(chip.block(size.trailerBlock(ofSector: sector)) == reference.block(size.trailerBlock(ofSector: sector)), "sector \(sector)")
        }
        #expect(chip.block(1) == reference.block(1) && chip.block(2) == reference.block(2))
        if size == .classic4K { #expect((64...66).allSatisfy { chip.block($0) == reference.block($0) }) }
    }

    @Test func aFormatTornAfterAnyCommandReadsBlankOrEmptyAndResumes() async throws {
        var total = 0
        var commands = 1
        repeat {
            let chip = try VirtualMifareClassic(size: .classic1K, image: MifareClassicImage.blank(size: .classic1K, fill: 0x03),
                                                presence: FieldPresence(removeAfterCommands: commands))
            let transport = InProcessTransport(chip)
            do {
                try await MifareClassicWriter.write([], uid: Self.uid, size: .classic1K, options: WriteOptions(formatIfBlank: true), over: transport)
                total = commands    // the format and the (empty) write ran whole
            } catch {
                #expect(error.isRemoval, "gone after \(commands): \(error)")
            }
            var left = await transport.object
            left.presence = FieldPresence()
            _ = left.reactivate()
            do {
                #expect(try await Self.read(left) == [], "gone after \(commands)")
            } catch {
                // Not formatted yet: sector 0 does not open with the MAD key.
                #expect(error == .mifareClassic(.authenticationFailed(sector: 0, key: "MAD key A")), "gone after \(commands): \(error)")
            }
            // Asked again, the format resumes and the object takes a message.
            let again = InProcessTransport(left)
            _ = try await MifareClassicWriter.write(poster.encoded(), uid: Self.uid, size: .classic1K,
                                                    options: WriteOptions(formatIfBlank: true), over: again)
            #expect(try await Self.read(await again.object) == poster.encoded())
            commands += 1
        } while total == 0 && commands < 400
        #expect(total > 60, "the whole format took \(total) commands")
    }

    @Test func removedMidWriteLeavesOldEmptyOrNew() async throws {
        let new = message(encodedSize: 300)
        for commands in stride(from: 79, through: 130, by: 1) {
            let chip = try VirtualMifareClassic(size: .classic1K, message: poster, presence: FieldPresence(removeAfterCommands: commands))
            let transport = InProcessTransport(chip)
            do {
                _ = try await MifareClassicWriter.write(new.encoded(), uid: Self.uid, size: .classic1K, options: WriteOptions(), over: transport)
            } catch {
                #expect(error.isRemoval, "\(error)")
            }
            var left = await transport.object
            left.presence = FieldPresence()
            _ = left.reactivate()
            let bytes = try await Self.read(left)
            #expect(bytes == poster.encoded() || bytes == [] || bytes == new.encoded(), "gone after \(commands)")
        }
    }

    @Test func anotherObjectMidWriteIsRefusedBeforeTheCommit() async throws {
        let first = try VirtualMifareClassic(size: .classic1K, message: poster)
        let second = try VirtualMifareClassic(size: .classic1K, uid: [0x11, 0x22, 0x33, 0x44], message: poster)
        let new = message(encodedSize: 200)
        // Where the UID check (AUTHENTICATE sector 0, READ block 0) comes in a whole write.
        let reference = InProcessTransport(first)
        _ = try await MifareClassicWriter.write(new.encoded(), uid: Self.uid, size: .classic1K, options: WriteOptions(), over: reference)
        let check = try #require(await reference.commands.lastIndex(of: [0x30, 0x00])) - 1
        // The reads take 79 commands; swap anywhere during the writes, and just before the check.
        for swap in 79...check {
            let transport = InProcessTransport(SwappedObject(first: first, second: second, commandsBeforeSwap: swap))
            do {
                _ = try await MifareClassicWriter.write(new.encoded(), uid: Self.uid, size: .classic1K, options: WriteOptions(), over: transport)
                Issue.record("written across a swap after \(swap) commands")
            } catch {
                // The other chip refuses the first key or write it gets; at the check it is named.
                switch error {
                case .differentObject: break
                case .writeRefused where swap < check: break
                default: Issue.record("swapped after \(swap): \(error)")
                }
            }
            let object = await transport.object
            for chip in [object.first, object.second] {
                var chip = chip
                _ = chip.reactivate()
                let bytes = try await MifareClassicTag.readNDEF(over: InProcessTransport(chip), uid: chip.uid, size: .classic1K).ndefBytes
                #expect(bytes == poster.encoded() || bytes == [], "swapped after \(swap)")
            }
        }
    }

    @Test func makeReadOnlyThenWriteIsRefused() async throws {
        let transport = InProcessTransport(try VirtualMifareClassic(size: .classic1K, message: poster))
        let driver = MifareClassicDriver(transport: transport, uid: Self.uid, size: .classic1K)
        let report = try await driver.makeReadOnly(options: WriteOptions())
        #expect(report.changed)
        let status = try await driver.status()
        #expect(status.access == .readOnly && status.used == poster.encoded().count)
        #expect(try await driver.readNDEF().message == poster)
        let writes = await Self.writeCommands(transport).count
        await #expect(throws: TagWriteError.refused(.readOnly)) { try await driver.write([], options: WriteOptions()) }
        #expect(await Self.writeCommands(transport).count == writes)
        // The chip itself refuses a WRITE to a locked data block, even with key B.
        let chip = await transport.object
        #expect(Array(chip.block(7)[6..<10]) == MifareClassicTrailer.readOnlyAccessBits + [MifareClassicTrailer.readOnlyGeneralPurposeByte])
        let direct = InProcessTransport(chip)
        #expect(try await direct.transceive(MifareClassicCommand.authenticate(block: 7, key: MifareClassicTrailer.defaultKeyB, keyB: true, uid: Self.uid)) == [])
        #expect(try await direct.transceive(MifareClassicCommand.write(block: 4, bytes: [UInt8](repeating: 0, count: 16))).count == 1)
        // Again: nothing left to lock.
        #expect(!(try await driver.makeReadOnly(options: WriteOptions())).changed)
    }

    @Test func makeReadOnlyWithAnotherKeyBIsRefused() async throws {
        var chip = try VirtualMifareClassic(size: .classic1K, message: poster)
        var trailer = chip.block(23)
        trailer.replaceSubrange(10..<16, with: [0x0B, 0x0B, 0x0B, 0x0B, 0x0B, 0x0B])
        trailer.replaceSubrange(0..<6, with: MifareClassicNDEF.ndefKeyA)
        chip.write(trailer, atBlock: 23)
        let transport = InProcessTransport(chip)
        await #expect(throws: TagWriteError.refused(.keysRefused(sector: 5))) {
            try await MifareClassicWriter.makeReadOnly(uid: Self.uid, size: .classic1K, over: transport)
        }
        #expect(await Self.writeCommands(transport).isEmpty)
    }

    @Test func theChipEnforcesAccessBitsOnWrite() async throws {
        let transport = InProcessTransport(try VirtualMifareClassic(size: .classic1K, message: poster))
        let block = [UInt8](repeating: 0x42, count: 16)
        // Without authentication: NAK.
        #expect(try await transport.transceive(MifareClassicCommand.write(block: 4, bytes: block)).count == 1)
        try await transport.reactivate()
        // The MAD sector with key A: data written with key B only.
        #expect(try await transport.transceive(MifareClassicCommand.authenticate(block: 3, key: MifareClassicNDEF.madKeyA, uid: Self.uid)) == [])
        #expect(try await transport.transceive(MifareClassicCommand.write(block: 1, bytes: block)).count == 1)
        try await transport.reactivate()
        // An NDEF sector with key A: data yes, its trailer (key B only) no, another sector no.
        #expect(try await transport.transceive(MifareClassicCommand.authenticate(block: 7, key: MifareClassicNDEF.ndefKeyA, uid: Self.uid)) == [])
        #expect(try await transport.transceive(MifareClassicCommand.write(block: 5, bytes: block)) == [])
        #expect(try await transport.transceive(MifareClassicCommand.write(block: 7, bytes: MifareClassicTrailer.readOnly())).count == 1)
        try await transport.reactivate()
        #expect(try await transport.transceive(MifareClassicCommand.authenticate(block: 7, key: MifareClassicNDEF.ndefKeyA, uid: Self.uid)) == [])
        #expect(try await transport.transceive(MifareClassicCommand.write(block: 8, bytes: block)).count == 1)
        let chip = await transport.object
        #expect(chip.block(5) == block && chip.block(1) != block)
    }
}
