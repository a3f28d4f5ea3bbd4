import Foundation
import LibNFC
import NDEF
import NFCReaders
import NFCSim
import NFCTags
import Testing
import TestSupport

/// Writing Type 2 objects through the real libnfc (an emulated PN532 on a pseudo-terminal, the
/// real pn532_uart driver), confirmed by libnfc's own `nfc-mfultralight r`: the dump it saves
/// holds the bytes nfcscan wrote.
@Suite(.serialized) struct LibNFCType2WriteTests {
    static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
    static let old = NDEFMessage(URIRecord(uri: "https://example.com/old-poster").record())
    static let new = NDEFMessage(URIRecord(uri: "https://example.com/summer-concert").record(),
                                 try! TextRecord(text: String(repeating: "Bring a chair. ", count: 5)).record())

    /// Runs `operation` on the first object the emulated reader presents, then closes the reader.
    static func perform<T: Sendable>(on emulated: EmulatedPN532,
                                     _ operation: @escaping @Sendable (any TagDriver) async throws(TagWriteError) -> T) async throws -> T {
        guard let arrival = try await LibNFCArrival.first(at: emulated.connstring, within: 5) else {
            throw TagWriteError.link(.objectRemoved(roundTrips: 0))
        }
        do {
            let result = try await arrival.object.perform(operation)
            await arrival.close()
            return result
        } catch {
            await arrival.close()
            throw error
        }
    }

    /// `nfc-mfultralight r` against the emulated reader: the chip's whole memory.
    static func dump(_ emulated: EmulatedPN532, pages: Int) throws -> [UInt8] {
        let (result, bytes) = try LibNFCTool.ultralightDump(connstring: emulated.connstring)
        #expect(result.status == 0 && !result.timedOut, "\(result.output)")
        #expect(result.output.contains("Done, \(pages) of \(pages) pages read (0 pages failed)."), "\(result.output)")
        return bytes
    }

    static func tlv(_ message: NDEFMessage) -> [UInt8] {
        let encoded = message.encoded()
        return encoded.count < 0xFF ? [0x03, UInt8(encoded.count)] + encoded + [0xFE]
            : [0x03, 0xFF, UInt8(encoded.count >> 8), UInt8(encoded.count & 0xFF)] + encoded + [0xFE]
    }

    @Test(arguments: [(Type2Product.ntag213, 45), (.ntag216, 231)])
    func aMessageWrittenIsInNfcMfultralightsDump(product: Type2Product, pages: Int) async throws {
        let tag = try VirtualType2Tag(product: product, uid: Self.uid, message: Self.old)
        let emulated = try EmulatedPN532(PN532Emulator(target: tag.pn532Target))
        defer { emulated.close() }
        let message = Self.new.encoded()
        let report = try await Self.perform(on: emulated) { driver async throws(TagWriteError) in try await driver.write(message, options: WriteOptions()) }
        #expect(report.changed)
        let bytes = try Self.dump(emulated, pages: pages)
        let tlv = Self.tlv(Self.new)
        #expect(Array(bytes[16..<(16 + tlv.count)]) == tlv, "page 4 on holds the new NDEF TLV and a Terminator")
        print("libnfc write \(product.name): \(report.roundTrips) round trips")
    }

    @Test func aBlankNTAG215IsFormattedWrittenAndLocked() async throws {
        var image = try Type2MemoryImage.make(product: .ntag215, uid: Self.uid, dataArea: [])
        image.replaceSubrange(12..<16, with: [0, 0, 0, 0])
        let tag = try VirtualType2Tag(product: .ntag215, image: image)
        let emulated = try EmulatedPN532(PN532Emulator(target: tag.pn532Target))
        defer { emulated.close() }
        let message = Self.new.encoded()
        let report = try await Self.perform(on: emulated) { driver async throws(TagWriteError) in
            try await driver.write(message, options: WriteOptions(formatIfBlank: true))
        }
        #expect(report.formatted)
        _ = try await Self.perform(on: emulated) { driver async throws(TagWriteError) in try await driver.makeReadOnly(options: WriteOptions()) }
        let status = try await Self.perform(on: emulated) { driver async throws(TagWriteError) in try await driver.status() }
        #expect(status.access == .readOnly && status.used == message.count)
        let bytes = try Self.dump(emulated, pages: 135)
        #expect(Array(bytes[10..<16]) == [0xFF, 0xFF, 0xE1, 0x10, 0x3E, 0x0F], "lock bytes and the read-only CC")
        #expect(Array(bytes[(0x82 * 4)..<(0x82 * 4 + 3)]) == [0xFF, 0x00, 0x0F], "NTAG215 dynamic lock bytes")
        let tlv = Self.tlv(Self.new)
        #expect(Array(bytes[16..<(16 + tlv.count)]) == tlv)
    }

    /// PWD_AUTH through libnfc: no password and a wrong one refused (nothing written), the right
    /// one writes.
    @Test func aProtectedNTAG213NeedsItsPasswordThroughLibnfc() async throws {
        var tag = try VirtualType2Tag(product: .ntag213, uid: Self.uid, message: Self.old)
        tag.protect(from: 4, password: [0x0A, 0x0B, 0x0C, 0x0D], acknowledge: [0x12, 0x34])
        let emulated = try EmulatedPN532(PN532Emulator(target: tag.pn532Target))
        defer { emulated.close() }
        let message = Self.new.encoded()
        for (password, refusal) in [(nil, WriteRefusal.passwordRequired), ([0, 0, 0, 0], .wrongPassword)] as [([UInt8]?, WriteRefusal)] {
            await #expect(throws: TagWriteError.refused(refusal)) {
                _ = try await Self.perform(on: emulated) { driver async throws(TagWriteError) in
                    try await driver.write(message, options: WriteOptions(password: password))
                }
            }
        }
        let status = try await Self.perform(on: emulated) { driver async throws(TagWriteError) in try await driver.status() }
        #expect(status.passwordProtected == true && status.used == Self.old.encoded().count)
        let report = try await Self.perform(on: emulated) { driver async throws(TagWriteError) in
            try await driver.write(message, options: WriteOptions(password: [0x0A, 0x0B, 0x0C, 0x0D]))
        }
        #expect(report.changed)
        let bytes = try Self.dump(emulated, pages: 45)
        let tlv = Self.tlv(Self.new)
        #expect(Array(bytes[16..<(16 + tlv.count)]) == tlv)
    }
}
