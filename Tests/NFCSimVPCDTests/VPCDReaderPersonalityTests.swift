import NDEF
import NFCSim
import NFCTags
import Testing

/// The readers `nfcsim vpcd --reader` plays, answering APDUs as the ACR122U and a PC/SC Part 3
/// reader do (without pcscd: the card's answers to the bytes pcscd would pass).
struct VPCDReaderPersonalityTests {
    static let message = NDEFMessage(URIRecord(uri: "https://example.com/reader").record())

    func ntag213() throws -> VPCDType2Card {
        VPCDType2Card(tag: try VirtualType2Tag(product: .ntag213, message: Self.message))
    }

    @Test func theACR122UPassesPN532CommandsAndAnswersItsOwnWay() throws {
        var reader = VPCDACR122U(card: try ntag213())
        // PN532 GetFirmwareVersion, then GET_VERSION through InCommunicateThru.
        #expect(reader.transmit([0xFF, 0x00, 0x00, 0x00, 0x02, 0xD4, 0x02]) == [0xD5, 0x03, 0x32, 0x01, 0x06, 0x07, 0x90, 0x00])
        let versionAnswer = reader.transmit([0xFF, 0x00, 0x00, 0x00, 0x03, 0xD4, 0x42, 0x60])
        let version = try #require(versionAnswer)
        #expect(version.prefix(3) == [0xD5, 0x43, 0x00] && version.count == 3 + 8 + 2 && version.suffix(2) == [0x90, 0x00])
        // FAST_READ of pages 0-3 through InDataExchange on target 1 (the reader listed it).
        let pagesAnswer = reader.transmit([0xFF, 0x00, 0x00, 0x00, 0x06, 0xD4, 0x40, 0x01, 0x3A, 0x00, 0x03])
        let pages = try #require(pagesAnswer)
        #expect(pages.count == 3 + 16 + 2 && pages[7] == reader.card.tag.uid[3])
        // The firmware version has no status word; LED and PICC parameter answer 90 XX.
        #expect(reader.transmit([0xFF, 0x00, 0x48, 0x00, 0x00]) == Array("ACR122U207".utf8))
        #expect(reader.transmit([0xFF, 0x00, 0x40, 0x0D, 0x04, 0x01, 0x01, 0x01, 0x01]) == [0x90, 0x01])
        #expect(reader.transmit([0xFF, 0x00, 0x50, 0x00, 0x00]) == [0x90, 0xFF])
        #expect(reader.transmit([0xFF, 0x00, 0x51, 0x7F, 0x00]) == [0x90, 0x7F])
        // Not a PN532 command: 63 00; Lc not matching the data: 67 00; Part 3: unknown instruction.
        #expect(reader.transmit([0xFF, 0x00, 0x00, 0x00, 0x02, 0x00, 0x84]) == [0x63, 0x00])
        #expect(reader.transmit([0xFF, 0x00, 0x00, 0x00, 0x05, 0xD4, 0x02]) == [0x67, 0x00])
        #expect(reader.transmit(ReaderPassThrough.startSession) == [0x6D, 0x00])
        // Storage-card APDUs still answer.
        #expect(reader.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00]) == reader.card.tag.uid + [0x90, 0x00])
        #expect(reader.directTransmits == 3)
    }

    @Test func aPart3ReaderRunsSessionsAndTransparentExchanges() throws {
        var reader = VPCDPart3Reader(card: try ntag213())
        #expect(reader.transmit(ReaderPassThrough.startSession) == [0xC0, 0x03, 0x00, 0x90, 0x00, 0x90, 0x00])
        #expect(reader.sessionOpen)
        let readAnswer = reader.transmit(ReaderPassThrough.transparentExchange.command([0x30, 0x00], platform: .type2))
        let read = try #require(readAnswer)
        #expect(read.prefix(7) == [0xC0, 0x03, 0x00, 0x90, 0x00, 0x97, 0x10] && read.count == 7 + 16 + 2)
        // A READ past the end: the NTAG's NAK as one byte.
        let nakAnswer = reader.transmit(ReaderPassThrough.transparentExchange.command([0x30, 0xF0], platform: .type2))
        let nak = try #require(nakAnswer)
        #expect(nak == [0xC0, 0x03, 0x00, 0x90, 0x00, 0x97, 0x01, 0x00, 0x90, 0x00])
        // The chip is IDLE after a NAK: no answer, 64 01 at the 95 object's place (2nd).
        let silentAnswer = reader.transmit(ReaderPassThrough.transparentExchange.command([0x30, 0x00], platform: .type2))
        let silent = try #require(silentAnswer)
        #expect(silent == [0xC0, 0x03, 0x02, 0x64, 0x01, 0x90, 0x00])
        // An unknown data object; a wrong P2; direct transmit is no Part 3 command.
        #expect(reader.transmit([0xFF, 0xC2, 0x00, 0x00, 0x02, 0x99, 0x00, 0x00]) == [0xC0, 0x03, 0x01, 0x6A, 0x81, 0x90, 0x00])
        #expect(reader.transmit([0xFF, 0xC2, 0x00, 0x07, 0x00]) == [0x6A, 0x86])
        #expect(reader.transmit([0xFF, 0xC2, 0x00, 0x01, 0x02, 0x95, 0x05, 0x00]) == [0x67, 0x00])
        #expect(reader.transmit(ReaderPassThrough.directTransmitProbe) == [0x6D, 0x00])
        #expect(reader.transmit(ReaderPassThrough.endSession) == [0xC0, 0x03, 0x00, 0x90, 0x00, 0x90, 0x00])
        #expect(!reader.sessionOpen)
    }

    @Test func topazAndFeliCaAnswerOnlyGetDataAsStorageCards() throws {
        var topaz = try VirtualType1Tag(product: .topaz96, message: Self.message).vpcdCard
        #expect(topaz.atr == ContactlessATR.storageCard(standard: .iso14443APart3, cardName: 0x0030))
        #expect(topaz.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00]) == VirtualType1Tag.defaultUID + [0x90, 0x00])
        #expect(topaz.transmit([0xFF, 0xB0, 0x00, 0x00, 0x10]) == [0x6A, 0x81])
        var felica = try VirtualType3Tag(message: Self.message).vpcdCard
        #expect(felica.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00]) == VirtualType3Tag.defaultIDm + [0x90, 0x00])
        #expect(felica.transmit([0xFF, 0xB0, 0x00, 0x00, 0x10]) == [0x6A, 0x81])
    }

    @Test func berDataObjectsRoundTripAndRefuseCutShortInput() {
        let objects = [BERDataObject(tag: 0x5F46, value: [1, 2, 3, 4]), BERDataObject(tag: 0x95, value: Array(repeating: 7, count: 200)),
                       BERDataObject(tag: 0x97, value: Array(repeating: 9, count: 300))]
        #expect(BERDataObject.parse(objects.flatMap(\.encoded)) == objects)
        #expect(BERDataObject.parse([0x95, 0x05, 0x00]) == nil)
        #expect(BERDataObject.parse([0x5F]) == nil)
        #expect(BERDataObject.parse([0x97, 0x83, 0x00, 0x00, 0x01, 0x00]) == nil)
    }
}
