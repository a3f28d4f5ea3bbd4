import Foundation
import NDEF
@testable import NFCReaders
import NFCSim
import NFCTags
import PCSC
import Testing
import TestSupport

/// MIFARE Classic (LOAD KEYS + GENERAL AUTHENTICATE + READ BINARY) and Type 5 (READ BINARY of
/// ISO 15693 blocks) through the real pcsc-lite and a private pcscd holding `nfcsim vpcd`.
@Suite(.serialized) struct StorageCardReaderTests {
    static let message = NDEFMessage(URIRecord(uri: "https://example.com/storage").record(),
                                     try! TextRecord(text: String(repeating: "Storage card. ", count: 12)).record())

    func read(_ type: String) throws -> RunResult {
        let file = try PCSCReaderTests.messageFile(Self.message)
        defer { try? FileManager.default.removeItem(at: file) }
        let pcscd = try PrivatePCSCD(nfcsim: ["--type", type, "--ndef", file.path, "--after", "0.5", "--for", "3"])
        defer { pcscd.stop() }
        let result = try PCSCRig.probe(["read", "12"], socket: pcscd.socket, timeout: 15)
        #expect(!result.timedOut, "\(result.output)\n\(pcscd.log)")
        return result
    }

    @Test(arguments: [("classic1k", "MIFARE Classic 1K"), ("classic4k", "MIFARE Classic 4K")])
    func mifareClassicIsReadWithLoadKeysAndGeneralAuthenticate(type: String, name: String) throws {
        let result = try read(type)
        let arrived = try #require(result.line(startingWith: "arrived "), "\(result.output)")
        #expect(arrived.contains("platform=mifareClassic") && arrived.contains(name) && arrived.contains("uid=5c2a91e3")
                && arrived.contains("technology=iso14443a "), "\(arrived)")
        let read = try #require(result.line(startingWith: "ndef="), "\(result.output)")
        #expect(read.hasPrefix("ndef=\(Hex.string(Self.message.encoded())) "), "\(read)")
        print("PC/SC \(name): \(read.split(separator: " ").dropFirst().joined(separator: " "))")
    }

    @Test func type5IsReadBlockByBlock() throws {
        let result = try read("icodeslix2")
        let arrived = try #require(result.line(startingWith: "arrived "), "\(result.output)")
        #expect(arrived.contains("platform=type5") && arrived.contains("ISO 15693 part 3") && arrived.contains("technology=iso15693 "), "\(arrived)")
        let read = try #require(result.line(startingWith: "ndef="), "\(result.output)")
        #expect(read.hasPrefix("ndef=\(Hex.string(Self.message.encoded())) "), "\(read)")
        #expect(read.contains("uid=e004010866"), "\(read)")
        print("PC/SC ICODE SLIX2: \(read.split(separator: " ").dropFirst().joined(separator: " "))")
    }

    @Test func classicAndType5StatusWords() throws {
        #expect(try PCSCTransport.classicAnswer([0x90, 0x00], data: false) == [])
        #expect(try PCSCTransport.classicAnswer([0x63, 0x00], data: false) == [0x04])
        #expect(try PCSCTransport.classicAnswer([0x69, 0x82], data: true) == [0x04])
        #expect(PCSCCardIdentity(atr: Self.atr("0001")).platform == .mifareClassic)
        #expect(PCSCCardIdentity(atr: Self.atr("0002")).mifareClassicSize == .classic4K)
    }

    static func atr(_ name: String) -> [UInt8] {
        guard case .success(let bytes) = Hex.decode("3B8F8001804F0CA00000030603\(name)0000000000") else { return [] }
        return bytes
    }
}

