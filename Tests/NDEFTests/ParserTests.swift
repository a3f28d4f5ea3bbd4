import NDEF
import TestSupport
import Testing

@Suite struct ParserTests {
    @Test func shortURIRecord() throws {
        let result = try parse("d1010c55036578616d706c652e636f6d")
        #expect(result.message.records == [NDEFRecord(tnf: .wellKnown, type: "U", payload: hex("036578616d706c652e636f6d"))])
        #expect(result.layouts == [NDEFParser.RecordLayout(offset: 0, length: 16, payloadRanges: [4..<16], shortRecord: true)])
        #expect(result.issues.isEmpty)
    }

    @Test func longRecordWithIDAndFourBytePayloadLength() throws {
        // MB ME IL, TNF media; type "a/b", payload length 0x00000002, ID "x".
        let result = try parse("ca 03 00000002 01 612f62 78 abcd")
        let record = try #require(result.message.records.first)
        #expect(record.tnf == .media)
        #expect(record.typeString == "a/b")
        #expect(record.idString == "x")
        #expect(record.payload == [0xAB, 0xCD])
        #expect(result.layouts[0].shortRecord == false)
    }

    @Test func threeRecordsKeepOrderAndFlags() throws {
        let result = try parse("900000 100000 500000")
        #expect(result.message.records.count == 3)
        #expect(result.message.records == [.empty, .empty, .empty])
    }

    @Test func emptyRecordMessage() throws {
        let result = try parse("d00000")
        #expect(result.message.records == [.empty])
    }

    @Test func chunkedRecordIsReassembled() throws {
        // First chunk: MB CF SR TNF=media type "t/p" payload "ab"; middle: CF SR TNF=6 payload "cd";
        // last: ME SR TNF=6 payload "ef".
        let result = try parse("b2 03 02 742f70 abcd  36 00 01 ef  56 00 02 0102")
        #expect(result.message.records == [NDEFRecord(tnf: .media, type: "t/p", payload: hex("abcdef0102"))])
        let layout = result.layouts[0]
        #expect(layout.isChunked)
        #expect(layout.payloadRanges == [6..<8, 11..<12, 15..<17])
        #expect(layout.inputOffset(ofPayloadByte: 2) == 11)
        #expect(layout.inputOffset(ofPayloadByte: 4) == 16)
    }

    @Test func chunkedRecordEqualsItsUnchunkedForm() throws {
        let record = NDEFRecord(tnf: .external, type: "example.com:t", id: Array("id".utf8), payload: Array(0..<200))
        let message = NDEFMessage(record, NDEFRecord(tnf: .wellKnown, type: "T", payload: hex("02656e6869")))
        for size in [1, 7, 64, 199] {
            let bytes = try NDEFEncoder(chunkSize: size).encode(message)
            #expect(try NDEFMessage(decoding: bytes) == message)
        }
    }

    // MARK: every structural error, with its offset

    @Test(arguments: [
        ("", NDEFError.noRecords),
        ("d1", .truncated(.typeLength, offset: 1)),
        ("d101", .truncated(.payloadLength, offset: 2)),
        ("c10100", .truncated(.payloadLength, offset: 2)),
        ("d90100", .truncated(.idLength, offset: 3)),
        ("d1020055", .lengthPastEnd(.type, length: 2, offset: 3, available: 1)),
        ("d9010002 55 aa", .lengthPastEnd(.id, length: 2, offset: 5, available: 1)),
        ("d1010c55036578", .lengthPastEnd(.payload, length: 12, offset: 4, available: 3)),
        ("c1010000000c55", .lengthPastEnd(.payload, length: 12, offset: 7, available: 0)),
        ("51010055", .missingMessageBegin(offset: 0)),
        ("91010055 d1010055", .misplacedMessageBegin(offset: 4)),
        ("91010055", .missingMessageEnd(offset: 4)),
        ("d1010055 00", .trailingData(offset: 4, count: 1)),
        ("d7000000", .reservedTNF(offset: 0)),
        ("d1000000", .invalidTypeLength(.wellKnown, length: 0, offset: 0)),
        ("d2000000", .invalidTypeLength(.media, length: 0, offset: 0)),
        ("d3000000", .invalidTypeLength(.absoluteURI, length: 0, offset: 0)),
        ("d4000000", .invalidTypeLength(.external, length: 0, offset: 0)),
        ("d5010078", .invalidTypeLength(.unknown, length: 1, offset: 0)),
        ("d0000100", .nonEmptyEmptyRecord(offset: 0)),
        ("d6000000", .unchangedOutsideChunk(offset: 0)),
        ("b0000000 56000000", .chunkedEmptyRecord(offset: 0)),
        ("b2010161aa 520001aa", .chunkWithoutUnchangedTNF(.media, offset: 5)),
        ("b2010161aa 5e000101aa78", .chunkWithID(offset: 5)),
        ("b2010161aa 56010161aa", .invalidTypeLength(.unchanged, length: 1, offset: 5)),
        ("f2010161aa", .unterminatedChunk(offset: 0)),
        ("b2010161aa", .unterminatedChunk(offset: 5)),
        ("b2010161aa 760001aa", .unterminatedChunk(offset: 5)),
    ] as [(String, NDEFError)])
    func structuralError(input: String, expected: NDEFError) {
        #expect(error { _ = try parse(input) } == expected)
    }

    @Test func errorDescriptionsNameTheProblemAndOffset() {
        let e = NDEFError.lengthPastEnd(.payload, length: 12, offset: 4, available: 3)
        #expect(e.description == "payload of 12 bytes runs past the end of the input (3 left) at byte 4")
        #expect(NDEFError.unterminatedChunk(offset: 9).description.contains("chunk sequence broken"))
        #expect(NDEFError.missingMessageBegin(offset: 0).description.contains("MB"))
    }

    // MARK: lenient mode

    @Test func lenientRecoversCompleteRecordsAndReportsTheRest() throws {
        // Record 1 fine (MB, no ME), record 2 truncated.
        let result = try parse("91010055 11010c55036578", mode: .lenient)
        #expect(result.message.records.count == 1)
        #expect(result.issues == [.lengthPastEnd(.payload, length: 12, offset: 8, available: 3)])
    }

    @Test func lenientToleratesFlagMisuse() throws {
        let result = try parse("11010055 91010055", mode: .lenient)
        #expect(result.message.records.count == 2)
        #expect(result.issues == [.missingMessageBegin(offset: 0), .misplacedMessageBegin(offset: 4), .missingMessageEnd(offset: 8)])
    }

    @Test func lenientKeepsReservedTNFButNeverAPartialChunk() throws {
        let reserved = try parse("d70000", mode: .lenient)
        #expect(reserved.message.records == [NDEFRecord(tnf: .reserved)])
        #expect(reserved.issues == [.reservedTNF(offset: 0)])

        // A chunk sequence cut off by the end of input: the partial record is not reported.
        let cut = try parse("91010055 32010161aa", mode: .lenient)
        #expect(cut.message.records.count == 1)
        #expect(cut.issues.contains(.unterminatedChunk(offset: 9)))
    }

    @Test func lenientWithNothingWholeStillThrows() {
        #expect(error { _ = try parse("d1010c55", mode: .lenient) } == .lengthPastEnd(.payload, length: 12, offset: 4, available: 0))
    }

    @Test func strictModeIsTheDefault() {
        #expect(NDEFParser().mode == .strict)
        #expect(error { _ = try NDEFMessage(decoding: hex("d1010055 00")) } == .trailingData(offset: 4, count: 1))
    }
}
