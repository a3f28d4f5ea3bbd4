import Foundation
import NDEF
@testable import NFCReaders
import NFCSim
import NFCTags
import Testing
import TestSupport

/// Reads through the reader's pass-through (ACR122U direct transmit, PC/SC Part 3 transparent
/// exchange) beside the storage-card-only reader, through the real pcsc-lite and a private pcscd
/// holding `nfcsim vpcd --reader …`. Each read prints its exchanges: `roundTrips` (the tag
/// protocol's commands) and `apdus` (every command APDU on the card, GET DATA for the UID, the
/// probe and the Part 3 session included).
@Suite(.serialized) struct PassThroughReaderTests {
    /// 853 text characters: an 862-byte message, a full NTAG216 (872 bytes of data area).
    static let fullNTAG216 = NDEFMessage(try! TextRecord(text: String(repeating: "Concert in the park. ", count: 40) + "Bring a chair").record())

    struct Read {
        var line: String
        var fields: [String: String]
        var ndef: String { fields["ndef"] ?? "" }
        func count(_ key: String) -> Int { fields[key].flatMap(Int.init) ?? -1 }
    }

    func read(_ arguments: [String], message: NDEFMessage) throws -> (Read?, RunResult) {
        let file = try PCSCReaderTests.messageFile(message)
        defer { try? FileManager.default.removeItem(at: file) }
        let pcscd = try PrivatePCSCD(nfcsim: arguments + ["--ndef", file.path, "--after", "0.5", "--for", "3"])
        defer { pcscd.stop() }
        let result = try PCSCRig.probe(["read", "15"], socket: pcscd.socket, timeout: 20)
        #expect(!result.timedOut, "\(result.output)\n\(pcscd.log)")
        guard let line = result.line(startingWith: "ndef=") else { return (nil, result) }
        var fields: [String: String] = [:]
        for pair in line.split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return (Read(line: line, fields: fields), result)
    }

    /// A full NTAG216 in each reader: through a pass-through, GET_VERSION, READ_SIG (its originality
    /// signature), FAST_READ of the CC and 48 bytes, then 4 more FAST_READs (63 pages a frame
    /// through the ACR122U, 62 through Part 3);
    /// on the storage-card reader, READ BINARY of 16 bytes from page 3 to page 220 (the TLV's end).
    /// APDUs besides: GET DATA for the UID; the ACR122U answers the first probe; the Part 3 reader
    /// refuses it, accepts Start Session (the second) and ends the session; the storage-card reader
    /// refuses both (6D 00 each).
    @Test(arguments: [("acr122u", "acr122u-direct-transmit", 7, 2, "NTAG216"), ("part3", "part3-transparent-exchange", 7, 4, "NTAG216"),
                      ("storage-card", "storage-card", 55, 3, "-")])
    func aFullNTAG216IsReadInAsFewExchangesAsTheReaderAllows(reader: String, link: String, roundTrips: Int, moreAPDUs: Int, product: String) throws {
        let (read, result) = try read(["--reader", reader, "--type", "ntag216"], message: Self.fullNTAG216)
        let got = try #require(read, "\(result.output)")
        #expect(got.ndef == Hex.string(Self.fullNTAG216.encoded()))
        #expect(got.fields["link"] == link && got.fields["product"] == product, "\(got.fields)")
        #expect(got.count("roundTrips") == roundTrips, "\(got.fields)")
        #expect(got.count("apdus") == roundTrips + moreAPDUs, "\(got.fields)")
        print("PC/SC \(reader) full NTAG216: roundTrips=\(got.count("roundTrips")) apdus=\(got.count("apdus")) readUs=\(got.fields["readUs"] ?? "?")")
    }

    /// The chip's originality signature (`nfcsim --signature`) through the ACR122U's direct
    /// transmit, as the chip answered READ_SIG; a storage-card reader cannot send READ_SIG (nor
    /// GET_VERSION, so it cannot name the chip either): nothing is sent, and the reading says so.
    @Test(arguments: [("acr122u", "signature:ntag21x:" + Hex.string(signature)), ("storage-card", "notCarried:ntag21x")])
    func theOriginalitySignatureCrossesAPassThroughOnly(reader: String, originality: String) throws {
        let message = NDEFMessage(URIRecord(uri: "https://example.com/genuine").record())
        let (read, result) = try read(["--reader", reader, "--type", "ntag213", "--signature", Hex.string(Self.signature)], message: message)
        let got = try #require(read, "\(result.output)")
        #expect(got.ndef == Hex.string(message.encoded()))
        #expect(got.fields["originality"] == originality, "\(got.line)")
        print("PC/SC \(reader) NTAG213 with its signature: roundTrips=\(got.count("roundTrips")) apdus=\(got.count("apdus")) readUs=\(got.fields["readUs"] ?? "?")")
    }

    static let signature = (0..<32).map { UInt8(0x3C ^ $0) }

