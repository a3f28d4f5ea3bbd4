import NDEF
import NFCSim
import NFCTags
import Testing

/// Reads of Type 5 (ISO 15693) objects against the virtual chip: with GET SYSTEM INFORMATION
/// and READ MULTIPLE BLOCKS (a reader that passes ISO 15693 frames), and with READ SINGLE BLOCK
/// only (a PC/SC Part 3 link).
@Suite struct Type5ReadTests {
    @Test func posterWithSystemInformation() async throws {
        let link = InProcessTransport(try VirtualType5Tag(product: .icodeSLIX2, message: poster))
        let reading = try await Type5Tag.readNDEF(over: link)
        #expect(reading.message == poster)
        #expect(reading.platform == .type5)
        #expect(reading.uid == Type5Product.icodeSLIX2.defaultUID)
        #expect(reading.capacity == (80 * 4 - 4) / 8 * 8 - 4)
        // System info, block 0 (CC), READ SIGNATURE (an ICODE SLIX2), then one READ MULTIPLE of
        // 48 bytes for the TLV.
        #expect(reading.originality == .signature(.icode, VirtualType2Tag.unsignedSignature))
        #expect(reading.roundTrips == 4)
        #expect(await link.commands.map { $0[1] } == [0x2B, 0x20, 0xBD, 0x23])
    }

    @Test func blockReadsOnly() async throws {
        let link = InProcessTransport(try VirtualType5Tag(product: .icodeSLIX, message: poster))
        let reading = try await Type5Tag.readNDEF(over: link, systemInformation: false)
        #expect(reading.message == poster)
        #expect(reading.capacity == (28 * 4 - 4) / 8 * 8 - 2)
        // Block 0, then one block at a time as far as the TLV reaches (CC 4 bytes + TLV).
        let blocks = (4 + 2 + poster.encoded().count + 3) / 4
        #expect(await link.commands.allSatisfy { $0[1] == 0x20 })
        #expect(reading.roundTrips == blocks)
        #expect(await link.roundTrips == blocks)
    }

    @Test func fullST25DV() async throws {
        let size = (128 * 4 - 4) / 8 * 8
        let full = message(encodedSize: size - 4 - 1)
        let link = InProcessTransport(try VirtualType5Tag(product: .st25dv04k, message: full), capabilities: storageCardLink)
        let reading = try await Type5Tag.readNDEF(over: link)
        #expect(reading.message == full)
        #expect(try await Type5Tag.readNDEF(over: InProcessTransport(VirtualType5Tag(product: .st25dv04k, message: full)), systemInformation: false).message == full)
        #expect(try await Type5Tag.readNDEF(over: InProcessTransport(VirtualType5Tag(product: .icodeSLIX, message: nil))).content == .empty)
    }

    @Test func hostileImages() async throws {
        // Not NDEF formatted (issue 23): a blank object, holding nothing.
        var blank = try VirtualType5Tag(product: .icodeSLIX, message: poster)
        blank.write([0, 0, 0, 0], at: 0)
        let reading = try await Type5Tag.readNDEF(over: InProcessTransport(blank))
        #expect(!reading.formatted && reading.content == .empty && reading.capacity == 0)
        // A TLV longer than the chip.
        var huge = try VirtualType5Tag(product: .icodeSLIX, message: poster)
        huge.write([0x03, 0xFF, 0x01, 0x00], at: 4)
        await #expect(throws: TagReadError.messagePastEndOfMemory(needed: 4 + 0x100, capacity: 104)) {
            try await Type5Tag.readNDEF(over: InProcessTransport(huge))
        }
        // A CC claiming more memory than system information reports: bounded by the chip.
        var overstated = try VirtualType5Tag(product: .icodeSLIX, message: poster)
        overstated.write([0xE1, 0x40, 0xFF, 0x01, 0x03, 0xFE], at: 0)
        await #expect(throws: TagReadError.messagePastEndOfMemory(needed: 2 + 0xFE, capacity: 28 * 4 - 4)) {
            try await Type5Tag.readNDEF(over: InProcessTransport(overstated))
        }
        // Without system information the chip's error answer past its end is typed.
        await #expect(throws: TagReadError.iso15693Error(command: "READ SINGLE BLOCK 28", code: 0x10)) {
            try await Type5Tag.readNDEF(over: InProcessTransport(overstated), systemInformation: false)
        }
        // Moved away mid-read.
        let leaving = try VirtualType5Tag(product: .icodeSLIX, message: message(encodedSize: 80), presence: FieldPresence(removeAfterCommands: 5))
        await #expect(throws: TagReadError.objectRemoved(roundTrips: 6)) {
            try await Type5Tag.readNDEF(over: InProcessTransport(leaving), systemInformation: false)
        }
    }

    @Test func vpcdCardAnswersBlockReads() {
        var card = VPCDType5Card(chip: try! VirtualType5Tag(product: .icodeSLIX2, message: poster))
        #expect(card.atr == [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x0B, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x77])
        let r1 = card.transmit([0xFF, 0xB0, 0x00, 0x00, 0x00])
        #expect(r1 == [0xE1, 0x40, 39, 0x01, 0x90, 0x00])
        let r2 = card.transmit([0xFF, 0xB0, 0x00, 0x00, 0x08])?.count
        #expect(r2 == 10)
        let r3 = card.transmit([0xFF, 0xB0, 0x00, 80, 0x00])
        #expect(r3 == [0x6A, 0x82])
        let r4 = card.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00])
        #expect(r4 == Type5Product.icodeSLIX2.defaultUID + [0x90, 0x00])
    }

    @Test func vpcdMifareClassicCard() {
        var card = VPCDMifareClassicCard(chip: try! VirtualMifareClassic(size: .classic4K, message: poster))
        #expect(card.atr == [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x69])
        let r5 = card.transmit([0xFF, 0xB0, 0x00, 0x04, 0x10])
        #expect(r5 == [0x69, 0x82])
        let r6 = card.transmit([0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, 0x07, 0x60, 0x00])
        #expect(r6 == [0x69, 0x86])
        let r7 = card.transmit([0xFF, 0x82, 0x00, 0x00, 0x06] + [1, 2, 3, 4, 5, 6])
        #expect(r7 == [0x90, 0x00])
        let r8 = card.transmit([0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, 0x07, 0x60, 0x00])
        #expect(r8 == [0x63, 0x00])
        let r9 = card.transmit([0xFF, 0x82, 0x00, 0x00, 0x06] + MifareClassicNDEF.ndefKeyA)
        #expect(r9 == [0x90, 0x00])
        let r10 = card.transmit([0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, 0x07, 0x60, 0x00])
        #expect(r10 == [0x90, 0x00])
        let r11 = card.transmit([0xFF, 0xB0, 0x00, 0x04, 0x10])?.suffix(2)
        #expect(r11 == [0x90, 0x00])
        let r12 = card.transmit([0xFF, 0xB0, 0x00, 0x04, 0x10])?.count
        #expect(r12 == 18)
    }
}
