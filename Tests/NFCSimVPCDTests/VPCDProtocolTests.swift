import NDEF
import NFCSim
import NFCTags
import Testing

struct VPCDMessageTests {
    @Test func controlCodesAndAPDUsAreFramedWithABigEndianLength() {
        #expect(VPCDMessage.control(.getATR).encoded == [0x00, 0x01, 0x04])
        #expect(VPCDMessage.control(.powerOff).encoded == [0x00, 0x01, 0x00])
        #expect(VPCDMessage.apdu([0xFF, 0xCA, 0x00, 0x00, 0x00]).encoded == [0x00, 0x05, 0xFF, 0xCA, 0x00, 0x00, 0x00])
        #expect(VPCDFraming.frame([UInt8](repeating: 0xAB, count: 0x1234)).prefix(2) == [0x12, 0x34])
    }

    @Test func oneBytePayloadsAreControlCodesAndOthersAPDUs() {
        #expect(VPCDMessage(payload: [0x00]) == .control(.powerOff))
        #expect(VPCDMessage(payload: [0x01]) == .control(.powerOn))
        #expect(VPCDMessage(payload: [0x02]) == .control(.reset))
        #expect(VPCDMessage(payload: [0x04]) == .control(.getATR))
        #expect(VPCDMessage(payload: [0x03]) == .unknownControl(0x03))
        #expect(VPCDMessage(payload: [0x00, 0xA4]) == .apdu([0x00, 0xA4]))
    }

    @Test func theDecoderCopesWithAnyChunking() {
        let messages: [VPCDMessage] = [.control(.powerOn), .control(.getATR), .apdu([0xFF, 0xB0, 0x00, 0x04, 0x10]),
                                       .apdu([UInt8](repeating: 0x5A, count: 300)), .control(.powerOff)]
        let wire = messages.flatMap(\.encoded)
        for chunk in [1, 2, 3, 7, wire.count] {
            var decoder = VPCDMessageDecoder()
            var out: [VPCDMessage] = []
            for start in stride(from: 0, to: wire.count, by: chunk) {
                out += decoder.feed(wire[start..<min(wire.count, start + chunk)])
            }
            #expect(out == messages, "chunks of \(chunk)")
            #expect(decoder.pendingByteCount == 0)
        }
        var decoder = VPCDMessageDecoder()
        #expect(decoder.feed([0x00]).isEmpty)
        #expect(decoder.feed([0x03, 0x01]).isEmpty)
        #expect(decoder.pendingByteCount == 3)
    }
}

struct ContactlessATRTests {
    @Test func theStorageCardATRIsPart3s() {
        // Docs/design/simulators.md §3.4, smartcard_list.txt "MIFARE Ultralight (as per PCSC std part3)".
        #expect(ContactlessATR.storageCard(standard: .iso14443APart3, cardName: ContactlessATR.CardName.mifareUltralight)
                == [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x68])
        #expect(ContactlessATR.storageCard(standard: .iso14443APart3, cardName: ContactlessATR.CardName.mifareClassic1K).last == 0x6A)
        #expect(ContactlessATR.storageCard(standard: .felica, cardName: ContactlessATR.CardName.felica).last == 0x42)
    }

    @Test func theISODEPATRCarriesTheATSHistoricalBytes() {
        #expect(ContactlessATR.historicalBytes(ofATS: [0x06, 0x75, 0x77, 0x81, 0x02, 0x80]) == [0x80])
        #expect(ContactlessATR.historicalBytes(ofATS: [0x05, 0x78, 0x80, 0x70, 0x02]) == [])
        #expect(ContactlessATR.historicalBytes(ofATS: [0x07, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05]) == [0x01, 0x02, 0x03, 0x04, 0x05])
        #expect(ContactlessATR.historicalBytes(ofATS: [0x01]) == [])
        // smartcard_list.txt: "NXP DESFire" and the ATR with no historical bytes.
        #expect(ContactlessATR.isoDEP(historicalBytes: [0x80]) == [0x3B, 0x81, 0x80, 0x01, 0x80, 0x80])
        #expect(ContactlessATR.isoDEP(historicalBytes: []) == [0x3B, 0x80, 0x80, 0x01, 0x01])
    }
}

struct VPCDType2CardTests {
    static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
    static let message = NDEFMessage(URIRecord(uri: "https://example.com/poster").record())

    static func card(_ product: Type2Product = .ntag213, presence: FieldPresence = FieldPresence()) throws -> VPCDType2Card {
        VPCDType2Card(tag: try VirtualType2Tag(product: product, uid: uid, message: message, presence: presence))
    }

    static func send(_ card: inout VPCDType2Card, _ apdu: [UInt8]) -> [UInt8]? {
        guard case .send(let reply) = card.handle(.apdu(apdu)) else { return nil }
        return reply
    }

