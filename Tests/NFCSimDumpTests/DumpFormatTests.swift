import NDEF
import NFCSim
import NFCTags
import Testing
import TestSupport

/// The dump layer: each format's files, written here from images the tests build, become the
/// chip they describe (geometry, GET_VERSION, UID, ATQA/SAK, keys); hostile files get one error
/// naming the line or JSON path, never a crash.
struct DumpFormatTests {
    static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
    static let message = NDEFMessage(URIRecord(uri: "https://example.com/poster").record())

    static func image(_ product: Type2Product) throws -> [UInt8] {
        try Type2MemoryImage.make(product: product, uid: uid,
                                  dataArea: Type2MemoryImage.dataArea(holding: message, capacity: product.ccDataAreaSize))
    }

    static func parse(_ text: String, raw: RawChip? = nil) throws(DumpError) -> Dump {
        try DumpFile.parse(Array(text.utf8), raw: raw)
    }

    static func type2(_ dump: Dump) -> Type2Dump? {
        if case .type2(let chip) = dump.chip { chip } else { nil }
    }

    static func classic(_ dump: Dump) -> ClassicDump? {
        if case .classic(let chip) = dump.chip { chip } else { nil }
    }

    /// The error a hostile file gets, as nfcsim prints it.
    static func error(_ text: String, raw: RawChip? = nil) -> String {
        do { _ = try parse(text, raw: raw); return "no error" } catch { return error.description }
    }

    // MARK: Flipper Zero

    @Test func flipperVersion2NTAG215IsTheChipItNames() throws {
        let memory = try Self.image(.ntag215)
        let dump = try Self.parse(DumpFiles.flipperType2(version: 2, chip: "NTAG215", memory: memory, getVersion: Type2Product.ntag215.version))
        let chip = try #require(Self.type2(dump))
        #expect(dump.format == .flipper)
        #expect(chip.product.name == "NTAG215")
        #expect(chip.product.totalPages == 135)
        #expect(chip.atqa == [0x00, 0x44], "version 2 writes 44 00")
        #expect(chip.memory == memory)
        var tag = try chip.virtualTag()
        #expect(tag.respond(to: [0x60]) == .frame(Type2Product.ntag215.version!))
        #expect(tag.uid == Self.uid)
    }

    @Test func ultralightEV1AnswersGetVersionReadSigAndReadCnt() throws {
        var product = Type2Product.ultralightEV1_48
        product.ccDataAreaSize = 48
        let memory = try Self.image(product)
        let dump = try Self.parse(DumpFiles.flipperType2(chip: "Mifare Ultralight 11", memory: memory, getVersion: product.version))
        let chip = try #require(Self.type2(dump))
        #expect(chip.product.totalPages == 20)
        #expect(Type2Product.identify(version: chip.product.version ?? []) == .ultralightEV1_48)
        var tag = try chip.virtualTag()
        #expect(tag.respond(to: [0x3C, 0x00]) == .frame([UInt8](repeating: 0xA5, count: 32)))
        #expect(tag.respond(to: [0x39, 0x02]) == .frame([0x02, 0x00, 0x00]))
        #expect(tag.respond(to: [0x3A, 0x00, 0x13]) == .frame(tag.memoryAsRead))
    }

    @Test func chipsWithoutGetVersionKeepTheirPageCount() throws {
        // An Ultralight C (48 pages) and an NTAG203 (42): no GET_VERSION, the original Ultralight's silence.
        for (name, pages) in [("Mifare Ultralight C", 48), ("NTAG203", 42)] {
            var memory = try Self.image(.ultralight)
            memory += [UInt8](repeating: 0, count: pages * 4 - memory.count)
            let dump = try Self.parse(DumpFiles.flipperType2(version: name == "NTAG203" ? 2 : 4, chip: name, memory: memory, getVersion: nil))
            let chip = try #require(Self.type2(dump))
            #expect(chip.product.totalPages == pages)
            #expect(chip.product.name == (name == "NTAG203" ? "NTAG203" : "MIFARE Ultralight C"))
            var tag = try chip.virtualTag()
            #expect(tag.respond(to: [0x60]) == .silence)
        }
    }

