import Foundation
import NDEF
import NFCSim
import NFCTags
import Testing
import TestSupport

/// The virtual MIFARE Classic behind the emulated PN532, seen by libnfc's own tools: nfc-list
/// reports ATQA/SAK as for the real chips, and nfc-mfclassic (trying its list of default keys,
/// which includes the MAD and NFC Forum public keys) dumps every block.
@Suite(.serialized) struct MifareClassicToolTests {
    static let message = NDEFMessage(URIRecord(uri: "https://example.com/classic").record())

    @Test(arguments: [(MifareClassicSize.classic1K, "00  04", "08"), (.classic4K, "00  02", "18")])
    func nfcListShowsTheClassicTarget(size: MifareClassicSize, atqa: String, sak: String) throws {
        let chip = try VirtualMifareClassic(size: size, message: Self.message)
        let reader = try EmulatedPN532(PN532Emulator(target: chip.pn532Target))
        defer { reader.close() }
        let result = try LibNFCTool.run("nfc-list", [], connstring: reader.connstring)
        #expect(!result.timedOut)
        #expect(result.output.contains("ATQA (SENS_RES): \(atqa)"), "\(result.output)")
        #expect(result.output.contains("UID (NFCID1): 5c  2a  91  e3"), "\(result.output)")
        #expect(result.output.contains("SAK (SEL_RES): \(sak)"), "\(result.output)")
    }

    @Test func nfcMfclassicDumpsTheMADAndNDEFSectors() throws {
        let chip = try VirtualMifareClassic(size: .classic1K, message: Self.message)
        let reader = try EmulatedPN532(PN532Emulator(target: chip.pn532Target))
        defer { reader.close() }
        let dump = FileManager.default.temporaryDirectory.appendingPathComponent("mfc-\(UUID().uuidString).mfd")
        defer { try? FileManager.default.removeItem(at: dump) }
        let result = try LibNFCTool.run("nfc-mfclassic", ["r", "a", "u", dump.path], connstring: reader.connstring, timeout: 60)
        #expect(!result.timedOut)
        #expect(result.output.contains("Done, 64 of 64 blocks read."), "\(result.output)")
        let bytes = [UInt8](try Data(contentsOf: dump))
        #expect(bytes.count == 1024)
        // Keys A as found (nfc-mfclassic writes them into the trailers), the MAD, the NDEF TLV.
        #expect(Array(bytes[16..<20]) == [0x14, 0x01, 0x03, 0xE1])
        #expect(Array(bytes[48..<58]) == MifareClassicNDEF.madKeyA + [0x78, 0x77, 0x88, 0xC1])
        #expect(Array(bytes[112..<118]) == MifareClassicNDEF.ndefKeyA)
        let encoded = Self.message.encoded()
        #expect(Array(bytes[64..<(66 + encoded.count)]) == [0x03, UInt8(encoded.count)] + encoded)
    }
}
