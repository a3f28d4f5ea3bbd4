import NDEF
import TestSupport
import Testing

@Suite struct EncoderTests {
    @Test func canonicalEncodingUsesShortRecordsAndMessageFlags() throws {
        let message = NDEFMessage(
            NDEFRecord(tnf: .wellKnown, type: "U", payload: hex("036578616d706c652e636f6d")),
            NDEFRecord(tnf: .media, type: "a/b", id: Array("x".utf8), payload: Array(repeating: 7, count: 300)),
            NDEFRecord(tnf: .unknown, payload: [1]))
        let bytes = try NDEFEncoder().encode(message)
        #expect(Array(bytes.prefix(4)) == hex("91010c55"))          // MB, SR, TNF 1
        #expect(bytes[16] == 0x0A)                                   // no flags but IL, TNF 2 (long record)
        #expect(Array(bytes[17...22]) == hex("03 0000012c 01"))
        #expect(bytes[bytes.count - 4] == 0x55)                      // ME, SR, TNF 5
        #expect(try NDEFMessage(decoding: bytes) == message)
    }

    @Test func alwaysLongRecordsStillDecodesToTheSameMessage() throws {
        let message = NDEFMessage(NDEFRecord(tnf: .wellKnown, type: "T", payload: hex("02656e6869")))
        let bytes = try NDEFEncoder(alwaysLongRecords: true).encode(message)
        #expect(bytes == hex("c1 01 00000005 54 02656e6869"))
        #expect(try NDEFMessage(decoding: bytes) == message)
    }

    @Test func chunkedEncodingMarksChunks() throws {
        let message = NDEFMessage(NDEFRecord(tnf: .media, type: "t/p", payload: hex("abcdef")))
        let bytes = try NDEFEncoder(chunkSize: 2).encode(message)
        #expect(bytes == hex("b2 03 02 742f70 abcd 56 00 01 ef"))
    }

    @Test func invalidValuesAreRefusedNotWritten() {
        #expect(encodingError { _ = try NDEFEncoder().encode(NDEFMessage(records: [])) } == .noRecords)
        #expect(encodingError { _ = try NDEFEncoder().encode(NDEFMessage(NDEFRecord(tnf: .wellKnown, payload: [1]))) }
            == .invalidRecord(index: 0, .invalidTypeLength(.wellKnown, length: 0, offset: 0)))
        #expect(encodingError { _ = try NDEFEncoder().encode(NDEFMessage(NDEFRecord(tnf: .unchanged))) }
            == .invalidRecord(index: 0, .unchangedOutsideChunk(offset: 0)))
        #expect(encodingError { _ = try NDEFEncoder().encode(NDEFMessage(NDEFRecord(tnf: .empty, payload: [1]))) }
            == .invalidRecord(index: 0, .nonEmptyEmptyRecord(offset: 0)))
        #expect(encodingError { _ = try NDEFEncoder().encode(NDEFMessage(NDEFRecord(tnf: .media, type: Array(repeating: 0x61, count: 256)))) }
            == .fieldTooLong(index: 0, field: .type, length: 256, limit: 255))
        #expect(encodingError { _ = try NDEFEncoder().encode(NDEFMessage(NDEFRecord(tnf: .unknown, id: Array(repeating: 0x61, count: 256)))) }
            == .fieldTooLong(index: 0, field: .id, length: 256, limit: 255))
    }
}
