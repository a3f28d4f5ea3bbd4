import Foundation
import LibNFC
import NDEF
import NFCReaders
import NFCSim
import NFCTags
import Testing
import TestSupport

/// Writing a Type 4 object through the real libnfc: the emulated PN532 carries the UPDATE BINARY
/// APDUs in InDataExchange (ISO-DEP), and a second, separate read through libnfc finds the new
/// message.
@Suite(.serialized) struct LibNFCType4WriteTests {
    static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]

    @Test func aType4ObjectIsWrittenAndReadBackThroughLibnfc() async throws {
        let old = NDEFMessage(URIRecord(uri: "https://example.com/old").record())
        // Longer than one PN532 frame: several UPDATE BINARY chunks.
        let new = NDEFMessage(URIRecord(uri: "https://example.com/poster").record(),
                              try TextRecord(text: String(repeating: "Written through libnfc. ", count: 30)).record())
        let tag = try VirtualType4Tag(message: old)
        let emulated = try EmulatedPN532(PN532Emulator(target: tag.pn532Target(uid: Self.uid)))
        defer { emulated.close() }
        guard let arrival = try await LibNFCArrival.first(at: emulated.connstring, within: 5) else { return }
        let object = arrival.object
        #expect(object.platform == .type4)
        let report = try await object.perform { driver throws(TagWriteError) in try await driver.write(new.encoded(), options: WriteOptions()) }
        #expect(report.changed)
        let reading = try await object.readNDEF()
        #expect(reading.message == new)
        let status = try await object.perform { driver throws(TagWriteError) in try await driver.status() }
        #expect(status.used == new.encoded().count && status.access == .readWrite)
        print("libnfc Type 4 write: \(new.encoded().count) bytes in \(report.roundTrips) round trips")
        await arrival.close()    // arrival keeps the reader's events alive to here: ending them ends the watch
    }
}
