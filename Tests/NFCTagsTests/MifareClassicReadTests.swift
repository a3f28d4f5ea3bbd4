import NDEF
import NFCSim
import NFCTags
import Testing

/// Reads of MIFARE Classic objects formatted for NDEF (MAD + public keys), against the virtual
/// chip. Round trips: AUTHENTICATE + 3 READs for sector 0 (MAD1 and its trailer); on a 4K with
/// MAD2, AUTHENTICATE + 3 READs of sector 16; then per NDEF sector one AUTHENTICATE and one
/// READ per block the TLVs reach.
@Suite struct MifareClassicReadTests {
    func transport(_ size: MifareClassicSize, _ message: NDEFMessage?) throws -> InProcessTransport<VirtualMifareClassic> {
        InProcessTransport(try VirtualMifareClassic(size: size, message: message))
    }

    @Test func madCRCMatchesTheApplicationNotesExample() {
        // AN10787: a 1K with every sector NDEF has MAD1 block 1 = 14 01 03 E1 …
        #expect(MifareClassicNDEF.madCRC([0x01] + Array(repeating: [0x03, 0xE1], count: 15).flatMap { $0 }) == 0x14)
    }

    @Test func classic1KPoster() async throws {
        let link = try transport(.classic1K, poster)
        let reading = try await MifareClassicTag.readNDEF(over: link, uid: MifareClassicImage.defaultUID, size: .classic1K)
        #expect(reading.message == poster)
        #expect(reading.platform == .mifareClassic)
        #expect(reading.product == "MIFARE Classic 1K")
        #expect(reading.capacity == 15 * 48 - 4)
        // MAD: auth + blocks 1, 2, 3; NDEF: auth sector 1 + blocks 4, 5, 6 (37-byte TLV: 3 blocks).
        #expect(reading.roundTrips == 4 + 1 + 3)
        #expect(await link.roundTrips == reading.roundTrips)
        let commands = await link.commands
        #expect(commands[0] == [0x60, 0x03] + MifareClassicNDEF.madKeyA + MifareClassicImage.defaultUID)
        #expect(commands[4] == [0x60, 0x07] + MifareClassicNDEF.ndefKeyA + MifareClassicImage.defaultUID)
        #expect(commands.filter { $0.first == 0x30 }.map { $0[1] } == [1, 2, 3, 4, 5, 6])
    }

    @Test func classic1KFullMessageSkipsTrailers() async throws {
        let full = message(encodedSize: 15 * 48 - 4 - 1)   // 3-byte length TLV header, and the Terminator
        let link = try transport(.classic1K, full)
        let reading = try await MifareClassicTag.readNDEF(over: link, uid: MifareClassicImage.defaultUID, size: .classic1K)
        #expect(reading.message == full)
        let reads = await link.commands.filter { $0.first == 0x30 }.map { Int($0[1]) }
        #expect(!reads.dropFirst(3).contains { $0 % 4 == 3 })    // no trailer read after MAD
        #expect(reading.roundTrips == 4 + 15 + 45)
    }

    @Test func classic4KUsesMAD2AndBigSectors() async throws {
        // 15 small NDEF sectors (720 bytes) + 15 more small (17–31: 720) + big sectors from 32.
        let long = message(encodedSize: 2000)
        let link = try transport(.classic4K, long)
        let reading = try await MifareClassicTag.readNDEF(over: link, uid: MifareClassicImage.defaultUID, size: .classic4K)
        #expect(reading.message == long)
        #expect(reading.product == "MIFARE Classic 4K")
        #expect(reading.capacity == 30 * 48 + 8 * 240 - 4)
        let commands = await link.commands
        // MAD2: auth on sector 16's trailer (block 67), READ 64, 65, 66.
        #expect(commands[4] == [0x60, 67] + MifareClassicNDEF.madKeyA + MifareClassicImage.defaultUID)
        #expect(commands[5...7].map { $0[1] } == [64, 65, 66])
        // Sector 32 is authenticated on its trailer, block 143; its 15 data blocks 128–142 read.
        #expect(commands.contains([0x60, 143] + MifareClassicNDEF.ndefKeyA + MifareClassicImage.defaultUID))
        let reads = commands.filter { $0.first == 0x30 }.map { Int($0[1]) }
        #expect(reads.contains(142) && !reads.contains(143) && !reads.contains(67 + 4))
        #expect(await link.roundTrips == reading.roundTrips)
        // Unknown size: the general purpose byte (C2) says MAD2.
        #expect(try await MifareClassicTag.readNDEF(over: transport(.classic4K, long), uid: MifareClassicImage.defaultUID, size: nil).message == long)
    }

