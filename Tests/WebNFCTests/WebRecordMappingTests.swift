import NDEF
import NDEFReport
import Testing
import TestSupport
@testable import WebNFC

/// Records as the Web NFC specification maps them to NDEF ("create an NDEF message") and back
/// ("parse an NDEF record"), case by case.
@Suite struct WebRecordMappingTests {
    func written(_ records: [WebRecord]) throws -> [UInt8] { try WebRecordMapping.message(records).encoded() }
    func read(_ bytes: [UInt8]) throws -> [WebRecord] { WebRecordMapping.records(try NDEFMessage(decoding: bytes)) }

    @Test func textIsWrittenWithItsEncodingBitAndLanguage() throws {
        #expect(try written([WebRecord(recordType: "text", lang: "en", data: Array("hi".utf8))]) == hex("d1 01 05 54 02 65 6e 68 69"))
        let utf16 = try written([WebRecord(recordType: "text", encoding: "utf-16be", lang: "fr", data: [0x00, 0x68])])
        #expect(utf16 == hex("d1 01 05 54 82 66 72 00 68"))
        #expect(throws: WebRecordMapping.Refusal.self) { try written([WebRecord(recordType: "text", encoding: "latin1", data: [0x41])]) }
        #expect(throws: WebRecordMapping.Refusal.self) {
            try written([WebRecord(recordType: "text", lang: String(repeating: "a", count: 64), data: [0x41])])
        }
    }

    /// Found by the fuzzer: a text record whose language is empty.
    @Test func aTextRecordWithoutALanguageReads() throws {
        #expect(try read(hex("d1 01 02 54 00 68")) == [WebRecord(recordType: "text", encoding: "utf-8", lang: "", data: [0x68])])
        #expect(try read(hex("d1 01 01 54 05")) == [], "a language longer than the payload is no text record")
    }

    @Test func textReadsBackAsThePageWroteIt() throws {
        let records = try read(hex("d1 01 05 54 82 66 72 00 68"))
        #expect(records == [WebRecord(recordType: "text", encoding: "utf-16be", lang: "fr", data: [0x00, 0x68])])
    }

    @Test func urlsAreAbbreviatedOnWriteAndExpandedOnRead() throws {
        let bytes = try written([WebRecord(recordType: "url", data: Array("https://example.com/a".utf8))])
        #expect(bytes == hex("d1 01 0e 55 04") + Array("example.com/a".utf8))
        #expect(try read(bytes) == [WebRecord(recordType: "url", data: Array("https://example.com/a".utf8))])
    }

    @Test func mimeAbsoluteURLUnknownAndEmpty() throws {
        let records = [WebRecord(recordType: "mime", mediaType: "application/json", data: Array("{}".utf8)),
                       WebRecord(recordType: "absolute-url", data: Array("https://example.com/t".utf8)),
                       WebRecord(recordType: "unknown", data: [1, 2]),
                       WebRecord(recordType: "empty")]
        let message = try WebRecordMapping.message(records)
        #expect(message.records.map(\.tnf) == [.media, .absoluteURI, .unknown, .empty])
        #expect(try read(message.encoded()) == records)
    }

    @Test func externalTypesCarryDataOrRecords() throws {
        let plain = WebRecord(recordType: "example.com:badge", data: [9])
        #expect(try read(written([plain])) == [WebRecord(recordType: "example.com:badge", data: [9])])
        let nested = WebRecord(recordType: "example.com:item",
                               records: [WebRecord(recordType: ":name", data: Array("tea".utf8)), WebRecord(recordType: "text", encoding: "utf-8", lang: "en", data: Array("x".utf8))])
        let back = try read(written([nested]))
        #expect(back.first?.recordType == "example.com:item")
        #expect(back.first?.records == nested.records)
        #expect(throws: WebRecordMapping.Refusal.self) { try written([WebRecord(recordType: "example.com:", data: [1])]) }
        #expect(throws: WebRecordMapping.Refusal.self) { try written([WebRecord(recordType: "example.com:a/b", data: [1])]) }
        #expect(throws: WebRecordMapping.Refusal.self) {
            try written([WebRecord(recordType: "example.com:x", data: [1], records: [WebRecord(recordType: "empty")])])
        }
    }

    /// The specification's own example: a domain stored as Punycode reads in Unicode.
    @Test func anExternalTypesDomainReadsInUnicode() throws {
        let stored = NDEFMessage(records: [NDEFRecord(tnf: .external, type: "xn--hndvrker-9zan.dk:abc", payload: [1])])
        #expect(WebRecordMapping.records(stored).map(\.recordType) == ["håndværker.dk:abc"])
        #expect(Punycode.unicodeDomain("xn--mnchen-3ya.Example") == "münchen.example")
        for bad in ["xn--", "xn--a-", "xn--99999999999999999999", "xn--a" + String(repeating: "9", count: 70)] {
            #expect(Punycode.unicodeDomain(bad[...]) == nil, "\(bad)")
        }
        let refused = NDEFMessage(records: [NDEFRecord(tnf: .external, type: "xn--99999999999999999999.dk:abc", payload: [1])])
        #expect(WebRecordMapping.records(refused).isEmpty)
    }

    @Test func smartPostersHoldTheirOwnLocalTypes() throws {
        let poster = WebRecord(recordType: "smart-poster", records: [
            WebRecord(recordType: "url", data: Array("https://example.com".utf8)),
            WebRecord(recordType: ":act", data: [0]),
            WebRecord(recordType: ":s", data: [0, 0, 1, 0]),
            WebRecord(recordType: ":t", data: Array("text/html".utf8)),
        ])
        let back = try read(written([poster]))
        #expect(back.first?.recordType == "smart-poster")
        #expect(back.first?.records == poster.records)
        for bad in [WebRecord(recordType: ":act", data: [0, 1]), WebRecord(recordType: ":s", data: [0, 0, 0, 0, 1]),
                    WebRecord(recordType: "absolute-url", data: Array("https://example.com".utf8))] {
            #expect(throws: WebRecordMapping.Refusal.self) { try written([WebRecord(recordType: "smart-poster", records: [bad])]) }
        }
    }

    @Test func whatTheSpecificationRefusesIsATypeError() {
        let refused: [[WebRecord]] = [
            [],
            [WebRecord(recordType: ":local", data: [1])],
            [WebRecord(recordType: ":Upper", data: [1])],
            [WebRecord(recordType: "empty", id: "x")],
            [WebRecord(recordType: "text", mediaType: "text/plain", data: [1])],
            [WebRecord(recordType: "url", encoding: "utf-8", data: Array("https://a".utf8))],
            [WebRecord(recordType: "url", data: [0xff, 0xfe])],
            [WebRecord(recordType: "smart-poster", data: [1])],
            [WebRecord(recordType: "mime", data: nil)],
            [WebRecord(recordType: "nonsense", data: [1])],
            [WebRecord(recordType: "text", id: String(repeating: "i", count: 256), data: [1])],
        ]
        for records in refused {
            #expect(throws: WebRecordMapping.Refusal.self, "\(records)") { try WebRecordMapping.message(records) }
        }
    }

    @Test func nestingDeeperThanTheSpecificationsBoundIsRefused() {
        var record = WebRecord(recordType: "example.com:x", data: [1])
        for _ in 0...WebRecordMapping.maximumDepth { record = WebRecord(recordType: "example.com:x", records: [record]) }
        #expect(throws: WebRecordMapping.Refusal.self) { try WebRecordMapping.message([record]) }
    }

    @Test func recordsThePageIsNotShownAreLeftOut() throws {
        // A top-level signature record (well-known Sig) and an unchanged TNF are not Web NFC records.
        let message = NDEFMessage(records: [NDEFRecord(tnf: .wellKnown, type: "Sig", payload: [0x20]),
                                            NDEFRecord(tnf: .wellKnown, type: "U", payload: hex("04") + Array("a.example".utf8))])
        #expect(WebRecordMapping.records(message).map(\.recordType) == ["url"])
    }

    @Test func aReportBecomesAReadingWithItsSerialNumber() {
        let report = ReportValue.object([
            .init("records", .array([.object([.init("tnf", .string("well-known")), .init("type", .string("U")),
                                              .init("id", .string("")), .init("payload", .string("046578616d706c652e636f6d"))])])),
            .init("object", .object([.init("uid", .string("04a1b2c3d4e5f6"))])),
        ])
        let reading = WebRecordMapping.reading(report)
        #expect(reading.serialNumber == "04:a1:b2:c3:d4:e5:f6")
        #expect(reading.records == [WebRecord(recordType: "url", data: Array("https://example.com".utf8))])
    }
}