/// Writing a MIFARE Classic through the real pcsc-lite: UPDATE BINARY `FF D6 00 BB 10` after
/// LOAD KEYS + GENERAL AUTHENTICATE, answered by `nfcsim vpcd`'s storage card, which enforces
/// the chip's keys and access bits.
@Suite(.serialized) struct StorageCardWriteTests {
    @Test(arguments: ["classic1k", "classic4k"])
    func mifareClassicIsWrittenReadBackAndMadeReadOnly(type: String) throws {
        let file = try PCSCReaderTests.messageFile(StorageCardReaderTests.message)
        defer { try? FileManager.default.removeItem(at: file) }
        let pcscd = try PrivatePCSCD(nfcsim: ["--type", type, "--ndef", file.path, "--after", "0.5", "--for", "20"])
        defer { pcscd.stop() }
        let new = NDEFMessage(URIRecord(uri: "https://example.com/written-over-pcsc").record(),
                              try TextRecord(text: String(repeating: "Written. ", count: type == "classic4k" ? 150 : 40)).record())
        let result = try PCSCRig.probe(["classic-write", Hex.string(new.encoded()), "25"], socket: pcscd.socket, timeout: 40)
        #expect(!result.timedOut, "\(result.output)\n\(pcscd.log)")
        let written = try #require(result.line(startingWith: "written "), "\(result.output)\n\(pcscd.log)")
        #expect(written.contains("changed=true"), "\(written)")
        let reads = result.output.split(separator: "\n").filter { $0.hasPrefix("ndef=") }
        #expect(reads.count == 2 && reads.allSatisfy { $0.hasPrefix("ndef=\(Hex.string(new.encoded())) ") }, "\(result.output)")
        #expect(result.line(startingWith: "status=") == "status=read-only formatted=true used=\(new.encoded().count)", "\(result.output)")
        #expect(result.line(startingWith: "secondWrite=") == "secondWrite=refused: read-only", "\(result.output)")
        print("PC/SC \(type): \(written)")
    }
}

/// `nfcsim vpcd --save`: what a PC/SC client writes through the real pcscd lands in the file.
@Suite(.serialized) struct StorageCardSaveTests {
    @Test func aClassicWrittenThroughPcscdIsSaved() async throws {
        let file = try PCSCReaderTests.messageFile(StorageCardReaderTests.message)
        let saved = FileManager.default.temporaryDirectory.appendingPathComponent("nfcsim-save-\(UUID().uuidString).nfc")
        defer { for url in [file, saved] { try? FileManager.default.removeItem(at: url) } }
        let pcscd = try PrivatePCSCD(nfcsim: ["--type", "classic1k", "--ndef", file.path, "--save", saved.path, "--after", "0.5", "--for", "20"])
        let new = NDEFMessage(URIRecord(uri: "https://example.com/saved-over-pcsc").record())
        let result = try PCSCRig.probe(["classic-write", Hex.string(new.encoded()), "25"], socket: pcscd.socket, timeout: 40)
        pcscd.stop()
        #expect(result.line(startingWith: "written ") != nil, "\(result.output)\n\(pcscd.log)")
        let dump = try DumpFile.parse([UInt8](try Data(contentsOf: saved)), raw: nil)
        guard case .classic(let chip) = dump.chip else { Issue.record("not a Classic: \(dump.chip.name)"); return }
        // The message, read from the saved object by the real reader, and the read-only trailers.
        let reading = try await MifareClassicTag.readNDEF(over: InProcessTransport(try chip.virtualChip()), uid: chip.uid, size: chip.size)
        #expect(reading.message == new)
        let trailer = Array(chip.memory[(7 * 16)..<(8 * 16)])
        #expect(Array(trailer[6..<9]) == [0x07, 0x8F, 0x0F], "the make-read-only was saved too: \(trailer)")
    }

    /// A storage card written through pcscd (UPDATE BINARY): the saved .nfc file holds the
    /// message's TLV. (An NTAG joins once the storage card takes Type 2 UPDATE BINARY.)
    @Test(arguments: ["icodeslix2"])
    func aStorageCardWrittenThroughPcscdIsSaved(type: String) throws {
        try PCSCRig.requireAll()
        let saved = FileManager.default.temporaryDirectory.appendingPathComponent("nfcsim-save-\(UUID().uuidString).nfc")
        defer { try? FileManager.default.removeItem(at: saved) }
        let pcscd = try PrivatePCSCD(nfcsim: ["--type", type, "--uri", "https://example.com/old", "--save", saved.path, "--after", "0.5", "--for", "20"])
        let new = NDEFMessage(URIRecord(uri: "https://example.com/saved-\(type)").record()).encoded()
        let result = try PCSCRig.probe(["write", Hex.string(new), "15"], socket: pcscd.socket, timeout: 25)
        pcscd.stop()
        #expect(result.line(startingWith: "written changed=true") != nil, "\(result.output)\n\(pcscd.log)")
        let dump = try DumpFile.parse([UInt8](try Data(contentsOf: saved)), raw: nil)
        let memory: [UInt8]
        switch dump.chip {
        case .type2(let chip): memory = chip.memory
        case .type5(let chip): memory = chip.memory
        default: Issue.record("not the chip: \(dump.chip.name)"); return
        }
        let tlv = [0x03, UInt8(new.count)] + new
        #expect((0...(memory.count - tlv.count)).contains { Array(memory[$0..<($0 + tlv.count)]) == tlv }, "the saved memory holds the new TLV")
    }
}
