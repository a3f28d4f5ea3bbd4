import Foundation
import NDEF
import NFCSim
import NFCTags
import Testing
import TestSupport

/// The FeliCa (Type 3) and Jewel (Type 1) objects behind the emulated PN532, proven with
/// libnfc's own tools: `nfc-list`, `nfc-read-forum-tag3` and `nfc-jewel r`.
@Suite(.serialized) struct LibNFCType1Type3ToolTests {
    static let message = NDEFMessage(URIRecord(uri: "https://example.com/felica").record())

    @Test func nfcListShowsTheFeliCaTarget() throws {
        let reader = try EmulatedPN532(PN532Emulator(target: try VirtualType3Tag(message: Self.message).pn532Target))
        defer { reader.close() }
        let result = try LibNFCTool.run("nfc-list", [], connstring: reader.connstring)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("1 Felica (212 kbps) passive target(s) found:"), "\(result.output)")
        #expect(result.output.contains("ID (NFCID2): 01  2e  4c  e1  a2  b3  c4  d5"), "\(result.output)")
        #expect(result.output.contains("Parameter (PAD): 00  f1  00  00  00  01  43  00"), "\(result.output)")
        #expect(result.output.contains("System Code (SC): 12  fc"), "\(result.output)")
    }

    @Test func nfcReadForumTag3ReadsTheMessage() throws {
        let reader = try EmulatedPN532(PN532Emulator(target: try VirtualType3Tag(message: Self.message).pn532Target))
        defer { reader.close() }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("nfcsim-tag3-\(UUID().uuidString).ndef")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try LibNFCTool.run("nfc-read-forum-tag3", ["-o", output.path], connstring: reader.connstring)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Checksum: ok"), "\(result.output)")
        #expect(result.output.contains("Maximum nr of blocks to read  by Check  Command:   4 blocks"), "\(result.output)")
        #expect([UInt8](try Data(contentsOf: output)) == Self.message.encoded())
    }

    @Test(arguments: [VirtualType1Tag.Product.topaz96, .topaz512])
    func nfcListAndNfcJewelReadTheTopaz(product: VirtualType1Tag.Product) throws {
        let tag = try VirtualType1Tag(product: product, message: Self.message)
        let reader = try EmulatedPN532(PN532Emulator(target: tag.pn532Target))
        defer { reader.close() }
        let list = try LibNFCTool.run("nfc-list", [], connstring: reader.connstring)
        #expect(list.output.contains("1 ISO14443A-3 Jewel passive target(s) found:"), "\(list.output)")
        #expect(list.output.contains("ATQA (SENS_RES): 0c  00"), "\(list.output)")
        #expect(list.output.contains("4-LSB JEWELID: 92  4b  1c  33"), "\(list.output)")
        let dump = FileManager.default.temporaryDirectory.appendingPathComponent("nfcsim-jewel-\(UUID().uuidString).jwd")
        defer { try? FileManager.default.removeItem(at: dump) }
        let read = try LibNFCTool.run("nfc-jewel", ["r", dump.path], connstring: reader.connstring, timeout: 40)
        #expect(read.status == 0, "\(read.output)")
        #expect(read.output.contains("Done, 15 of 15 blocks read."), "\(read.output)")
        #expect([UInt8](try Data(contentsOf: dump)) == Array(tag.memory.prefix(120)), "the dump is the static memory")
    }
}
