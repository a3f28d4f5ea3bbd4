import Foundation
import LibNFC
import NDEF
import NFCReaders
import NFCSim
import NFCTags
import Testing
import TestSupport

/// The libnfc backend reads Type 3 (FeliCa) and Type 1 (Topaz) objects through the real libnfc,
/// against the emulated PN532.
@Suite(.serialized) struct LibNFCType1Type3ReaderTests {
    /// The emulated reader presenting `target`, and the object libnfc found on it.
    func arrival(_ target: any PN532Target) async throws -> (LibNFCArrival, EmulatedPN532)? {
        let emulated = try EmulatedPN532(PN532Emulator(target: target))
        guard let arrival = try await LibNFCArrival.first(at: emulated.connstring, within: 5) else { emulated.close(); return nil }
        return (arrival, emulated)
    }

    @Test func readsAType3ObjectThroughLibnfc() async throws {
        // 150 bytes: 10 blocks, in Checks of 4 (the Lite-S Nbr).
        let message = NDEFMessage(URIRecord(uri: "https://example.com/felica").record(),
                                  try TextRecord(text: String(repeating: "FeliCa. ", count: 14)).record())
        let tag = try VirtualType3Tag(message: message)
        guard let (arrival, emulated) = try await arrival(tag.pn532Target) else { return }
        defer { emulated.close() }
        let object = arrival.object
        #expect(object.platform == .type3)
        #expect(object.identifier == VirtualType3Tag.defaultIDm)
        #expect(object.technology == .felica(pmm: VirtualType3Tag.defaultPMm, systemCode: []))
        let reading = try await object.readNDEF()
        #expect(reading.message == message)
        #expect(reading.roundTrips == 1 + (message.encoded().count + 63) / 64)
        print("libnfc FeliCa Lite-S: \(reading.ndefBytes.count) bytes in \(reading.roundTrips) round trips")
        await arrival.close()
    }

    @Test(arguments: [VirtualType1Tag.Product.topaz96, .topaz512])
    func readsAType1ObjectThroughLibnfc(product: VirtualType1Tag.Product) async throws {
        let repeats = product == .topaz96 ? 5 : 50
        let message = NDEFMessage(try TextRecord(text: String(repeating: "Topaz. ", count: repeats)).record())
        let tag = try VirtualType1Tag(product: product, message: message)
        guard let (arrival, emulated) = try await arrival(tag.pn532Target) else { return }
        defer { emulated.close() }
        let object = arrival.object
        #expect(object.platform == .type1)
        #expect(object.identifier == Array(VirtualType1Tag.defaultUID.prefix(4)))
        #expect(object.technology == .jewel)
        let reading = try await object.readNDEF()
        #expect(reading.message == message)
        #expect(reading.product == product.name)
        #expect(reading.roundTrips == (product == .topaz96 ? 2 : 5))
        print("libnfc \(product.name): \(reading.ndefBytes.count) bytes in \(reading.roundTrips) round trips")
        await arrival.close()
    }
}
