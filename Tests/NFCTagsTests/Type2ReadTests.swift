import NDEF
import NFCSim
import NFCTags
import TestSupport
import Testing

/// Reads of well-formed Type 2 objects: the decoded message and the round trips it took.
///
/// Round-trip arithmetic (pages are 4 bytes; the CC is page 3, data starts at page 4; the first
/// read takes the CC and 48 data bytes, pages 3–15; an NTAG21x or Ultralight EV1 is asked its
/// originality signature, READ_SIG, once, right after GET_VERSION):
/// - message TLV within the first 48 bytes: GET_VERSION + READ_SIG + 1 FAST_READ = 3;
/// - larger, link without a frame limit: GET_VERSION + READ_SIG + 1 FAST_READ + 1 FAST_READ for
///   the rest = 4;
/// - PN532 (252-byte frames = 63 pages): NTAG216 full (872-byte data area) needs pages 16–221
///   after the first read, 206 pages = 4 frames, so 7;
/// - READ only (PC/SC storage card, no GET_VERSION): one READ per 4 pages from page 3, the least
///   any READ-only reader can do.
@Suite struct Type2ReadTests {
    static let products: [Type2Product] = [.ntag213, .ntag215, .ntag216]

    @Test(arguments: products)
    func tinyMessageInTwoRoundTrips(product: Type2Product) async throws {
        let transport = InProcessTransport(try VirtualType2Tag(product: product, message: poster))
        let reading = try await Type2Tag.readNDEF(over: transport, uid: VirtualType2Tag.defaultUID)
        #expect(reading.message == poster)
        #expect(reading.product == product.name)
        #expect(reading.capacity == TLVAreaWritePlan.largestMessage(in: product.ccDataAreaSize))
        // One capacity for a scan and `nfcscan info` (an NTAG213: 142, not the data area's 144).
        let status = try await TagPlatform.type2.driver(over: InProcessTransport(try VirtualType2Tag(product: product, message: poster)),
                                                        context: DriverContext(uid: VirtualType2Tag.defaultUID)).status()
        #expect(reading.capacity == status.capacity)
        #expect(reading.uid == VirtualType2Tag.defaultUID)
        #expect(reading.platform == .type2)
        #expect(reading.originality == .signature(.ntag21x, VirtualType2Tag.unsignedSignature))
        #expect(reading.roundTrips == 3)
        #expect(await transport.roundTrips == 3)
        #expect(await commandCodes(transport) == [0x60, 0x3C, 0x3A])
    }

    @Test(arguments: products)
    func emptyNDEFTLV(product: Type2Product) async throws {
        let transport = InProcessTransport(try VirtualType2Tag(product: product, message: nil))
        let reading = try await Type2Tag.readNDEF(over: transport)
        #expect(reading.content == .empty)
        #expect(reading.ndefBytes == [])
        #expect(reading.message == nil)
        #expect(reading.roundTrips == 3)
    }

