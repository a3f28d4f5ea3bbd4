import NDEF
import TestSupport
import Testing

@Suite struct TLVTests {
    @Test func typicalType2DataArea() throws {
        // NULL, Lock Control, Memory Control, NDEF (16 bytes), Proprietary, Terminator, then junk.
        let ndef = hex("d1010c55036578616d706c652e636f6d")
        let memory = hex("00 01 03 a0 10 44 02 03 b0 08 01") + [0x03, 0x10] + ndef + hex("fd 02 abcd fe 99 99")
        let blocks = try TLVWalker.blocks(in: memory)
        // The walk ends with the message: what follows it is not read.
        #expect(blocks.map(\.tag) == [.null, .lockControl, .memoryControl, .ndefMessage])
        #expect(try TLVWalker.blocks(in: hex("fd 02 abcd fe 03 05")).map(\.tag) == [.proprietary, .terminator])
        #expect(blocks[3].offset == 11)
        #expect(blocks[3].valueRange == 13..<29)
        #expect(try TLVWalker.firstNDEFMessage(in: memory) == ndef)

        let lock = try MemoryControl(value: memory[blocks[1].valueRange])
        #expect(lock.bytesPerPage == 16)
        #expect(lock.byteAddress == 10 * 16 + 0)
        #expect(lock.size == 16)
        #expect(lock.bytesLockedPerLockBit == 16)
        let reserved = try MemoryControl(value: memory[blocks[2].valueRange])
        #expect(reserved.byteAddress == 11 * 2 + 0)
        #expect(reserved.size == 8)
        #expect(reserved.bytesPerPage == 2)
    }

    @Test func threeByteLengthForm() throws {
        let value = [UInt8](repeating: 0xAA, count: 300)
        let encoded = try #require(TLVWalker.encode(.ndefMessage, value: value))
        #expect(Array(encoded.prefix(4)) == hex("03 ff 012c"))
        #expect(try TLVWalker.firstNDEFMessage(in: encoded + [0xFE]) == value)
        #expect(TLVWalker.encode(.ndefMessage, value: [1, 2]) == hex("03 02 0102"))
        #expect(TLVWalker.encode(.ndefMessage, value: [UInt8](repeating: 0, count: 0xFFFF)) == nil)
    }

    @Test func emptyNDEFTLVMeansFormattedButEmpty() throws {
        #expect(try TLVWalker.firstNDEFMessage(in: hex("03 00 fe")) == [])
        #expect(try TLVWalker.firstNDEFMessage(in: hex("00 00 fe 03 05")) == nil)     // after the terminator: not read
        #expect(try TLVWalker.firstNDEFMessage(in: []) == nil)
    }

    /// Issue 12: an NDEF TLV followed by leftover bytes and no Terminator (a reserved tag, a
    /// length past the end) is a good message.
    @Test func leftoversAfterTheMessageAreNotRead() throws {
        let ndef = hex("d1010c55036578616d706c652e636f6d")
        for leftovers in [hex("8d 41 00 72"), hex("03 ff"), hex("01 07 00"), hex("03 ff ffff"), hex("fd 40")] {
            let memory = [0x03, 0x10] + ndef + leftovers
            #expect(try TLVWalker.blocks(in: memory).map(\.tag) == [.ndefMessage])
            #expect(try TLVWalker.firstNDEFMessage(in: memory) == ndef)
        }
    }

    @Test func truncationSaysHowFarToRead() {
        #expect(tlvError { _ = try TLVWalker.blocks(in: hex("03")) } == .truncated(offset: 0, needed: 2))
        #expect(tlvError { _ = try TLVWalker.blocks(in: hex("00 03 ff 01")) } == .truncated(offset: 1, needed: 5))
        #expect(tlvError { _ = try TLVWalker.blocks(in: hex("03 10 d1")) } == .truncated(offset: 0, needed: 18))
        #expect(tlvError { _ = try TLVWalker.blocks(in: hex("03 ff 0100") + [UInt8](repeating: 0, count: 10)) } == .truncated(offset: 0, needed: 260))
    }

    @Test func malformedTLVs() {
        #expect(tlvError { _ = try TLVWalker.blocks(in: hex("03 ff 00fe")) } == .invalidLength(offset: 0, value: 0xFE))
        #expect(tlvError { _ = try TLVWalker.blocks(in: hex("03 ff ffff")) } == .invalidLength(offset: 0, value: 0xFFFF))
        #expect(tlvError { _ = try TLVWalker.blocks(in: hex("01 02 0000")) } == .invalidControlLength(offset: 0, length: 2))
        #expect(tlvError { _ = try TLVWalker.blocks(in: hex("00 ff 00")) } == .reservedTag(offset: 1, tag: 0xFF))
        #expect(TLVError.truncated(offset: 0, needed: 18).description.contains("18 bytes needed"))
    }