    @Test func controlCodes() throws {
        var card = try Self.card()
        #expect(card.handle(.control(.getATR)) == .send(card.atr))
        #expect(card.handle(.control(.powerOn)) == VPCDCardReply.none)
        #expect(card.handle(.control(.reset)) == VPCDCardReply.none)
        #expect(card.handle(.control(.powerOff)) == VPCDCardReply.none)
        #expect(card.handle(.unknownControl(0x07)) == VPCDCardReply.none)
    }

    @Test func getDataAnswersTheUID() throws {
        var card = try Self.card()
        #expect(Self.send(&card, [0xFF, 0xCA, 0x00, 0x00, 0x00]) == Self.uid + [0x90, 0x00])
        #expect(Self.send(&card, [0xFF, 0xCA, 0x00, 0x00]) == Self.uid + [0x90, 0x00])
        #expect(Self.send(&card, [0xFF, 0xCA, 0x00, 0x00, 0x07]) == Self.uid + [0x90, 0x00])
        #expect(Self.send(&card, [0xFF, 0xCA, 0x00, 0x00, 0x04]) == [0x6C, 0x07], "Le too short: 6C with the length")
        #expect(Self.send(&card, [0xFF, 0xCA, 0x00, 0x00, 0x0A]) == Self.uid + [0x62, 0x82], "Le too long: the UID and 62 82")
        #expect(Self.send(&card, [0xFF, 0xCA, 0x01, 0x00, 0x00]) == [0x6A, 0x81], "no ATS on a storage card")
        #expect(Self.send(&card, [0xFF, 0xCA, 0x00, 0x01, 0x00]) == [0x6A, 0x81])
    }

    @Test func readBinaryReturnsPagesAsTheChipHoldsThem() throws {
        var card = try Self.card()
        let memory = card.tag.memory
        #expect(Self.send(&card, [0xFF, 0xB0, 0x00, 0x00, 0x10]) == Array(memory[0..<16]) + [0x90, 0x00])
        #expect(Self.send(&card, [0xFF, 0xB0, 0x00, 0x04, 0x00]) == Array(memory[16..<32]) + [0x90, 0x00], "Le 00 means 16")
        #expect(Self.send(&card, [0xFF, 0xB0, 0x00, 0x05, 0x04]) == Array(memory[20..<24]) + [0x90, 0x00])
        #expect(Self.send(&card, [0xFF, 0xB0, 0x00, 0x03, 0x06]) == Array(memory[12..<18]) + [0x90, 0x00])
        // The data area starts with the NDEF TLV of the message.
        let encoded = Self.message.encoded()
        var read: [UInt8] = []
        for page in stride(from: 4, to: 4 + (encoded.count + 2 + 15) / 4, by: 4) {
            let reply = try #require(Self.send(&card, [0xFF, 0xB0, 0x00, UInt8(page), 0x10]))
            #expect(reply.suffix(2) == [0x90, 0x00])
            read += reply.dropLast(2)
        }
        #expect(Array(read.prefix(encoded.count + 2)) == [0x03, UInt8(encoded.count)] + encoded)
    }