    /// A message whose TLV fills the data area the CC announces to the last byte (no Terminator):
    /// NTAG213 with a 1-byte TLV length, NTAG215/216 with the 3-byte form.
    @Test(arguments: [(Type2Product.ntag213, 142), (.ntag215, 492), (.ntag216, 868)])
    func exactlyFilling(product: Type2Product, size: Int) async throws {
        let full = message(encodedSize: size)
        let tag = try VirtualType2Tag(product: product, message: full)
        #expect(Array(tag.memory[16..<20]) == (size < 0xFF ? [0x03, UInt8(size)] + Array(full.encoded().prefix(2))
                                                              : [0x03, 0xFF, UInt8(size >> 8), UInt8(size & 0xFF)]))
        let transport = InProcessTransport(tag)
        let reading = try await Type2Tag.readNDEF(over: transport)
        #expect(reading.message == full)
        #expect(reading.ndefBytes.count == size)
        #expect(reading.roundTrips == 4)
        #expect(await commandCodes(transport) == [0x60, 0x3C, 0x3A, 0x3A])
        // The second FAST_READ ends at the last page of the data area, not a page further.
        #expect(await transport.commands.last == [0x3A, 0x10, UInt8(3 + product.ccDataAreaSize / 4)])
    }

    @Test func threeByteLengthOnlyAsFarAsNeeded() async throws {
        let medium = message(encodedSize: 300)
        let transport = InProcessTransport(try VirtualType2Tag(product: .ntag216, message: medium))
        let reading = try await Type2Tag.readNDEF(over: transport)
        #expect(reading.message == medium)
        // 4 bytes of TLV header + 300 = data bytes 0..<304 = pages 4...79.
        #expect(await transport.commands == [[0x60], [0x3C, 0x00], [0x3A, 0x03, 0x0F], [0x3A, 0x10, 79]])
    }

    @Test func ntag216FullOverAPN532SizedLink() async throws {
        let full = message(encodedSize: 868)
        let transport = InProcessTransport(try VirtualType2Tag(product: .ntag216, message: full), capabilities: pn532Link)
        let reading = try await Type2Tag.readNDEF(over: transport)
        #expect(reading.message == full)
        #expect(reading.roundTrips == 7)
        #expect(await transport.commands == [[0x60], [0x3C, 0x00], [0x3A, 3, 15], [0x3A, 16, 78], [0x3A, 79, 141], [0x3A, 142, 204], [0x3A, 205, 221]])
    }

    /// A link that carries only READ: no GET_VERSION, so the CC gives the size; 4 pages a trip.
    @Test(arguments: [(Type2Product.ntag213, 142, 10), (.ntag216, 868, 55)])
    func readOnlyLink(product: Type2Product, size: Int, expectedRoundTrips: Int) async throws {
        let full = message(encodedSize: size)
        let transport = InProcessTransport(try VirtualType2Tag(product: product, message: full), capabilities: storageCardLink)
        let reading = try await Type2Tag.readNDEF(over: transport)
        #expect(reading.message == full)
        #expect(reading.product == nil)
        #expect(reading.capacity == TLVAreaWritePlan.largestMessage(in: product.ccDataAreaSize))
        // Pages 3 ... the last of the data area, 4 per READ: the least a READ-only reader can do.
        let pages = 1 + product.ccDataAreaSize / 4
        #expect(expectedRoundTrips == (pages + 3) / 4)
        #expect(reading.roundTrips == expectedRoundTrips)
        #expect(await commandCodes(transport) == [UInt8](repeating: 0x30, count: expectedRoundTrips))
    }

    /// The original Ultralight is silent on GET_VERSION and goes IDLE: the reader re-activates it
    /// and reads with READ (it has no FAST_READ either).
    @Test func plainUltralight() async throws {
        let small = message(encodedSize: 40)
        let transport = InProcessTransport(try VirtualType2Tag(product: .ultralight, message: small))
        let reading = try await Type2Tag.readNDEF(over: transport)
        #expect(reading.message == small)
        #expect(reading.product == nil)
        #expect(reading.capacity == 48 - 2)
        // GET_VERSION (silent), re-activation, READ 3, READ 7, READ 11 (data bytes 0..<42 end on page 14).
        #expect(reading.roundTrips == 5)
        #expect(await transport.commands == [[0x60], [0x30, 3], [0x30, 7], [0x30, 11]])
        #expect(await transport.reactivations == 1)
    }

    @Test func ultralightThatNAKsGetVersion() async throws {
        var tag = try VirtualType2Tag(product: .ultralight, message: poster)
        tag.unknownCommandReply = .nak(Type2Acknowledgement.invalidArgument.rawValue)
        let transport = InProcessTransport(tag)
        let reading = try await Type2Tag.readNDEF(over: transport)
        #expect(reading.message == poster)
        #expect(await transport.reactivations == 1)
    }

    @Test(arguments: [Type2Product.ultralightEV1_48, .ultralightEV1_128, .ntag210, .ntag212])
    func otherProductsAreNamed(product: Type2Product) async throws {
        let fill = message(encodedSize: product.ccDataAreaSize - 2)
        let transport = InProcessTransport(try VirtualType2Tag(product: product, message: fill))
        let reading = try await Type2Tag.readNDEF(over: transport)
        #expect(reading.message == fill)
        #expect(reading.product == product.name)
        #expect(reading.originality == .signature(product.originality!, VirtualType2Tag.unsignedSignature))
        #expect(reading.roundTrips == (product.userMemory <= Type2Tag.initialDataBytes ? 3 : 4))
    }

    /// The first-read size trades bytes for round trips; any value still reads the message.
    @Test(arguments: [-5, 0, 1, 4, 16, 200, 2000])
    func anyInitialReadSize(bytes: Int) async throws {
        let medium = message(encodedSize: 300)
        let transport = InProcessTransport(try VirtualType2Tag(product: .ntag215, message: medium))
        let reading = try await Type2Tag.readNDEF(over: transport, initialDataBytes: bytes)
        #expect(reading.message == medium)
        #expect(reading.roundTrips == (bytes >= 304 ? 3 : 4))
    }

    @Test func removedMidReadGivesObjectRemovedAndNoMessage() async throws {
        let full = message(encodedSize: 868)
        for answered in 0..<3 {
            let tag = try VirtualType2Tag(product: .ntag216, message: full, presence: FieldPresence(removeAfterCommands: answered))
            let transport = InProcessTransport(tag)
            await #expect(throws: TagReadError.objectRemoved(roundTrips: answered + 1)) {
                try await Type2Tag.readNDEF(over: transport)
            }
        }
        // The same over a READ-only link, removed after 20 of its 55 READs.
        let tag = try VirtualType2Tag(product: .ntag216, message: full, presence: FieldPresence(removeAfterCommands: 20))
        await #expect(throws: TagReadError.objectRemoved(roundTrips: 21)) {
            try await Type2Tag.readNDEF(over: InProcessTransport(tag, capabilities: storageCardLink))
        }
        #expect(TagReadError.objectRemoved(roundTrips: 21).description.hasPrefix("moved away too soon"))
    }

    /// Silence on GET_VERSION from an object that has left is a removal, not a plain Ultralight.
    @Test func removedDuringTheGetVersionProbe() async throws {
        let tag = try VirtualType2Tag(product: .ultralight, message: poster, presence: FieldPresence(removeAfterCommands: 1))
        await #expect(throws: TagReadError.objectRemoved(roundTrips: 1)) {
            try await Type2Tag.readNDEF(over: InProcessTransport(tag))
        }
    }

    /// Lock and Memory Control TLVs before the message, pointing outside it, are fine.
    @Test func controlTLVsOutsideTheMessage() async throws {
        let ndef = poster.encoded()
        // Lock Control: byte 160 (page 0x28, NTAG213 dynamic lock), 24 bits; Memory Control: 4 bytes at byte 164.
        let area = hex("01 03 a0 18 44  02 03 a4 04 04") + [0x03, UInt8(ndef.count)] + ndef + [0xFE]
        let transport = InProcessTransport(try VirtualType2Tag(product: .ntag213, dataArea: area))
        let reading = try await Type2Tag.readNDEF(over: transport)
        #expect(reading.message == poster)
        #expect(reading.roundTrips == 3)   // 10 + 37 bytes of TLVs and the Terminator: the first 48 bytes
    }
}