    /// Issue 23: a TLV with a tag the specifications reserve (0x04–0xFC) is walked past by its
    /// length, as nfcpy and the Type 2 read procedure do, not refused.
    @Test func reservedTagsAreSkippedByTheirLength() throws {
        let ndef = hex("d1010c55036578616d706c652e636f6d")
        for tag: UInt8 in [0x04, 0x42, 0xFC] {
            let memory = [0x00, tag, 0x02, 0xAA, 0xBB, 0x03, 0x10] + ndef + [0xFE]
            #expect(try TLVWalker.blocks(in: memory).map(\.tag) == [.null, .reserved(tag), .ndefMessage])
            #expect(try TLVWalker.firstNDEFMessage(in: memory) == ndef)
        }
        // Its 3-byte length form too, and one cut short says how far to read.
        #expect(try TLVWalker.firstNDEFMessage(in: hex("10 ff 0100") + [UInt8](repeating: 0, count: 256) + [0x03, 0x10] + ndef) == ndef)
        #expect(tlvError { _ = try TLVWalker.blocks(in: hex("42 05 00")) } == .truncated(offset: 0, needed: 7))
    }
}

@Suite struct CapabilityContainerTests {
    @Test func type2() throws {
        let cc = try Type2CapabilityContainer(hex("e1 10 6d 00"))      // NTAG216: 872 bytes
        #expect(cc.dataAreaSize == 872)
        #expect(cc.majorVersion == 1 && cc.minorVersion == 0)
        #expect(cc.read == .granted && cc.write == .granted)
        #expect(try Type2CapabilityContainer(hex("e1 10 12 0f")).write == .denied)
        #expect(ccError { _ = try Type2CapabilityContainer(hex("00 00 00 00")) } == .notNDEF(magic: 0))
        #expect(ccError { _ = try Type2CapabilityContainer(hex("e1 20 12 00")) } == .unsupportedVersion(major: 2, minor: 0))
        #expect(ccError { _ = try Type2CapabilityContainer(hex("e1 10")) } == .tooShort(needed: 4, available: 2))
    }

    @Test func type4Version2() throws {
        let cc = try Type4CapabilityContainer(hex("000f 20 003b 0034 04 06 e104 0800 00 00"))
        #expect(cc.length == 15)
        #expect(cc.majorVersion == 2)
        #expect(cc.maxReadLength == 0x3B)
        #expect(cc.maxWriteLength == 0x34)
        #expect(cc.ndefFileID == 0xE104)
        #expect(cc.maxNDEFSize == 0x0800)
        #expect(cc.extended == false)
        #expect(cc.read == .granted && cc.write == .granted)
    }

    @Test func type4Version3Extended() throws {
        let cc = try Type4CapabilityContainer(hex("0011 30 00ff 00ff 06 08 e104 00010000 00 ff"))
        #expect(cc.extended)
        #expect(cc.maxNDEFSize == 0x10000)
        #expect(cc.write == .denied)
    }

    @Test func type4Mapping1() throws {
        // The v1 NDEF application's CC (mapping 1.0) has the 2.0 layout.
        let cc = try Type4CapabilityContainer(hex("000f 10 003b 0034 04 06 e104 0800 00 00"))
        #expect(cc.majorVersion == 1)
        #expect(cc.ndefFileID == 0xE104)
        #expect(cc.maxReadLength == 0x3B)
    }

    @Test func type4Malformed() {
        #expect(ccError { _ = try Type4CapabilityContainer(hex("000f 20 003b 0034 04 06 e104 08")) } == .tooShort(needed: 15, available: 12))
        #expect(ccError { _ = try Type4CapabilityContainer(hex("000f 40 003b 0034 04 06 e104 0800 00 00")) } == .unsupportedVersion(major: 4, minor: 0))
        #expect(ccError { _ = try Type4CapabilityContainer(hex("000f 20 000e 0034 04 06 e104 0800 00 00")) } == .invalidField("MLe", value: 0x0E, offset: 3))
        #expect(ccError { _ = try Type4CapabilityContainer(hex("000f 20 003b 0034 05 06 e104 0800 00 00")) } == .missingNDEFFileControl)
        #expect(ccError { _ = try Type4CapabilityContainer(hex("000f 20 003b 0034 04 06 e103 0800 00 00")) } == .invalidField("NDEF file ID", value: 0xE103, offset: 9))
        #expect(ccError { _ = try Type4CapabilityContainer(hex("0020 20 003b 0034 04 06 e104 0800 00 00")) } == .invalidField("CCLEN", value: 0x20, offset: 0))
    }

