import Foundation
import LibNFC
import NDEF
import NFCReaders
import NFCSim
import NFCTags
import Testing
import TestSupport

/// Writing MIFARE Classic through the real libnfc against the emulated PN532 (MIFARE WRITE in
/// InDataExchange, the chip enforcing keys and access bits), confirmed by libnfc's own
/// `nfc-mfclassic r a u DUMP`, which dumps every block with the keys it finds.
@Suite(.serialized) struct MifareClassicWriteLibNFCTests {
    static let uid: [UInt8] = [0x5C, 0x2A, 0x91, 0xE3]

    /// libnfc's nfc-mfclassic dump of the emulated chip.
    func dump(_ emulated: EmulatedPN532, size: MifareClassicSize) throws -> [UInt8] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mfc-write-\(UUID().uuidString).mfd")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try LibNFCTool.run("nfc-mfclassic", ["r", "a", "u", file.path], connstring: emulated.connstring, timeout: 120)
        #expect(!result.timedOut)
        #expect(result.output.contains("Done, \(size.blockCount) of \(size.blockCount) blocks read."), "\(result.output)")
        return [UInt8](try Data(contentsOf: file))
    }

    /// The NDEF sectors' data blocks of a dump, in order.
    func dataArea(_ dump: [UInt8], size: MifareClassicSize) -> [UInt8] {
        MifareClassicNDEFArea(geometry: size, sectors: MifareClassicNDEF.ndefSectors(formatting: size)).blocks
            .flatMap { dump[($0 * 16)..<($0 * 16 + 16)] }
    }

    @Test(arguments: [MifareClassicSize.classic1K, .classic4K])
    func writtenThroughLibnfcAndDumpedByNfcMfclassic(size: MifareClassicSize) async throws {
        let chip = try VirtualMifareClassic(size: size, uid: Self.uid, message: NDEFMessage(URIRecord(uri: "https://example.com/old").record()))
        let emulated = try EmulatedPN532(PN532Emulator(target: chip.pn532Target))
        defer { emulated.close() }
        // Long enough on the 4K to reach the big sectors past MAD2.
        let new = NDEFMessage(URIRecord(uri: "https://example.com/written").record(),
                              try TextRecord(text: String(repeating: "Written. ", count: size == .classic4K ? 250 : 50)).record())
        guard let arrival = try await LibNFCArrival.first(at: emulated.connstring, within: 15) else { return }
        let object = arrival.object
        let report = try await object.perform { driver throws(TagWriteError) in try await driver.write(new.encoded(), options: WriteOptions()) }
        #expect(report.changed && !report.formatted)
        #expect(try await object.readNDEF().message == new)
        print("libnfc \(size.name): wrote \(new.encoded().count) bytes in \(report.roundTrips) round trips")
        await arrival.close()

        let bytes = try dump(emulated, size: size)
        #expect(bytes.count == size.blockCount * 16)
        let encoded = new.encoded()
        let tlv = TLVWalker.encode(.ndefMessage, value: encoded)! + [0xFE]
        #expect(Array(dataArea(bytes, size: size).prefix(tlv.count)) == tlv)
    }

    @Test func formattedMadeReadOnlyAndRefusedThroughLibnfc() async throws {
        let chip = try VirtualMifareClassic(size: .classic1K, uid: Self.uid, image: MifareClassicImage.blank(size: .classic1K, uid: Self.uid))
        let emulated = try EmulatedPN532(PN532Emulator(target: chip.pn532Target))
        defer { emulated.close() }
        let message = NDEFMessage(URIRecord(uri: "https://example.com/poster").record())
        guard let arrival = try await LibNFCArrival.first(at: emulated.connstring, within: 15) else { return }
        let object = arrival.object
        await #expect(throws: TagWriteError.refused(.notFormatted)) {
            try await object.perform { driver throws(TagWriteError) in try await driver.write(message.encoded(), options: WriteOptions()) }
        }
        let written = try await object.perform { driver throws(TagWriteError) in try await driver.write(message.encoded(), options: WriteOptions(formatIfBlank: true)) }
        #expect(written.formatted)
        _ = try await object.perform { driver throws(TagWriteError) in try await driver.makeReadOnly(options: WriteOptions()) }
        let status = try await object.perform { driver throws(TagWriteError) in try await driver.status() }
        #expect(status.formatted && status.access == .readOnly)
        await #expect(throws: TagWriteError.refused(.readOnly)) {
            try await object.perform { driver throws(TagWriteError) in try await driver.write([], options: WriteOptions()) }
        }
        #expect(try await object.readNDEF().message == message)
        await arrival.close()

        let bytes = try dump(emulated, size: .classic1K)
        // MAD1 as AN1304 lays it out; sector 1's trailer read-only (nfc-mfclassic puts the key A it used).
        #expect(Array(bytes[16..<20]) == [0x14, 0x01, 0x03, 0xE1])
        #expect(Array(bytes[48..<58]) == MifareClassicNDEF.madKeyA + MifareClassicTrailer.madAccessBits + [0xC1])
        #expect(Array(bytes[112..<122]) == MifareClassicNDEF.ndefKeyA + MifareClassicTrailer.readOnlyAccessBits + [0x43])
        let tlv = TLVWalker.encode(.ndefMessage, value: message.encoded())! + [0xFE]
        #expect(Array(bytes[64..<(64 + tlv.count)]) == tlv)
    }
}