    @Test func pagesTheReaderDidNotReadAreZerosAndSaidSo() throws {
        let memory = try Self.image(.ntag213)
        let dump = try Self.parse(DumpFiles.flipperType2(chip: "NTAG213", memory: memory, getVersion: Type2Product.ntag213.version, pagesRead: 20))
        let chip = try #require(Self.type2(dump))
        #expect(chip.memory.count == 180)
        #expect(chip.memory[80...].allSatisfy { $0 == 0 })
        #expect(dump.notes == ["pages 20 to 44 were not read (protected); the chip refuses to read them"])
        // The chip refuses what the reader could not read, as an NTAG with AUTH0 20 does.
        var tag = try chip.virtualTag()
        #expect(tag.respond(to: [0x30, 16]) == .frame(Array(memory[64..<80])))
        #expect(tag.respond(to: [0x30, 20]) == .nak(0x0))
        _ = tag.reactivate()
        #expect(tag.respond(to: [0x3A, 0, 19]) == .frame(Array(memory[0..<80])))
        #expect(tag.respond(to: [0x3A, 0, 20]) == .nak(0x0))
    }

    @Test func classicSectorWithoutItsKeyRefusesAuthentication() throws {
        let uid: [UInt8] = [0x5C, 0x2A, 0x91, 0xE3]
        let memory = try MifareClassicImage.make(size: .classic1K, uid: uid, message: Self.message)
        let dump = try Self.parse(DumpFiles.flipperClassic(size: .classic1K, uid: uid, memory: memory, unread: [15]))
        let chip = try #require(Self.classic(dump))
        #expect(chip.atqa == [0x00, 0x04])
        #expect(chip.sak == 0x08)
        #expect(dump.notes == ["1 of 16 sectors have no known key; they refuse authentication as the chip would"])
        var tag = try chip.virtualChip()
        #expect(tag.respond(to: MifareClassicCommand.authenticate(block: 4, key: MifareClassicNDEF.ndefKeyA, keyB: false, uid: uid)) == .frame([]))
        #expect(tag.respond(to: [MifareClassicCommand.read, 4]) == .frame(Array(memory[64..<80])))
        _ = tag.reactivate()
        #expect(tag.respond(to: MifareClassicCommand.authenticate(block: 60, key: MifareClassicNDEF.ndefKeyA, keyB: false, uid: uid)) == .nak(0x4))
    }

    @Test func accessBitsDecideWhatAKeyReads() throws {
        let uid: [UInt8] = [0x5C, 0x2A, 0x91, 0xE3]
        var memory = try MifareClassicImage.make(size: .classic1K, uid: uid, message: Self.message)
        // Sector 1: block 4 C1C2C3 = 111 (never readable); key B FFFFFFFFFFFF not readable (trailer 011).
        // byte 6 = ~C2|~C1, byte 7 = C1|~C3, byte 8 = C3|C2 for groups 3..0.
        let c1: UInt8 = 0b0001, c2: UInt8 = 0b1001, c3: UInt8 = 0b1001
        memory.replaceSubrange((7 * 16 + 6)..<(7 * 16 + 9), with: [(~c2 & 0x0F) << 4 | (~c1 & 0x0F), c1 << 4 | (~c3 & 0x0F), c3 << 4 | c2])
        var tag = try VirtualMifareClassic(size: .classic1K, uid: uid, image: memory)
        #expect(tag.respond(to: MifareClassicCommand.authenticate(block: 4, key: MifareClassicNDEF.ndefKeyA, keyB: false, uid: uid)) == .frame([]))
        #expect(tag.respond(to: [MifareClassicCommand.read, 5]) == .frame(Array(memory[80..<96])))
        #expect(tag.respond(to: [MifareClassicCommand.read, 4]) == .nak(0x4))
    }

    @Test func flipperISO15693HasTheDumpsGeometry() throws {
        let uid: [UInt8] = [0xE0, 0x04, 0x01, 0x08, 0x11, 0x22, 0x33, 0x44]
        let memory = [0xE1, 0x40, 0x0F, 0x01, 0x03, 0x00, 0xFE] + [UInt8](repeating: 0, count: 128 - 7)
        let dump = try Self.parse(DumpFiles.flipperType5(uid: uid, blockSize: 8, memory: memory))
        guard case .type5(let chip) = dump.chip else { Issue.record("not a Type 5: \(dump.chip)"); return }
        #expect(chip.product.blockCount == 16)
        #expect(chip.product.blockSize == 8)
        var tag = try chip.virtualTag()
        #expect(tag.respond(to: [0x02, 0x20, 0x01]) == .frame([0x00] + Array(memory[8..<16])))
        #expect(tag.respond(to: [0x02, 0x2B]) == .frame([0x00, 0x0F] + uid.reversed() + [0x00, 0x00, 0x0F, 0x07, 0x01]))
    }