    @Test(arguments: [("topaz512", "Topaz 512", "type1"), ("topaz96", "Topaz 96", "type1"), ("felica", "-", "type3")])
    func anACR122UReadsTypes1And3(type: String, product: String, platform: String) throws {
        let message = NDEFMessage(URIRecord(uri: "https://example.com/\(type)").record())
        let (read, result) = try read(["--reader", "acr122u", "--type", type], message: message)
        #expect(result.line(startingWith: "arrived ")?.contains("platform=\(platform)") == true, "\(result.output)")
        let got = try #require(read, "\(result.output)")
        #expect(got.ndef == Hex.string(message.encoded()))
        #expect(got.fields["link"] == "acr122u-direct-transmit" && got.line.contains(" product=\(product) "), "\(got.line)")
        #expect(got.count("apdus") == got.count("roundTrips") + 2, "\(got.fields)")
        print("PC/SC ACR122U \(type): roundTrips=\(got.count("roundTrips")) apdus=\(got.count("apdus"))")
    }

    @Test func aFeliCaDumpIsPresentedInAnACR122UAndRead() throws {
        let message = NDEFMessage(URIRecord(uri: "https://example.com/dumped-felica").record())
        let file = try DumpFiles.write(DumpFiles.flipperFeliCa(idm: VirtualType3Tag.defaultIDm, pmm: VirtualType3Tag.defaultPMm,
                                                               blocks: try VirtualType3Tag(message: message).memory), suffix: ".nfc")
        defer { try? FileManager.default.removeItem(at: file) }
        let pcscd = try PrivatePCSCD(nfcsim: ["--reader", "acr122u", "--dump", file.path, "--after", "0.5", "--for", "3"])
        defer { pcscd.stop() }
        let result = try PCSCRig.probe(["read", "15"], socket: pcscd.socket, timeout: 20)
        let line = try #require(result.line(startingWith: "ndef="), "\(result.output)\n\(pcscd.log)")
        #expect(line.hasPrefix("ndef=\(Hex.string(message.encoded())) ") && line.contains("link=acr122u-direct-transmit"), "\(line)")
    }

    @Test func aFeliCaObjectInAStorageCardReaderIsRefusedWithWhatToDo() throws {
        let message = NDEFMessage(URIRecord(uri: "https://example.com/felica").record())
        let (read, result) = try read(["--reader", "storage-card", "--type", "felica"], message: message)
        #expect(read == nil)
        let refusal = try #require(result.line(startingWith: "readError="), "\(result.output)")
        #expect(refusal.contains("Type 3") && refusal.contains("ACR122U direct transmit"), "\(refusal)")
    }

    @Test func probeAnswersAndPassThroughFrames() throws {
        #expect(ReaderPassThrough.answersDirectTransmit([0xD5, 0x03, 0x32, 0x01, 0x06, 0x07, 0x90, 0x00]))
        #expect(!ReaderPassThrough.answersDirectTransmit([0x6D, 0x00]))
        #expect(!ReaderPassThrough.answersDirectTransmit([0x63, 0x00]))
        #expect(ReaderPassThrough.sessionAccepted([0xC0, 0x03, 0x00, 0x90, 0x00, 0x90, 0x00]))
        #expect(!ReaderPassThrough.sessionAccepted([0x6A, 0x81]))
        #expect(!ReaderPassThrough.sessionAccepted([0xC0, 0x03, 0x01, 0x6A, 0x81, 0x90, 0x00]))
        let direct = ReaderPassThrough.directTransmit
        #expect(direct.command([0x30, 0x04], platform: .type2) == [0xFF, 0x00, 0x00, 0x00, 0x04, 0xD4, 0x42, 0x30, 0x04])
        #expect(direct.command([0x78], platform: .type1) == [0xFF, 0x00, 0x00, 0x00, 0x04, 0xD4, 0x40, 0x01, 0x78])
        #expect(try direct.answer([0xD5, 0x43, 0x00, 0x01, 0x02, 0x90, 0x00], platform: .type2) == [0x01, 0x02])
        #expect(throws: TransportError.timeout) { try direct.answer([0xD5, 0x43, 0x01, 0x90, 0x00], platform: .type2) }
        #expect(try direct.answer([0xD5, 0x43, 0x02, 0x90, 0x00], platform: .type2) == [0x00])
        #expect(throws: TransportError.timeout) { try direct.answer([0x63, 0x00], platform: .type2) }
        let part3 = ReaderPassThrough.transparentExchange
        #expect(part3.command([0x60], platform: .type2)
                == [0xFF, 0xC2, 0x00, 0x01, 0x0A, 0x5F, 0x46, 0x04, 0xA0, 0x86, 0x01, 0x00, 0x95, 0x01, 0x60, 0x00])
        #expect(try part3.answer([0xC0, 0x03, 0x00, 0x90, 0x00, 0x97, 0x02, 0xAA, 0xBB, 0x90, 0x00], platform: .type2) == [0xAA, 0xBB])
        #expect(throws: TransportError.timeout) { try part3.answer([0xC0, 0x03, 0x02, 0x64, 0x01, 0x90, 0x00], platform: .type2) }
        #expect(throws: TransportError.self) { try part3.answer([0xC0, 0x03, 0x00, 0x90, 0x00, 0x97, 0x05, 0xAA, 0x90, 0x00], platform: .type2) }
    }
}
