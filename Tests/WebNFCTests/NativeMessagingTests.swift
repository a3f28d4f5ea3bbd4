import Testing
@testable import WebNFC

/// The browsers' framing: whole messages out of any split of the input, and nothing unbounded.
@Suite struct NativeMessagingTests {
    @Test func messagesComeOutWholeWhateverTheReadsSplit() throws {
        let stream = NativeMessageReader.frame(Array("{\"a\":1}".utf8)) + NativeMessageReader.frame(Array("[]".utf8))
        for split in 0...stream.count {
            var reader = NativeMessageReader()
            let messages = try reader.take(stream[..<split]) + reader.take(stream[split...])
            #expect(messages == [Array("{\"a\":1}".utf8), Array("[]".utf8)])
            #expect(!reader.isMidMessage)
        }
    }

    @Test func aLengthOverTheBoundIsRefusedBeforeItsBytesCome() {
        var reader = NativeMessageReader()
        let header = withUnsafeBytes(of: UInt32(NativeMessageReader.maximumMessageLength + 1)) { Array($0) }
        #expect(throws: NativeMessageReader.Failure.self) { try reader.take(header) }
    }
}