    @Test func emptyAndTinyMessages() async throws {
        let empty = try await MifareClassicTag.readNDEF(over: transport(.classic1K, nil), uid: MifareClassicImage.defaultUID, size: .classic1K)
        #expect(empty.content == .empty)
        #expect(empty.roundTrips == 4 + 1 + 1)
        let mini = try await MifareClassicTag.readNDEF(over: transport(.mini, poster), uid: MifareClassicImage.defaultUID, size: .mini)
        #expect(mini.message == poster)
        #expect(mini.capacity == 4 * 48 - 2)
    }

    @Test func sevenByteUIDAuthenticatesWithItsLastFourBytes() async throws {
        let uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
        let link = InProcessTransport(try VirtualMifareClassic(size: .classic1K, uid: uid, message: poster))
        #expect(try await MifareClassicTag.readNDEF(over: link, uid: uid, size: .classic1K).message == poster)
        #expect(await link.commands[0].suffix(4) == [0x33, 0x44, 0x55, 0x66])
    }

    @Test func wrongKeysAreTypedErrors() async throws {
        // Factory keys everywhere (not formatted for NDEF): sector 0 refuses the MAD key, and the
        // card reads as blank (issue 23; before: an error the CLI answered with "try again").
        var chip = try VirtualMifareClassic(size: .classic1K, message: poster)
        for sector in 0..<16 { chip.write([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], atBlock: sector * 4 + 3) }
        let blank = try await MifareClassicTag.readNDEF(over: InProcessTransport(chip), uid: MifareClassicImage.defaultUID, size: .classic1K)
        #expect(!blank.formatted && blank.content == .empty)
        // A private key on the NDEF sector.
        var locked = try VirtualMifareClassic(size: .classic1K, message: poster)
        locked.write([1, 2, 3, 4, 5, 6], atBlock: 7)
        await #expect(throws: TagReadError.mifareClassic(.authenticationFailed(sector: 1, key: "NFC Forum key A"))) {
            try await MifareClassicTag.readNDEF(over: InProcessTransport(locked), uid: MifareClassicImage.defaultUID, size: .classic1K)
        }
        // The wrong UID in AUTHENTICATE fails as well, at the MAD: nothing is read.
        #expect(try await !MifareClassicTag.readNDEF(over: transport(.classic1K, poster), uid: [1, 2, 3, 4], size: .classic1K).formatted)
    }

    @Test func unauthenticatedReadsFailAsOnTheChip() {
        var chip = try! VirtualMifareClassic(size: .classic1K, message: poster)
        let r1 = chip.respond(to: [0x30, 0x04])
        #expect(r1 == .nak(0x4))
        let idle = chip.respond(to: [0x30, 0x04])
        #expect(idle == .silence)    // IDLE until re-activated
        let r2 = chip.reactivate()
        #expect(r2)
        let r3 = chip.respond(to: MifareClassicCommand.authenticate(block: 7, key: MifareClassicNDEF.ndefKeyA, uid: chip.uid))
        #expect(r3 == .frame([]))
        let r4 = chip.respond(to: [0x30, 0x04]).frameCount
        #expect(r4 == 16)
        let other = chip.respond(to: [0x30, 0x08])
        #expect(other == .nak(0x4))    // sector 2 is not authenticated
        let r5 = chip.reactivate()
        #expect(r5)
        let r6 = chip.respond(to: MifareClassicCommand.authenticate(block: 3, key: MifareClassicNDEF.ndefKeyA, uid: chip.uid))
        #expect(r6 == .nak(0x4))
        let r7 = chip.reactivate()
        #expect(r7)
        let r8 = chip.respond(to: MifareClassicCommand.authenticate(block: 3, key: MifareClassicNDEF.madKeyA, uid: chip.uid))
        #expect(r8 == .frame([]))
        // The trailer reads with its keys as zeros, access bits and GPB visible.
        let r9 = chip.respond(to: [0x30, 0x03])
        #expect(r9 == .frame([0, 0, 0, 0, 0, 0, 0x78, 0x77, 0x88, 0xC1, 0, 0, 0, 0, 0, 0]))
    }

    @Test func badDirectoriesAreTypedErrors() async throws {
        var corrupt = try VirtualMifareClassic(size: .classic1K, message: poster)
        corrupt.write([0x15], atBlock: 1)
        await #expect(throws: TagReadError.mifareClassic(.directoryCRC(sector: 0, stored: 0x15, computed: 0x14))) {
            try await MifareClassicTag.readNDEF(over: InProcessTransport(corrupt), uid: MifareClassicImage.defaultUID, size: .classic1K)
        }
        var noMAD = try VirtualMifareClassic(size: .classic1K, message: poster)
        noMAD.write(MifareClassicTrailer.make(keyA: MifareClassicNDEF.madKeyA, accessBits: MifareClassicTrailer.madAccessBits, generalPurposeByte: 0x00), atBlock: 3)
        // No directory, or one without NDEF sectors: blank for messages, holding nothing (issue 23).
        #expect(try await !MifareClassicTag.readNDEF(over: InProcessTransport(noMAD), uid: MifareClassicImage.defaultUID, size: .classic1K).formatted)
        let body = [UInt8](repeating: 0, count: 31)
        var other = try VirtualMifareClassic(size: .classic1K, message: poster)
        other.write([MifareClassicNDEF.madCRC(body)] + body, atBlock: 1)
        let reading = try await MifareClassicTag.readNDEF(over: InProcessTransport(other), uid: MifareClassicImage.defaultUID, size: .classic1K)
        #expect(!reading.formatted && reading.content == .empty)
        // MAD2 corrupt on a 4K.
        var corrupt4K = try VirtualMifareClassic(size: .classic4K, message: poster)
        var mad2 = corrupt4K.block(64)
        mad2[0] ^= 0xFF
        corrupt4K.write(mad2, atBlock: 64)
        await #expect(throws: TagReadError.self) {
            try await MifareClassicTag.readNDEF(over: InProcessTransport(corrupt4K), uid: MifareClassicImage.defaultUID, size: .classic4K)
        }
    }

    @Test func hostileImages() async throws {
        let uid = MifareClassicImage.defaultUID
        // A TLV claiming more than the NDEF sectors hold.
        let huge = MifareClassicImage.makeImage(size: .classic1K, uid: uid, ndefSectors: [1], dataArea: [0x03, 0xFF, 0x10, 0x00])
        await #expect(throws: TagReadError.messagePastEndOfMemory(needed: 4 + 0x1000, capacity: 48)) {
            try await MifareClassicTag.readNDEF(over: InProcessTransport(VirtualMifareClassic(size: .classic1K, image: huge)), uid: uid, size: .classic1K)
        }
        // A reserved TLV tag (issue 23): walked past by its length; the message after it reads.
        let reserved = MifareClassicImage.makeImage(size: .classic1K, uid: uid, ndefSectors: [1, 2],
                                                    dataArea: [0x42, 0x01, 0x00] + TLVWalker.encode(.ndefMessage, value: poster.encoded())! + [0xFE])
        #expect(try await MifareClassicTag.readNDEF(over: InProcessTransport(VirtualMifareClassic(size: .classic1K, image: reserved)), uid: uid, size: .classic1K).message == poster)
        // Tag 0xFF is no TLV.
        let ff = MifareClassicImage.makeImage(size: .classic1K, uid: uid, ndefSectors: [1, 2], dataArea: [0xFF, 0x01, 0x00])
        await #expect(throws: TagReadError.memory(.reservedTag(offset: 0, tag: 0xFF))) {
            try await MifareClassicTag.readNDEF(over: InProcessTransport(VirtualMifareClassic(size: .classic1K, image: ff)), uid: uid, size: .classic1K)
        }
        // A message spanning a gap in the NDEF sectors (1 and 3) reads across it, trailers skipped.
        let long = message(encodedSize: 80)
        let tlv = TLVWalker.encode(.ndefMessage, value: long.encoded())! + [0xFE]
        let gapped = MifareClassicImage.makeImage(size: .classic1K, uid: uid, ndefSectors: [1, 3], dataArea: tlv)
        let reading = try await MifareClassicTag.readNDEF(over: InProcessTransport(VirtualMifareClassic(size: .classic1K, image: gapped)), uid: uid, size: .classic1K)
        #expect(reading.message == long)
        #expect(reading.capacity == 96 - 2)
        // Only NULL TLVs up to the end: formatted, empty.
        let nulls = MifareClassicImage.makeImage(size: .classic1K, uid: uid, ndefSectors: [1], dataArea: [])
        #expect(try await MifareClassicTag.readNDEF(over: InProcessTransport(VirtualMifareClassic(size: .classic1K, image: nulls)), uid: uid, size: .classic1K).content == .empty)
    }

    @Test func movedAwayMidReadIsNotAPartialMessage() async throws {
        let long = message(encodedSize: 300)
        let chip = try VirtualMifareClassic(size: .classic1K, message: long, presence: FieldPresence(removeAfterCommands: 9))
        await #expect(throws: TagReadError.objectRemoved(roundTrips: 10)) {
            try await MifareClassicTag.readNDEF(over: InProcessTransport(chip), uid: MifareClassicImage.defaultUID, size: .classic1K)
        }
    }
}

extension VirtualReply {
    var frameCount: Int? { if case .frame(let bytes) = self { bytes.count } else { nil } }
}
