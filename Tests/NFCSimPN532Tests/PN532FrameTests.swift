import NFCSim
import Testing

@Suite struct PN532FrameTests {
    @Test func normalFrameMatchesTheLibnfcTrace() {
        // InListPassiveTarget 106 kbps type A, as libnfc 1.8.0 writes it (Docs/design/simulators.md, Appendix A).
        #expect(PN532Frame.command(0x4A, [0x01, 0x00]).encoded == [0x00, 0x00, 0xFF, 0x04, 0xFC, 0xD4, 0x4A, 0x01, 0x00, 0xE1, 0x00])
        #expect(PN532Frame.response(0x17, [0x00]).encoded == [0x00, 0x00, 0xFF, 0x03, 0xFD, 0xD5, 0x17, 0x00, 0x14, 0x00])
    }

    @Test func fixedFrames() {
        #expect(PN532Frame.ack.encoded == [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00])
        #expect(PN532Frame.nack.encoded == [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00])
        #expect(PN532Frame.error.encoded == [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00])
    }

    @Test func checksumsSumToZero() {
        for data in [[UInt8](), [0x4A], [UInt8](repeating: 0xFF, count: 300), (0...255).map { UInt8($0) }] {
            let sum = data.reduce(UInt8(0), &+)
            #expect(sum &+ PN532Frame.checksum(data) == 0)
        }
    }

    @Test func longDataIsWrittenAsAnExtendedFrame() {
        let data = [0x40] + (0..<260).map { UInt8(truncatingIfNeeded: $0) }
        let bytes = PN532Frame.information(tfi: 0xD4, data: data).encoded
        #expect(Array(bytes[0..<5]) == [0x00, 0x00, 0xFF, 0xFF, 0xFF])
        let length = 1 + data.count
        #expect(bytes[5] == UInt8(length >> 8) && bytes[6] == UInt8(length & 0xFF))
        #expect(bytes[5] &+ bytes[6] &+ bytes[7] == 0)
        #expect(bytes.count == 8 + length + 2)
        var decoder = PN532FrameDecoder()
        #expect(decoder.feed(bytes) == [.frame(.information(tfi: 0xD4, data: data))])
    }

    @Test func the254ByteBoundary() {
        var decoder = PN532FrameDecoder()
        for count in 252...256 {
            let frame = PN532Frame.information(tfi: 0xD5, data: [UInt8](repeating: 0xA5, count: count))
            #expect(frame.encoded[3] == (count + 1 < 0xFF ? UInt8(count + 1) : 0xFF))
            #expect(decoder.feed(frame.encoded) == [.frame(frame)])
        }
    }

    @Test func wakeUpPreambleBeforeTheFirstFrame() {
        // What libnfc writes when it opens the port (Docs/design/simulators.md §1.3).
        let wire: [UInt8] = [0x55, 0x55] + [UInt8](repeating: 0, count: 16) + [0xFF, 0x03, 0xFD, 0xD4, 0x14, 0x01, 0x17, 0x00]
        var decoder = PN532FrameDecoder()
        #expect(decoder.feed(wire) == [.frame(.command(0x14, [0x01]))])
        #expect(decoder.pendingByteCount == 0)
    }

    @Test func anyChunkingGivesTheSameFrames() {
        let frames: [PN532Frame] = [.command(0x02), .ack, .command(0x40, [0x01, 0x30, 0x04]),
                                    .information(tfi: 0xD4, data: [0x42] + [UInt8](repeating: 7, count: 262)), .nack, .error]
        let wire: [UInt8] = frames.flatMap { [UInt8]([0x55, 0x13, 0xFF]) + $0.encoded }
        for chunk in [1, 2, 3, 5, 7, 64, wire.count] {
            var decoder = PN532FrameDecoder()
            var items: [PN532DecodedItem] = []
            var offset = 0
            while offset < wire.count {
                items += decoder.feed(wire[offset..<min(offset + chunk, wire.count)])
                offset += chunk
            }
            #expect(items == frames.map { .frame($0) }, "chunks of \(chunk)")
        }
    }

    @Test func garbageBetweenFramesIsSkipped() {
        var decoder = PN532FrameDecoder()
        let wire: [UInt8] = [0xFF, 0x00, 0x12, 0x00] + PN532Frame.command(0x02).encoded + [0xFF, 0xFF, 0x00, 0x55] + PN532Frame.command(0x4A, [1, 0]).encoded
        #expect(decoder.feed(wire) == [.frame(.command(0x02)), .frame(.command(0x4A, [1, 0]))])
    }

    @Test func badChecksumsAreReportedAndTheStreamRecovers() {
        var badLCS = PN532Frame.command(0x02).encoded
        badLCS[4] &+= 1
        var badDCS = PN532Frame.command(0x02).encoded
        badDCS[badDCS.count - 2] &+= 1
        var badPostamble = PN532Frame.command(0x02).encoded
        badPostamble[badPostamble.count - 1] = 0x42
        var decoder = PN532FrameDecoder()
        let items = decoder.feed(badLCS + badDCS + badPostamble + PN532Frame.command(0x14, [1]).encoded)
        #expect(items.contains(.corrupt(.lengthChecksum)))
        #expect(items.contains(.corrupt(.dataChecksum)))
        #expect(items.contains(.corrupt(.missingPostamble)))
        #expect(items.last == .frame(.command(0x14, [1])))
    }

    @Test func extendedLengthChecks() {
        var decoder = PN532FrameDecoder()
        // LENm LENl LCS wrong, then a LEN over the limit.
        let bad: [UInt8] = [0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x01, 0x10, 0x00]
        let huge: [UInt8] = [0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x02, 0x00, 0xFE]
        let items = decoder.feed(bad + huge + PN532Frame.ack.encoded)
        #expect(items == [.corrupt(.lengthChecksum), .corrupt(.lengthTooLarge(0x200)), .frame(.ack)])
    }

    @Test func crcA() {
        #expect(CRCA.compute([0x60]) == [0xF8, 0x32])
        #expect(CRCA.compute([0x30, 0x00]) == [0x02, 0xA8])
        // GET_VERSION reply of an NTAG213 and its CRC, from the libnfc trace.
        #expect(CRCA.appending(to: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03]).suffix(2) == [0x80, 0x91])
        #expect(CRCA.isValid([0x60, 0xF8, 0x32]))
        #expect(!CRCA.isValid([0x60, 0xF8, 0x33]))
    }
}
