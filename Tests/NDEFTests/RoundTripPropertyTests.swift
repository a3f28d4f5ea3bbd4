import NDEF
import PropertyBased
import Testing

/// Valid records of every TNF a message may hold, with arbitrary bytes in every field.
let recordGen = zip(Gen.int(in: 0...5), Gen<UInt8>.value().array(of: 0...12), Gen<UInt8>.value().array(of: 0...6),
                    Gen<UInt8>.value().array(of: 0...400))
    .map { kind, type, id, payload -> NDEFRecord in
        let tnf: TypeNameFormat = [.empty, .wellKnown, .media, .absoluteURI, .external, .unknown][kind]
        switch tnf {
        case .empty: return .empty
        case .unknown: return NDEFRecord(tnf: .unknown, id: id, payload: payload)
        default: return NDEFRecord(tnf: tnf, type: type.isEmpty ? [0x78] : type, id: id, payload: payload)
        }
    }

/// Any Unicode scalar up to `max` (surrogate code points, which are not scalars, become U+FFFD).
func scalars(upTo max: UInt32, count: ClosedRange<Int>) -> Generator<String, some Sequence & SendableMetatype> {
    Gen<UInt32>.value(in: 0...max).map { Unicode.Scalar($0) ?? "\u{FFFD}" }.array(of: count)
        .map { String(String.UnicodeScalarView($0)) }
}

let messageGen = recordGen.array(of: 1...6).map { NDEFMessage(records: $0) }

@Suite struct RoundTripPropertyTests {
    @Test func decodeOfEncodeIsIdentity() async {
        await propertyCheck(count: 300, input: messageGen) { message throws in
            #expect(try NDEFMessage(decoding: message.encoded()) == message)
        }
    }

    @Test func chunkedAndLongFormsDecodeToTheSameMessage() async {
        await propertyCheck(count: 300, input: messageGen, Gen.int(in: 1...300), Gen.bool()) { message, chunk, long in
            let bytes = try NDEFEncoder(chunkSize: chunk, alwaysLongRecords: long).encode(message)
            #expect(try NDEFMessage(decoding: bytes) == message)
        }
    }

    @Test func encodeOfDecodeIsIdentityForCanonicalInput() async {
        await propertyCheck(count: 300, input: messageGen) { message throws in
            let canonical = message.encoded()
            #expect(try NDEFMessage(decoding: canonical).encoded() == canonical)
        }
    }

    @Test func arbitraryBytesNeverCrashTheDecoder() async {
        await propertyCheck(count: 2000, input: Gen<UInt8>.value().array(of: 0...64)) { bytes in
            for mode in [NDEFParser.Mode.strict, .lenient] {
                guard let result = try? NDEFParser(mode: mode).parse(bytes) else { continue }
                for record in result.message.records { _ = try? record.content() }
                #expect(result.layouts.count == result.message.records.count)
                if mode == .strict { #expect(result.message.encoded().count <= bytes.count) }
            }
        }
    }

    @Test func textRecordsRoundTrip() async {
        let text = scalars(upTo: 0x2FFFF, count: 0...40)
        let language = Gen.letter.string(of: 0...12)
        let encoding = Gen.int(in: 0...4).map { i -> TextRecord.Encoding in
            [.utf8, .utf16(bigEndian: true, byteOrderMark: true), .utf16(bigEndian: false, byteOrderMark: true),
             .utf16(bigEndian: true, byteOrderMark: false), .utf16(bigEndian: false, byteOrderMark: false)][i]
        }
        await propertyCheck(count: 500, input: text, language, encoding) { text, language, encoding in
            let record = TextRecord(text: text, language: language, encoding: encoding)
            do {
                let payload = try record.payload()
                #expect(try TextRecord(payload: payload) == record)
            } catch {
                // Only UTF-16 without a byte order mark that would read back differently is refused.
                guard case .utf16(let bigEndian, false) = encoding else { Issue.record("refused \(record): \(error)"); return }
                #expect(!bigEndian || text.unicodeScalars.first == "\u{FEFF}")
            }
        }
    }

    @Test func uriRecordsRoundTrip() async {
        let prefix = Gen.element(of: URIRecord.prefixes).map { $0 ?? "" }
        let rest = scalars(upTo: 0xFFFF, count: 0...30)
        await propertyCheck(count: 500, input: prefix, rest) { prefix, rest throws in
            let record = URIRecord(uri: prefix + rest)
            #expect(record.uri == prefix + rest)
            #expect(try URIRecord(payload: record.payload) == record)
        }
    }
}
