import NDEF
import NFCSim
import NFCTags
import TestSupport
import Testing

/// The simulated Type 4 object's status words, against the Type 4 Tag specification and ISO 7816-4.
@Suite struct VirtualType4TagTests {
    func status(_ tag: inout VirtualType4Tag, _ apdu: String) -> StatusWord? {
        guard case .frame(let bytes) = tag.respond(to: hex(apdu)) else { return nil }
        return ResponseAPDU(bytes)?.status
    }

    @Test func statusWords() throws {
        var tag = try VirtualType4Tag(message: poster)
        #expect(status(&tag, "00 b0 0000 02") == .noCurrentFile)
        #expect(status(&tag, "00 a4 00 0c 02 e103") == .fileNotFound)          // no application selected yet
        #expect(status(&tag, "00 a4 04 00 07 d2760000850100 00") == .fileNotFound)   // v1 AID on a v2 object
        #expect(status(&tag, "00 a4 04 00 07 d2760000850101 00") == .success)
        #expect(status(&tag, "00 a4 00 00 02 e103") == .wrongParameters)        // v2 wants P2 0C
        #expect(status(&tag, "00 a4 00 0c 02 e105") == .fileNotFound)
        #expect(status(&tag, "00 a4 00 0c 02 e103") == .success)
        #expect(status(&tag, "00 b0 0000 0f") == .success)
        #expect(status(&tag, "00 b0 000f 01") == .wrongOffset)                 // CC file is 15 bytes
        #expect(status(&tag, "00 b0 000e 02") == .endOfFile)
        #expect(status(&tag, "00 b0 0000 00") == .wrongLength)                 // Le 256 over MLe FF
        #expect(status(&tag, "00 b0 8100 01") == .wrongParameters)             // short EF addressing
        #expect(status(&tag, "00 d6 0000 01 00") == .securityStatusNotSatisfied)     // the CC file is not writable
        #expect(status(&tag, "00 c0 0000 01") == .instructionNotSupported)
        #expect(status(&tag, "80 b0 0000 01") == .classNotSupported)
        #expect(status(&tag, "00 b0") == .wrongLength)
        #expect(status(&tag, "00 b0 0000 00 0100") == .wrongLength)            // extended APDU not accepted
        #expect(tag.reactivate() == true)
        #expect(status(&tag, "00 b0 0000 01") == .noCurrentFile)               // RATS again: nothing selected
    }

    @Test func updateBinaryHonoursOffsetsBoundsAndWriteAccess() throws {
        var tag = try VirtualType4Tag(message: poster, fileSize: 0x40)
        #expect(status(&tag, "00 d6 0000 02 0000") == .noCurrentFile)
        _ = tag.respond(to: hex("00 a4 04 00 07 d2760000850101 00"))
        _ = tag.respond(to: hex("00 a4 00 0c 02 e104"))
        #expect(status(&tag, "00 d6 0002 03 d10101") == .success)
        #expect(tag.files[VirtualType4Tag.ndefFileID]?[2..<5] == [0xD1, 0x01, 0x01])
        #expect(status(&tag, "00 d6 003e 02 aabb") == .success)                // the last two bytes
        #expect(status(&tag, "00 d6 003f 02 aabb") == .wrongOffset)            // one past the end
        #expect(status(&tag, "00 d6 0040 01 aa") == .wrongOffset)
        #expect(status(&tag, "00 d6 8100 01 aa") == .wrongParameters)          // short EF addressing
        #expect(status(&tag, "00 d6 0000 02 0000 02") == .wrongLength)          // Le on UPDATE
        #expect(tag.files[VirtualType4Tag.ndefFileID]?.count == 0x40)

        var cc = VirtualType4Tag.capabilityContainer(mapping: .version2, maxReadLength: 0xFF, fileSize: 0x40)
        cc[cc.count - 1] = 0xFF
        var readOnly = VirtualType4Tag(mapping: .version2, capabilityContainer: cc,
                                       ndefFile: [UInt8](repeating: 0, count: 0x40), maxReadLength: 0xFF)
        _ = readOnly.respond(to: hex("00 a4 04 00 07 d2760000850101 00"))
        _ = readOnly.respond(to: hex("00 a4 00 0c 02 e104"))
        #expect(status(&readOnly, "00 d6 0000 02 0001") == .securityStatusNotSatisfied)
        #expect(readOnly.files[VirtualType4Tag.ndefFileID]?.prefix(2) == [0x00, 0x00])
    }

    @Test func readBinaryReturnsTheFile() throws {
        var tag = try VirtualType4Tag(message: poster)
        _ = tag.respond(to: hex("00 a4 04 00 07 d2760000850101 00"))
        _ = tag.respond(to: hex("00 a4 00 0c 02 e104"))
        let length = poster.encoded().count
        #expect(tag.respond(to: hex("00 b0 0000 02")) == .frame([0x00, UInt8(length), 0x90, 0x00]))
        #expect(tag.respond(to: [0x00, 0xB0, 0x00, 0x02, UInt8(length)]) == .frame(poster.encoded() + [0x90, 0x00]))
    }

    @Test func commandAPDUForms() {
        let cases: [(CommandAPDU, String)] = [
            (CommandAPDU(ins: 0xB0, p1: 0, p2: 2, le: 0x0F), "00 b0 0002 0f"),
            (CommandAPDU(ins: 0xB0, p1: 0, p2: 2, le: 0x100), "00 b0 0002 00"),
            (CommandAPDU(ins: 0xB0, p1: 0, p2: 2, le: 0x101), "00 b0 0002 00 0101"),
            (CommandAPDU(ins: 0xB0, p1: 0, p2: 2, le: 0x10000), "00 b0 0002 00 0000"),
            (CommandAPDU(ins: 0xA4, p1: 0, p2: 0x0C, data: [0xE1, 0x03]), "00 a4 000c 02 e103"),
            (CommandAPDU(ins: 0xA4, p1: 4, p2: 0, data: Type4Tag.applicationV2, le: 0x100), "00 a4 0400 07 d2760000850101 00"),
            (CommandAPDU(ins: 0xD6, p1: 0, p2: 0, data: [UInt8](repeating: 7, count: 300), le: 2),
             "00 d6 0000 00 012c" + String(repeating: "07", count: 300) + "0002"),
        ]
        for (command, text) in cases {
            #expect(command.bytes == hex(text))
            #expect(CommandAPDU(hex(text)) == command)
        }
        #expect(CommandAPDU(hex("00 b0 00")) == nil)
        #expect(CommandAPDU(hex("00 a4 0000 05 e103")) == nil)        // Lc longer than the data
    }
}