    @Test func flipperFeliCaLiteSIsItsNDEFService() throws {
        let source = try VirtualType3Tag(message: Self.message)
        let dump = try Self.parse(DumpFiles.flipperFeliCa(idm: source.idm, pmm: source.pmm, blocks: source.memory))
        guard case .felica(let chip) = dump.chip else { Issue.record("not a FeliCa: \(dump.chip)"); return }
        #expect(chip.idm == source.idm)
        #expect(chip.blocks == source.memory)
    }

    // MARK: Proxmark3, Metrodroid, raw

    @Test func proxmarkUltralightAndClassic() throws {
        let memory = try Self.image(.ntag213)
        let mfu = try #require(Self.type2(try Self.parse(DumpFiles.proxmarkUltralight(memory: memory, getVersion: Type2Product.ntag213.version!))))
        #expect(mfu.product.name == "NTAG213")
        #expect(mfu.memory == memory)
        let uid: [UInt8] = [0x5C, 0x2A, 0x91, 0xE3]
        let classicMemory = try MifareClassicImage.make(size: .classic4K, uid: uid, message: Self.message)
        let classic = try #require(Self.classic(try Self.parse(DumpFiles.proxmarkClassic(size: .classic4K, uid: uid, memory: classicMemory))))
        #expect(classic.size == .classic4K)
        #expect(classic.atqa == [0x00, 0x02])
        #expect(classic.memory == classicMemory)
        #expect(classic.unknownKeys.isEmpty)
    }

    @Test func metrodroidUltralightClassicAndFeliCa() throws {
        var product = Type2Product.ultralightEV1_128
        product.ccDataAreaSize = 128
        let memory = try Self.image(product)
        let ul = try #require(Self.type2(try Self.parse(DumpFiles.metrodroidUltralight(memory: memory, model: "EV1_MF0UL21"))))
        #expect(Type2Product.identify(version: ul.product.version ?? []) == .ultralightEV1_128)
        let uid: [UInt8] = [0x5C, 0x2A, 0x91, 0xE3]
        let classicMemory = try MifareClassicImage.make(size: .classic1K, uid: uid, message: Self.message)
        let classic = try #require(Self.classic(try Self.parse(DumpFiles.metrodroidClassic(size: .classic1K, uid: uid, memory: classicMemory))))
        // Key A from Metrodroid's field; key B, read as zeros, is unknown.
        #expect(Array(classic.memory[(7 * 16)..<(7 * 16 + 6)]) == MifareClassicNDEF.ndefKeyA)
        #expect(classic.unknownKeys == Set((0..<16).map { MifareClassicKeySlot(sector: $0, keyB: true) }))
        let felica = try VirtualType3Tag(message: Self.message)
        let dump = try Self.parse(DumpFiles.metrodroidFeliCa(idm: felica.idm, pmm: felica.pmm, blocks: felica.memory))
        guard case .felica(let chip) = dump.chip else { Issue.record("not a FeliCa"); return }
        #expect(chip.blocks == felica.memory)
    }

    @Test func rawImagesTakeTheirChipFromType() throws {
        let type2 = try DumpFile.parse(Array(try Self.image(.ntag213).prefix(100)), raw: .type2(.ntag213))
        #expect(Self.type2(type2)?.memory.count == 180)
        #expect(type2.notes == ["the file has 100 bytes, the NTAG213's memory 180; the other 80 are zeros"])
        let classic = try DumpFile.parse(try MifareClassicImage.make(size: .mini, message: Self.message), raw: .classic)
        #expect(Self.classic(classic)?.size == .mini)
        let type5 = try DumpFile.parse([0xE1, 0x40, 0x27, 0x01], raw: .type5(.icodeSLIX2))
        guard case .type5(let chip) = type5.chip else { Issue.record("not a Type 5"); return }
        #expect(chip.memory.count == 320)
        #expect(throws: DumpError.self) { try DumpFile.parse([UInt8](repeating: 0, count: 1000), raw: .classic) }
        #expect(throws: DumpError.self) { try DumpFile.parse([UInt8](repeating: 0, count: 181), raw: .type2(.ntag213)) }
    }

    // MARK: Hostile files

    static let flipperHead = "Filetype: Flipper NFC device\nVersion: 4\nDevice type: NTAG/Ultralight\nUID: 04 A1 B2 C3 D4 E5 F6\n"