    @Test func readBinaryStatusWordsAsReadersGiveThem() throws {
        var card = try Self.card()            // NTAG213: pages 0 to 44
        let memory = card.tag.memory
        #expect(Self.send(&card, [0xFF, 0xB0, 0x00, 0x2C, 0x10]) == Array(memory[176..<180]) + [0x62, 0x82], "no wrap-around past the last page")
        #expect(Self.send(&card, [0xFF, 0xB0, 0x00, 0x2D, 0x10]) == [0x6A, 0x82], "page past the end")
        #expect(Self.send(&card, [0xFF, 0xB0, 0x01, 0x00, 0x10]) == [0x6A, 0x82], "P1 is the page number's high byte")
        #expect(Self.send(&card, [0xFF, 0xB0, 0x00, 0x00, 0x20]) == [0x6C, 0x10], "Le over the reader's limit")
        #expect(Self.send(&card, [0xFF, 0xB0, 0x00, 0x00, 0x01, 0x00, 0x10]) == [0x67, 0x00], "data in a read")
        #expect(Self.send(&card, [0xFF, 0xB0, 0x00, 0x00, 0x00, 0x00, 0x10]) == [0x67, 0x00], "extended length")
        #expect(Self.send(&card, [0xFF, 0xB0, 0x00, 0x00]) == [0x67, 0x00], "no Le")
        #expect(Self.send(&card, [0xFF, 0xB0, 0x00, 0x00, 0x00, 0x01, 0x01]) == [0x67, 0x00], "extended Le")
        #expect(Self.send(&card, [0xFF, 0x82, 0x00, 0x00, 0x06, 1, 2, 3, 4, 5, 6]) == [0x6D, 0x00], "other reader instructions")
        #expect(Self.send(&card, [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00]) == [0x6A, 0x81],
                "a storage card has no APDU layer")
        #expect(Self.send(&card, [0xFF, 0xB0]) == [0x67, 0x00], "malformed")
    }

    /// UPDATE BINARY is one WRITE: 90 00 for the chip's ACK, 63 00 for its NAK (a UID page, a
    /// locked page), as ACR122U-class readers answer.
    @Test func updateBinaryWritesOnePage() throws {
        var card = try Self.card()
        #expect(Self.send(&card, [0xFF, 0xD6, 0x00, 0x10, 0x04, 1, 2, 3, 4]) == [0x90, 0x00])
        #expect(Array(card.tag.memory[64..<68]) == [1, 2, 3, 4])
        #expect(Self.send(&card, [0xFF, 0xD6, 0x00, 0x00, 0x04, 1, 2, 3, 4]) == [0x63, 0x00], "the UID page")
        #expect(Self.send(&card, [0xFF, 0xD6, 0x00, 0x02, 0x04, 0, 0, 0x10, 0x00]) == [0x90, 0x00], "lock page 4")
        #expect(Self.send(&card, [0xFF, 0xD6, 0x00, 0x04, 0x04, 1, 2, 3, 4]) == [0x63, 0x00], "a locked page")
        #expect(Self.send(&card, [0xFF, 0xD6, 0x00, 0x2D, 0x04, 1, 2, 3, 4]) == [0x6A, 0x82], "page past the end")
        #expect(Self.send(&card, [0xFF, 0xD6, 0x00, 0x05, 0x02, 1, 2]) == [0x67, 0x00], "not one page")
    }

    @Test func aReaderWithALargerLimitAssemblesSeveralReads() throws {
        var card = try Self.card(.ntag216)
        card.maxReadLength = 0xF0
        let memory = card.tag.memoryAsRead
        let before = card.chipCommands
        #expect(Self.send(&card, [0xFF, 0xB0, 0x00, 0x04, 0xF0]) == Array(memory[16..<256]) + [0x90, 0x00])
        #expect(card.chipCommands - before == 15, "240 bytes take 15 READs of 16")
        #expect(Self.send(&card, [0xFF, 0xB0, 0x00, 0x03, 0x05]) == Array(memory[12..<17]) + [0x90, 0x00])
        #expect(Self.send(&card, [0xFF, 0xB0, 0x00, 0xE0, 0xF0]) == Array(memory[(0xE0 * 4)...]) + [0x62, 0x82])
    }

    @Test func anObjectLeavingMidReadClosesTheConnection() throws {
        var card = try Self.card(presence: FieldPresence(removeAfterCommands: 2))
        #expect(Self.send(&card, [0xFF, 0xB0, 0x00, 0x04, 0x10]) != nil)
        #expect(Self.send(&card, [0xFF, 0xB0, 0x00, 0x08, 0x10]) != nil)
        #expect(card.handle(.apdu([0xFF, 0xB0, 0x00, 0x0C, 0x10])) == .leave)
        #expect(card.handle(.control(.getATR)) == .leave)
    }
}

struct VPCDType4CardTests {
    static let message = NDEFMessage(URIRecord(uri: "https://example.com/poster").record())

    static func send(_ card: inout VPCDType4Card, _ apdu: [UInt8]) -> [UInt8]? {
        guard case .send(let reply) = card.handle(.apdu(apdu)) else { return nil }
        return reply
    }

    @Test func isoDEPCardAnswersAsTheObjectDoes() throws {
        var card = VPCDType4Card(object: try VirtualType4Tag(message: Self.message))
        #expect(card.atr == [0x3B, 0x81, 0x80, 0x01, 0x80, 0x80])
        #expect(Self.send(&card, [0xFF, 0xCA, 0x00, 0x00, 0x00]) == VirtualType4Tag.pn532DefaultUID + [0x90, 0x00])
        #expect(Self.send(&card, [0xFF, 0xCA, 0x01, 0x00, 0x00]) == [0x80, 0x90, 0x00], "the ATS historical bytes")
        #expect(Self.send(&card, [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00]) == [0x90, 0x00])
        #expect(Self.send(&card, [0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04]) == [0x90, 0x00])
        let encoded = Self.message.encoded()
        #expect(Self.send(&card, [0x00, 0xB0, 0x00, 0x00, UInt8(2 + encoded.count)]) == [0x00, UInt8(encoded.count)] + encoded + [0x90, 0x00])
        // Power on again: nothing stays selected.
        #expect(card.handle(.control(.reset)) == VPCDCardReply.none)
        #expect(Self.send(&card, [0x00, 0xB0, 0x00, 0x00, 0x02]) == [0x69, 0x86])
    }
}
