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
        return MessageReport().report(parsed.message, layouts: parsed.layouts)
    }

    @Test func uriRecordFields() throws {
        let json = JSONWriter.string(try report("d1010c55036578616d706c652e636f6d"))
        #expect(json == #"{"records":[{"tnf":"well-known","type":"U","id":"","payload":"036578616d706c652e636f6d","kind":"uri","uri":"http://example.com","prefix_code":3}]}"#)
    }

    /// Issue 23: a URI record whose link holds a control character is reported with `error`, its
    /// raw payload kept, and no `uri` anything could open.
    @Test func uriWithControlCharactersIsAnError() throws {
        // "https://" + "a\nb": prefix code 4, then 61 0a 62.
        let record = try report("d1010455 04610a62")["records"]?.arrayValue?.first
        #expect(record?["payload"]?.stringValue == "04610a62")
        #expect(record?["uri"] == nil && record?["kind"] == nil)
        #expect(record?["error"]?.stringValue?.contains("control character") == true, "\(String(describing: record))")
        for byte in ["00", "1f", "7f", "09", "1b"] {
            let bad = try report("d1010455 0461\(byte)62")["records"]?.arrayValue?.first
            #expect(bad?["error"] != nil && bad?["uri"] == nil, "\(byte)")
        }
        // Other characters stay: a space is no control character (the browser offer refuses it later).
        #expect(try report("d1010455 04612062")["records"]?.arrayValue?.first?["uri"]?.stringValue == "https://a b")
        // An absolute-URI record's type is its link: the same rule.
        let absolute = try report("d3 04 00 610a6263")["records"]?.arrayValue?.first
        #expect(absolute?["error"] != nil && absolute?["uri"] == nil)
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

    @Test(arguments: [true, false])
    func badPayloadIsFlaggedStrictOrLenient(strict: Bool) throws {
        // URI record with reserved identifier code 0x40 at input byte 4.
        let record = try report("d1010255 4061", strict: strict)["records"]?.arrayValue?.first
        #expect(record?["kind"] == nil)
        #expect(record?["error"]?.stringValue == "invalid 'U' payload: identifier code has invalid value 64 at byte 4")
    }

    /// Issue 12: a vCard 2.1 in Latin-1 (not UTF-8) between a link and a text hid the whole
    /// message; it marks its own record and the others are reported as ndeflib and phones show them.
    @Test(arguments: [true, false])
    func oneBadPayloadDoesNotHideTheOthers(strict: Bool) throws {
        let latin1Card: [UInt8] = Array("BEGIN:VCARD\r\nVERSION:2.1\r\nFN;CHARSET=ISO-8859-1:Jos".utf8) + [0xE9]
            + Array("\r\nEND:VCARD\r\n".utf8)
        let message = try NDEFMessage(records: [
            URIRecord(uri: "https://example.com/menu").record(),
            NDEFRecord(tnf: .media, type: "text/vcard", payload: latin1Card),
            TextRecord(text: "Table 4").record(),
        ])
        let records = try report(Hex.string(message.encoded()), strict: strict)["records"]?.arrayValue ?? []
        #expect(records.count == 3)
        #expect(records[0]["uri"]?.stringValue == "https://example.com/menu")
        #expect(records[1]["kind"] == nil)
        #expect(records[1]["mime_type"]?.stringValue == "text/vcard")
        #expect(records[1]["payload"]?.stringValue == Hex.string(latin1Card))
        #expect(records[1]["error"]?.stringValue?.contains("UTF-8") == true)
        #expect(records[2]["text"]?.stringValue == "Table 4")
    }

    /// A broken record inside a smart poster marks only itself.
    @Test func badNestedPayloadMarksOnlyItself() throws {
        let inner = NDEFMessage(records: [URIRecord(uri: "https://example.com").record(),
                                          NDEFRecord(tnf: .external, type: "android.com:pkg", payload: [0xFF])])
        let poster = NDEFRecord(tnf: .wellKnown, type: "Sp", payload: inner.encoded())
        let record = MessageReport().report(NDEFMessage(poster))["records"]?.arrayValue?.first
        #expect(record?["kind"]?.stringValue == "smart-poster")
        let nested = record?["records"]?.arrayValue ?? []
        #expect(nested.count == 2)
        #expect(nested[1]["error"] != nil)
    }

    @Test func smartPosterNestsItsRecords() throws {
        let poster = try SmartPoster(uri: URIRecord(uri: "https://example.com"), titles: [TextRecord(text: "Hi")], action: .edit)
        let bytes = NDEFMessage(poster.record()).encoded()
        let value = try MessageReport().report(NDEFMessage(decoding: bytes))
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
