import NDEF
import NFCSim
import NFCTags
import TestSupport
import Testing

/// The simulated Type 2 chip against the NXP data sheets, command by command.
@Suite struct VirtualType2TagTests {
    @Test func uidCheckBytesAndFactoryPages() throws {
        let tag = try VirtualType2Tag(product: .ntag213, uid: hex("04 a1 b2 c3 d4 e5 f6"), message: poster)
        #expect(Array(tag.memory[0..<4]) == [0x04, 0xA1, 0xB2, 0x88 ^ 0x04 ^ 0xA1 ^ 0xB2])
        #expect(Array(tag.memory[4..<12]) == hex("c3 d4 e5 f6") + [0xC3 ^ 0xD4 ^ 0xE5 ^ 0xF6, 0x48, 0x00, 0x00])
        #expect(tag.uid == hex("04 a1 b2 c3 d4 e5 f6"))
        #expect(Array(tag.memory[0x28 * 4..<0x29 * 4]) == hex("000000bd"))     // dynamic lock bytes
        #expect(Array(tag.memory[0x29 * 4..<0x2A * 4]) == hex("040000ff"))     // CFG0: AUTH0 FF
        #expect(throws: VirtualObjectError.invalidUID(length: 4)) { try VirtualType2Tag(product: .ntag213, uid: hex("01020304"), message: nil) }
    }

    /// The capability containers the data sheets give (a check on the product table too).
    @Test(arguments: [(Type2Product.ntag213, "e1101200", 144), (.ntag215, "e1103e00", 504), (.ntag216, "e1106d00", 888),
                      (.ntag210, "e1100600", 48), (.ntag212, "e1101000", 128), (.ultralight, "e1100600", 48)])
    func capabilityContainers(product: Type2Product, cc: String, userMemory: Int) throws {
        let tag = try VirtualType2Tag(product: product, message: nil)
        #expect(Array(tag.memory[12..<16]) == hex(cc))
        #expect(product.userMemory == userMemory)
        #expect(tag.memory.count == product.totalPages * 4)
    }

    @Test func getVersionIdentifies() throws {
        for product in Type2Product.known {
            var tag = try VirtualType2Tag(product: product, message: nil)
            switch tag.respond(to: [0x60]) {
            case .frame(let version): #expect(Type2Product.identify(version: version) == product)
            case .silence: #expect(product.version == nil)
            case .nak: Issue.record("\(product.name) NAKed GET_VERSION")
            }
        }
        #expect(Type2Product.identify(version: hex("0004040201000f03")) == .ntag213)
        #expect(Type2Product.identify(version: hex("0004040202010f03")) == .ntag213)   // another batch
        #expect(Type2Product.identify(version: hex("0005040201000f03")) == nil)        // another vendor
    }

    @Test func readWrapsToPageZero() throws {
        var tag = try VirtualType2Tag(product: .ntag213, message: poster)
        #expect(tag.respond(to: [0x30, 0x2C]) == .frame(Array(tag.memory[0x2C * 4..<0x2D * 4] + tag.memory[0..<12])))
        #expect(tag.respond(to: [0x30, 0x03]) == .frame(Array(tag.memory[12..<28])))
    }

    @Test func outOfRangeNAKsAndGoesIdle() throws {
        var tag = try VirtualType2Tag(product: .ntag213, message: poster)
        #expect(tag.respond(to: [0x30, 0x2D]) == .nak(0x0))
        #expect(tag.respond(to: [0x30, 0x00]) == .silence)          // IDLE until re-activated
        #expect(tag.reactivate() == true)
        #expect(tag.respond(to: [0x3A, 0x05, 0x04]) == .nak(0x0))    // start after end
        #expect(tag.reactivate() == true)
        #expect(tag.respond(to: [0x3A, 0x00, 0x2D]) == .nak(0x0))    // end past the last page
        #expect(tag.reactivate() == true)
        #expect(tag.respond(to: [0x3A, 0x00, 0x2C]) == .frame(tag.memoryAsRead))
        #expect(tag.respond(to: [0xA2, 0x04, 1, 2, 3, 4]) == .frame([]))  // WRITE: ACK, as a PN53x passes it
        #expect(Array(tag.memory[16..<20]) == [1, 2, 3, 4])
        #expect(tag.respond(to: [0xA2, 0x2D, 1, 2, 3, 4]) == .nak(0x0))   // past the last page
        #expect(tag.reactivate() == true)
        #expect(tag.respond(to: [0xA2, 0x01, 1, 2, 3, 4]) == .nak(0x0))   // the UID is read-only
        #expect(tag.reactivate() == true)
        #expect(tag.respond(to: [0xA2, 0x03, 0x00, 0x00, 0x00, 0x0F]) == .frame([]))
        #expect(Array(tag.memory[12..<16]) == [0xE1, 0x10, 0x12, 0x0F])  // the CC is OTP: bits ORed in
    }

    @Test func ultralightHasNoFastRead() throws {
        var tag = try VirtualType2Tag(product: .ultralight, message: poster)
        #expect(tag.respond(to: [0x3A, 0x00, 0x03]) == .silence)
        #expect(tag.respond(to: [0x30, 0x00]) == .silence)
        #expect(tag.reactivate() == true)
        #expect(tag.respond(to: [0x30, 0x0E]) == .frame(Array(tag.memory[56..<64] + tag.memory[0..<8])))
    }

    @Test func removalAfterNCommands() throws {
        var tag = try VirtualType2Tag(product: .ntag215, message: poster, presence: FieldPresence(removeAfterCommands: 2))
        #expect(tag.respond(to: [0x60]) != .silence)
        #expect(tag.isPresent)
        #expect(tag.respond(to: [0x30, 0x04]) != .silence)
        #expect(!tag.isPresent)
        #expect(tag.respond(to: [0x30, 0x04]) == .silence)
        #expect(tag.reactivate() == false)
    }

    @Test func contentThatDoesNotFit() {
        #expect(throws: VirtualObjectError.doesNotFit(needed: 145, capacity: 144)) {
            try VirtualType2Tag(product: .ntag213, message: message(encodedSize: 143))
        }
    }

    @Test func transportMapsRepliesAndLinkLimits() async throws {
        let tag = try VirtualType2Tag(product: .ntag216, message: poster)
        let transport = InProcessTransport(tag, capabilities: pn532Link)
        #expect(try await transport.transceive([0x30, 0xFF]) == [0x00])           // NAK as one byte
        await #expect(throws: TransportError.timeout) { try await transport.transceive([0x30, 0x00]) }
        try await transport.reactivate()
        await #expect(throws: TransportError.protocolError("a 256-byte response overflows the link's 252 bytes")) {
            try await transport.transceive([0x3A, 0x00, 0x3F])
        }
        let storage = InProcessTransport(tag, capabilities: storageCardLink)
        await #expect(throws: TransportError.notSupported("GET_VERSION or FAST_READ")) { try await storage.transceive([0x60]) }
    }
}