    @Test func hostileFlipperFilesGetOneErrorNamingTheLine() {
        let pages = (0..<4).map { "Page \($0): 00 00 00 00\n" }.joined()
        #expect(Self.error("Filetype: Flipper NFC device\nVersion: 4\n") == "the file: no 'Device type:' line; save the dump again from the reader or app that made it")
        #expect(Self.error(Self.flipperHead + pages + "Page 4: 00 00 00\n") == "line 9: Page 4 has 3 bytes, not 4; save the dump again from the reader or app that made it")
        #expect(Self.error(Self.flipperHead + pages + "Page 2: 00 00 00 00\n") == "line 9: Page 2 appears twice (lines 7 and 9); save the dump again from the reader or app that made it")
        #expect(Self.error(Self.flipperHead + "Page 300: 00 00 00 00\n").hasPrefix("line 5: Page 300: no chip nfcsim presents has page 300"))
        #expect(Self.error(Self.flipperHead + pages + "Page 4: 00 ZZ 00 00\n").hasPrefix("line 9: Page 4: 'ZZ' is not a byte in hex"))
        #expect(Self.error(Self.flipperHead + "Pages total: 100000\n" + pages).hasPrefix("line 5: Pages total: '100000' is not a number from 0 to 256"))
        #expect(Self.error(Self.flipperHead + "Pages total: 2\n" + pages).hasPrefix("line 5: 2 pages; a Type 2 chip has at least 4"))
        #expect(Self.error(Self.flipperHead + "Pages total: 4\n" + pages + "Page 4: 00 00 00 00\n").hasPrefix("line 10: Page 4 is past the last of the chip's 4"))
        #expect(Self.error("Filetype: Flipper NFC device\nVersion: 9\nDevice type: NTAG213\n").hasPrefix("line 2: format version 9 is newer than nfcsim reads (2–4)"))
        #expect(Self.error("Filetype: Flipper NFC device\nVersion: 1\nDevice type: NTAG213\n").hasPrefix("line 2: format version 1 is older"))
        #expect(Self.error("Filetype: Flipper NFC device\nVersion: 4\nDevice type: Mifare DESFire\n").hasPrefix("line 3: Device type 'Mifare DESFire' is not one nfcsim presents"))
        #expect(Self.error("Filetype: Flipper NFC device\nVersion: 4\nDevice type: SLIX\nUID: E0 04 01 08 11 22 33 44\nBlock Count: 4\nBlock Size: 04\nData Content: 00 00\n")
                    .hasPrefix("line 7: Data Content has 2 bytes, Block Count × Block Size is 16"))
        // Escapes in the file never reach the terminal through the message.
        let escaped = Self.error(Self.flipperHead + "Page 0: \u{1B}]0;x\u{07} 00 00 00\n")
        #expect(!escaped.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(escaped)")
    }

    @Test func hostileJSONAndRawFilesGetOneErrorNamingThePlace() {
        #expect(Self.error(String(repeating: "[", count: 100_000)).hasPrefix("the file: is a JSON array"))
        #expect(Self.error("{" + String(repeating: "\"a\":{", count: 100) + "}").hasPrefix("byte 160: not valid JSON: nested more than 32 deep"))
        #expect(Self.error("{\"Created\": \"proxmark3\", \"FileType\": \"mfu\", \"blocks\": {\"0\": \"0011\"").hasPrefix("byte 66: not valid JSON: the file ends inside an object"))
        #expect(Self.error("{\"FileType\": \"mfu\", \"blocks\": {\"0\": \"00112233\", \"1\": \"0011XX33\"}}").hasPrefix("$.blocks.1: '0011XX33' is not hex (not a hex digit at character 4)"))
        #expect(Self.error("{\"FileType\": \"mfu\", \"blocks\": {\"0\": \"00112233\", \"999\": \"00112233\"}}").hasPrefix("$.blocks.999: is not a block number from 0 to 255"))
        #expect(Self.error("{\"tagId\": \"0102\", \"mifareClassic\": {\"sectors\": [{}, {}]}}").hasPrefix("$.mifareClassic.sectors: has 2 sectors"))
        #expect(Self.error("\u{00}\u{01}binary") == "the file: is not a Flipper .nfc file or a Proxmark3 or Metrodroid JSON dump; for a raw memory image (.bin, .mfd) say which chip it is with --type")
        #expect(throws: DumpError.self) { try DumpFile.parse([UInt8](repeating: 0x41, count: DumpLimits.fileBytes + 1), raw: .classic) }
    }
}
