import NDEF
import NDEFReport
import Testing

@Suite struct JSONWriterTests {
    @Test func escapesEverythingATerminalWouldInterpret() {
        let hostile = "a\u{1B}[2J\u{7}b\u{202E}c\u{2066}d\u{85}e\u{2028}\"\\\n"
        #expect(JSONWriter.string(.string(hostile)) == #""a\u001b[2J\u0007b\u202ec\u2066d\u0085e\u2028\"\\\n""#)
    }

    @Test func keepsOrdinaryUnicode() {
        #expect(JSONWriter.string(.string("你好 🙂 é")) == "\"你好 🙂 é\"")
    }

    @Test func writesTreesCompactlyInFieldOrder() {
        let value = ReportValue.object([.init("b", .int(-3)), .init("a", .array([.bool(true), .string("x")])), .init("c", .object([]))])
        #expect(JSONWriter.string(value) == #"{"b":-3,"a":[true,"x"],"c":{}}"#)
    }
}

@Suite struct DisplayTextTests {
    @Test func neutralisesControlAndBidiAndShortens() {
        #expect(DisplayText.sanitized("ok\u{1B}[31mred\u{202E}txt.exe") == "ok\\u{1b}[31mred\\u{202e}txt.exe")
        #expect(DisplayText.sanitized(String(repeating: "a", count: 10), maxCharacters: 4) == "aaaa…")
        #expect(DisplayText.sanitized("👩‍👩‍👧 ok", maxCharacters: 2) == "👩‍👩‍👧 …")
    }
}

@Suite struct MessageReportTests {
    func report(_ text: String, strict: Bool = true) throws -> ReportValue {
        let bytes = try Hex.decode(text).get()
        let parsed = try NDEFParser(mode: strict ? .strict : .lenient).parse(bytes)
        return try MessageReport(strict: strict).report(parsed.message, layouts: parsed.layouts)
    }

    @Test func uriRecordFields() throws {
        let json = JSONWriter.string(try report("d1010c55036578616d706c652e636f6d"))
        #expect(json == #"{"records":[{"tnf":"well-known","type":"U","id":"","payload":"036578616d706c652e636f6d","kind":"uri","uri":"http://example.com","prefix_code":3}]}"#)
    }

    @Test func mediaAndExternalAlwaysNameTheirType() throws {
        let records = try report("92 09 01 696d6167652f504e47 00  54 0d 00 6578616d706c652e636f6d3a78".replacingSpaces())["records"]?.arrayValue ?? []
        #expect(records.count == 2)
        #expect(records[0]["kind"]?.stringValue == "media")
        #expect(records[0]["mime_type"]?.stringValue == "image/png")
        #expect(records[1]["kind"]?.stringValue == "external")
        #expect(records[1]["domain_type"]?.stringValue == "example.com:x")
    }

    @Test func chunkedRecordsAreMarked() throws {
        let record = try report("b2 03 02 742f70 abcd 56 00 01 ef")["records"]?.arrayValue?.first
        #expect(record?["chunked"] == .bool(true))
        #expect(record?["payload"]?.stringValue == "abcdef")
    }

    @Test func badPayloadFailsStrictAndIsFlaggedLeniently() throws {
        // URI record with reserved identifier code 0x40 at input byte 4.
        #expect(throws: NDEFError.invalidPayload(type: "U", problem: .invalidValue(field: "identifier code", value: 64), offset: 4)) {
            _ = try report("d1010255 4061")
        }
        let record = try report("d1010255 4061", strict: false)["records"]?.arrayValue?.first
        #expect(record?["kind"] == nil)
        #expect(record?["error"]?.stringValue == "invalid 'U' payload: identifier code has invalid value 64 at byte 4")
    }

    @Test func smartPosterNestsItsRecords() throws {
        let poster = try SmartPoster(uri: URIRecord(uri: "https://example.com"), titles: [TextRecord(text: "Hi")], action: .edit)
        let bytes = NDEFMessage(poster.record()).encoded()
        let value = try MessageReport().report(try NDEFMessage(decoding: bytes))
        let record = value["records"]?.arrayValue?.first
        #expect(record?["kind"]?.stringValue == "smart-poster")
        #expect(record?["uri"]?.stringValue == "https://example.com")
        #expect(record?["action"]?.stringValue == "edit")
        #expect(record?["titles"] == .array([.object([.init("language", .string("en")), .init("text", .string("Hi"))])]))
        #expect(record?["records"]?.arrayValue?.count == 3)
        #expect(record?["records"]?.arrayValue?[2]["type"]?.stringValue == "act")
    }
}

extension String {
    func replacingSpaces() -> String { String(filter { $0 != " " }) }
}