    @Test func type5() throws {
        let small = try Type5CapabilityContainer(hex("e1 40 40 01"))
        #expect(small.length == 4 && small.dataAreaSize == 512)
        #expect(small.supportsReadMultipleBlocks && !small.twoByteAddressing)
        #expect(small.read == .granted && small.write == .granted)
        let large = try Type5CapabilityContainer(hex("e2 43 00 01 00 00 03 e8"))
        #expect(large.length == 8 && large.dataAreaSize == 8000 && large.twoByteAddressing)
        #expect(large.write == .denied)
        #expect(ccError { _ = try Type5CapabilityContainer(hex("e1 40 00 01")) } == .tooShort(needed: 8, available: 4))
        #expect(ccError { _ = try Type5CapabilityContainer(hex("e3 40 40 01")) } == .notNDEF(magic: 0xE3))
        #expect(ccError { _ = try Type5CapabilityContainer(hex("e1 80 40 01")) } == .unsupportedVersion(major: 2, minor: 0))
    }
}

/// Issue 23: the data area of Type 1 and 2 memory around the areas control TLVs reserve.
@Suite struct TLVDataAreaTests {
    let ndef = hex("d1010c55036578616d706c652e636f6d")

    @Test func anAreaBetweenTLVsAndOneInsideTheMessageAreSkipped() throws {
        // Memory from byte 0: Lock Control for 2 bytes at byte 5 (page 1 byte 1 of 4-byte pages),
        // Memory Control for 4 bytes at byte 14 (page 3 byte 2), inside the NDEF TLV at byte 12.
        var memory = hex("01 03 11 10 42") + hex("ff ff") + hex("02 03 32 04 02")
        memory += [0x03, UInt8(ndef.count)] + ndef + [0xFE]
        memory.insert(contentsOf: [0xEE, 0xEE, 0xEE, 0xEE], at: 14)
        let area = try TLVDataArea(memory: memory, bounds: 0..<memory.count)
        #expect(area.reserved == [5..<7, 14..<18])
        #expect(area.capacity == memory.count - 6)
        #expect(area.message == ndef)
        #expect(area.next == .done(ndef))
        #expect(!area.addresses.contains { (5..<7).contains($0) || (14..<18).contains($0) })
    }

    @Test func whatToReadNext() throws {
        let memory = hex("02 03 30 04 02") + [0x03, UInt8(ndef.count)] + ndef + [0xFE]
        // Read as far as byte 10: the message TLV needs its value, whose addresses skip 12..<16.
        let part = try TLVDataArea(memory: Array(memory.prefix(10)), bounds: 0..<64)
        guard case .read(let addresses) = part.next else { Issue.record("\(part.next)"); return }
        #expect(addresses.first == 10 && !addresses.contains(12) && addresses.last == 5 + 2 + ndef.count + 4 - 1)
        // The TLVs end where the read ends: read on from the next data byte.
        #expect(try TLVDataArea(memory: hex("00 00"), base: 16, bounds: 16..<64).next == .readOn(18))
        // A length past the data area.
        #expect(try TLVDataArea(memory: hex("03 40"), bounds: 0..<40).next == .pastEnd(needed: 66, capacity: 40))
        // Only NULLs to the end, or a Terminator: no message.
        #expect(try TLVDataArea(memory: hex("00 00 00 00"), bounds: 0..<4).next == .done([]))
        #expect(try TLVDataArea(memory: hex("fe"), bounds: 0..<64).next == .done([]))
    }

    @Test func hostileControlTLVs() throws {
        // An area over the control TLV itself, or the TLVs before it.
        #expect(tlvError { _ = try TLVDataArea(memory: hex("00 02 03 02 04 02 fe"), bounds: 0..<7) } == .reservedAreaOverTLVs(byteAddress: 2))
        // Each control TLV reserving one byte ahead of the next: at most 16 areas are walked.
        var chain: [UInt8] = []
        for index in 0..<20 { chain += [0x02, 0x03, UInt8(index * 6 + 5), 0x01, 0x04, 0xEE] }   // 16-byte pages: byte 0 is the address
        #expect(tlvError { _ = try TLVDataArea(memory: chain, bounds: 0..<chain.count) } == .tooManyReservedAreas(17))
        // The fixed areas count as reserved from the start (Type 1's blocks D and E).
        #expect(try TLVDataArea(memory: hex("00 00 ff ff 00 fe"), bounds: 0..<6, fixed: [2..<4]).next == .done([]))
    }
}
