import Foundation
import LibNFC
import NDEF
import NFCReaders
import NFCSim
import NFCTags
import Testing
import TestSupport

/// MIFARE Classic through the real libnfc against the emulated PN532 (the PN532 authenticates
/// with the key in InDataExchange), and Type 5's "cannot reach" on libnfc.
@Suite(.serialized) struct MifareClassicLibNFCTests {
    static let uid: [UInt8] = [0x5C, 0x2A, 0x91, 0xE3]

    @Test(arguments: [MifareClassicSize.classic1K, .classic4K])
    func readsMifareClassicThroughLibnfc(size: MifareClassicSize) async throws {
        // Long enough on the 4K to run through MAD2's sectors into the big sectors.
        let message = NDEFMessage(URIRecord(uri: "https://example.com/classic").record(),
                                  try TextRecord(text: String(repeating: "Classic. ", count: size == .classic4K ? 200 : 40)).record())
        let chip = try VirtualMifareClassic(size: size, uid: Self.uid, message: message)
        let emulated = try EmulatedPN532(PN532Emulator(target: chip.pn532Target))
        defer { emulated.close() }
        guard let arrival = try await LibNFCArrival.first(at: emulated.connstring, within: 15) else { return }
        let object = arrival.object
        #expect(object.identifier == Self.uid)
        #expect(object.platform == .mifareClassic)
        #expect(object.technology == .iso14443A(atqa: size == .classic4K ? [0x00, 0x02] : [0x00, 0x04], sak: size.sak, ats: []))
        let reading = try await object.readNDEF()
        #expect(reading.message == message)
        #expect(reading.product == size.name)
        print("libnfc \(size.name): \(reading.ndefBytes.count) bytes in \(reading.roundTrips) round trips")
        await arrival.close()
    }

    @Test func aPrivateKeyIsAnAuthenticationFailureThroughLibnfc() async throws {
        var chip = try VirtualMifareClassic(size: .classic1K, uid: Self.uid, message: NDEFMessage(URIRecord(uri: "https://example.com").record()))
        chip.write([1, 2, 3, 4, 5, 6], atBlock: 7)
        let emulated = try EmulatedPN532(PN532Emulator(target: chip.pn532Target))
        defer { emulated.close() }
        guard let arrival = try await LibNFCArrival.first(at: emulated.connstring, within: 15) else { return }
        let object = arrival.object
        await #expect(throws: TagReadError.mifareClassic(.authenticationFailed(sector: 1, key: "NFC Forum key A"))) {
            try await object.readNDEF()
        }
        await arrival.close()
    }

    @Test func type5CannotBeReachedThroughLibnfc() async throws {
        let chip = try VirtualType5Tag(product: .icodeSLIX, message: nil)
        let object = DetectedObject(identifier: chip.uid, technology: .other("ISO 15693"), platform: .type5, transport: InProcessTransport(chip),
                                    refusing: [.type5: DetectedObject.type5Unreachable])
        await #expect(throws: DetectedObject.type5Unreachable) { try await object.readNDEF() }
        #expect(DetectedObject.type5Unreachable.description.contains("PN53x readers have no ISO 15693 radio"))
    }
}
