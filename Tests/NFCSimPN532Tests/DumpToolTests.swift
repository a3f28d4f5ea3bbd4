import Foundation
import NDEF
import NFCSim
import NFCTags
import Testing
import TestSupport

/// Dumps presented by the built `nfcsim pn532 --dump`, seen by libnfc's own tools: the chip
/// behaves as the dump says, down to a MIFARE Classic sector the dump holds no key for.
@Suite(.serialized) struct DumpToolTests {
    static let message = NDEFMessage(URIRecord(uri: "https://example.com/felica").record())

    @Test func nfcReadForumTag3ReadsAMetrodroidFeliCaDump() throws {
        let tag = try VirtualType3Tag(message: Self.message)
        let file = try DumpFiles.write(DumpFiles.metrodroidFeliCa(idm: tag.idm, pmm: tag.pmm, blocks: tag.memory), suffix: ".json")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("nfcsim-tag3-\(UUID().uuidString).ndef")
        defer { try? FileManager.default.removeItem(at: file); try? FileManager.default.removeItem(at: output) }
        let sim = try NFCSimPN532Child(["--dump", file.path, "--for", "30"])
        defer { sim.stop() }
        let result = try LibNFCTool.run("nfc-read-forum-tag3", ["-o", output.path], connstring: sim.connstring)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Checksum: ok"), "\(result.output)")
        #expect([UInt8](try Data(contentsOf: output)) == Self.message.encoded())
    }

    @Test func nfcMfclassicReadsTheSectorsWithKeysAndIsRefusedTheOther() throws {
        let uid: [UInt8] = [0x5C, 0x2A, 0x91, 0xE3]
        let memory = try MifareClassicImage.make(size: .mini, uid: uid, message: Self.message)
        let file = try DumpFiles.write(DumpFiles.flipperClassic(size: .mini, uid: uid, memory: memory, unread: [4]), suffix: ".nfc")
        let full = try DumpFiles.write(DumpFiles.flipperClassic(size: .mini, uid: uid, memory: memory), suffix: ".nfc")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("mfc-\(UUID().uuidString).mfd")
        defer { for url in [file, full, out] { try? FileManager.default.removeItem(at: url) } }
        // Sector 4 (blocks 0x10-0x13) was not read: no key opens it, as on the card.
        let sim = try NFCSimPN532Child(["--dump", file.path, "--for", "60"])
        let refused = try LibNFCTool.run("nfc-mfclassic", ["r", "A", "u", out.path], connstring: sim.connstring, timeout: 60)
        sim.stop()
        #expect(refused.output.contains("SAK (SEL_RES): 09"), "\(refused.output)")
        #expect(refused.output.contains("Error: authentication failed for block 0x13"), "\(refused.output)")
        #expect(sim.log.contains("1 of 5 sectors have no known key"), "\(sim.log)")
        // The whole dump: every block, as the image it came from (keys A found by the tool).
        let whole = try NFCSimPN532Child(["--dump", full.path, "--for", "60"])
        defer { whole.stop() }
        let read = try LibNFCTool.run("nfc-mfclassic", ["r", "a", "u", out.path], connstring: whole.connstring, timeout: 60)
        #expect(read.output.contains("Done, 20 of 20 blocks read."), "\(read.output)")
        let bytes = [UInt8](try Data(contentsOf: out))
        #expect(Array(bytes[64..<112]) == Array(memory[64..<112]))
    }
}
