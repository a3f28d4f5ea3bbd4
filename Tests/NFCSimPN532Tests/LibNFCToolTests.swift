import Foundation
import NDEF
import NFCSim
import NFCTags
import Testing
import TestSupport

@Suite(.serialized) struct LibNFCToolTests {
    static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
    static let message = NDEFMessage(URIRecord(uri: "https://example.com/poster").record())

    static func tag(_ product: Type2Product = .ntag213, message: NDEFMessage = message) throws -> VirtualType2Tag {
        try VirtualType2Tag(product: product, uid: uid, message: message)
    }

    @Test func nfcListShowsTheTag() throws {
        let reader = try EmulatedPN532(PN532Emulator(target: try Self.tag().pn532Target))
        defer { reader.close() }
        let result = try LibNFCTool.run("nfc-list", [], connstring: reader.connstring)
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("NFC device: user defined device opened"), "\(result.output)")
        #expect(result.output.contains("1 ISO14443A passive target(s) found:"), "\(result.output)")
        #expect(result.output.contains("ATQA (SENS_RES): 00  44"), "\(result.output)")
        #expect(result.output.contains("UID (NFCID1): 04  a1  b2  c3  d4  e5  f6"), "\(result.output)")
        #expect(result.output.contains("SAK (SEL_RES): 00"), "\(result.output)")
    }

    @Test func nfcListWithNoObject() throws {
        let reader = try EmulatedPN532(PN532Emulator(target: nil))
        defer { reader.close() }
        let result = try LibNFCTool.run("nfc-list", [], connstring: reader.connstring)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("NFC device: user defined device opened"), "\(result.output)")
        #expect(!result.output.contains("target(s) found"), "\(result.output)")
    }

    @Test func nfcListShowsAnISODEPObjectWithItsATS() throws {
        let tag = try VirtualType4Tag(message: Self.message)
        let reader = try EmulatedPN532(PN532Emulator(target: tag.pn532Target(uid: Self.uid)))
        defer { reader.close() }
        let result = try LibNFCTool.run("nfc-list", [], connstring: reader.connstring)
        #expect(result.output.contains("ATQA (SENS_RES): 03  44"), "\(result.output)")
        #expect(result.output.contains("SAK (SEL_RES): 20"), "\(result.output)")
        #expect(result.output.contains("ATS: 75  77  81  02  80"), "\(result.output)")
    }

    /// libnfc writes with COMPATIBILITY_WRITE (A0 + 16 bytes, the chip keeps 4): the emulated
    /// chip takes it, so libnfc's own writer and nfcscan's reader meet on the same bytes.
    @Test func nfcMfultralightWritesWhatTheReaderThenReads() throws {
        let tag = try Self.tag(.ntag215)
        let reader = try EmulatedPN532(PN532Emulator(target: tag.pn532Target))
        defer { reader.close() }
        let (read, image) = try LibNFCTool.ultralightDump(connstring: reader.connstring)
        #expect(read.status == 0, "\(read.output)")
        let new = NDEFMessage(URIRecord(uri: "https://example.com/written-by-libnfc").record()).encoded()
        var changed = image
        changed.replaceSubrange(16..<(16 + new.count + 3), with: [0x03, UInt8(new.count)] + new + [0xFE])
        let write = try LibNFCTool.ultralightWrite(changed, connstring: reader.connstring)
        #expect(write.status == 0, "\(write.output)")
        #expect(write.output.contains("0 pages failed"), "\(write.output)")
        let (_, after) = try LibNFCTool.ultralightDump(connstring: reader.connstring)
        #expect(Array(after[16..<(16 + new.count + 3)]) == [0x03, UInt8(new.count)] + new + [0xFE])
    }

    @Test(arguments: [(Type2Product.ntag213, 45), (.ntag215, 135), (.ntag216, 231)])
    func nfcMfultralightReadsTheWholeTag(product: Type2Product, pages: Int) throws {
        // A message long enough on the larger tags to need the 3-byte TLV length.
        let long = NDEFMessage(URIRecord(uri: "https://example.com/poster").record(),
                               try TextRecord(text: String(repeating: "Summer concert. ", count: product == .ntag213 ? 3 : 20)).record())
        let tag = try Self.tag(product, message: long)
        let reader = try EmulatedPN532(PN532Emulator(target: tag.pn532Target))
        defer { reader.close() }
        let (result, bytes) = try LibNFCTool.ultralightDump(connstring: reader.connstring)
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("NTAG Type: \(product.name)"), "\(result.output)")
        #expect(result.output.contains("Done, \(pages) of \(pages) pages read (0 pages failed)."), "\(result.output)")
        #expect(bytes == tag.memoryAsRead, "the dump is the tag's memory as READ answers it")
        let encoded = long.encoded()
        let tlv: [UInt8] = encoded.count < 0xFF ? [0x03, UInt8(encoded.count)] + encoded
            : [0x03, 0xFF, UInt8(encoded.count >> 8), UInt8(encoded.count & 0xFF)] + encoded
        #expect(Array(bytes[16..<(16 + tlv.count)]) == tlv, "page 4 on holds the NDEF TLV")
    }

    @Test func nfcPollSeesTheTagArriveAndLeave() throws {
        let tag = try Self.tag()
        let start = ContinuousClock.now
        let reader = try EmulatedPN532(PN532Emulator(target: tag.pn532Target, arrival: start + .milliseconds(700),
                                                       departure: start + .milliseconds(1700)))
        defer { reader.close() }
        let result = try LibNFCTool.run("nfc-poll", [], connstring: reader.connstring)
        let elapsed = start.duration(to: .now)
        #expect(!result.timedOut)
        #expect(result.output.contains("UID (NFCID1): 04  a1  b2  c3  d4  e5  f6"), "\(result.output)")
        #expect(result.output.contains("Waiting for card removing...") && result.output.contains("done."), "\(result.output)")
        #expect(elapsed >= .milliseconds(1700), "nfc-poll saw the removal only after the departure")
    }
}

/// The host on its own: a client writing to the slave side as a serial port, byte by byte.
@Suite(.serialized) struct PN532PTYHostTests {
    /// Opens the slave as libnfc does and reads exactly `count` bytes, bounded by `timeout` ms.
    static func read(_ fd: Int32, count: Int, timeout: Int32 = 2000) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while bytes.count < count {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, timeout) > 0 else { break }
            let n = Glibc.read(fd, &buffer, min(buffer.count, count - bytes.count))
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return bytes
    }

    @Test func chunkedGarbledInputAndAnAbortedPoll() throws {
        let reader = try EmulatedPN532(PN532Emulator(target: nil))
        defer { reader.close() }
        let fd = open(reader.host.slavePath, O_RDWR | O_NOCTTY | O_NONBLOCK)
        try #require(fd >= 0)
        defer { close(fd) }
        var attributes = termios()
        tcgetattr(fd, &attributes)
        cfmakeraw(&attributes)
        tcsetattr(fd, TCSANOW, &attributes)
        // Wake-up bytes, noise, then GetFirmwareVersion written one byte at a time.
        let wire: [UInt8] = [0x55, 0x55, 0x00, 0x00, 0x13, 0x37] + PN532Frame.command(0x02).encoded
        for byte in wire { var b = byte; _ = write(fd, &b, 1) }
        let expected = PN532Frame.ack.encoded + PN532Frame.response(0x03, [0x32, 0x01, 0x06, 0x07]).encoded
        #expect(Self.read(fd, count: expected.count) == expected)
        // An endless InAutoPoll on an empty field: only the ACK comes back, then the host aborts it.
        var poll = PN532Frame.command(0x60, [0xFF, 0x01, 0x10]).encoded
        _ = write(fd, &poll, poll.count)
        #expect(Self.read(fd, count: 6) == PN532Frame.ack.encoded)
        #expect(Self.read(fd, count: 1, timeout: 300) == [], "no response while nothing is in the field")
        var abort = PN532Frame.ack.encoded
        _ = write(fd, &abort, abort.count)
        var diagnose = PN532Frame.command(0x00, [0x00, 0x41, 0x42]).encoded
        _ = write(fd, &diagnose, diagnose.count)
        let echo = PN532Frame.ack.encoded + PN532Frame.response(0x01, [0x00, 0x41, 0x42]).encoded
        #expect(Self.read(fd, count: echo.count) == echo, "the aborted poll never answers")
    }

    @Test func theLinkPointsAtTheSlaveAndGoesAway() throws {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("nfcsim-link-\(UUID().uuidString)").path
        let host = try PN532PTYHost(emulator: PN532Emulator(target: nil), link: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == host.slavePath)
        #expect(host.connstring == "pn532_uart:\(link)")
        host.shutdown()
        #expect(!FileManager.default.fileExists(atPath: link))
        // A regular file is never replaced.
        _ = FileManager.default.createFile(atPath: link, contents: Data([1]))
        defer { try? FileManager.default.removeItem(atPath: link) }
        #expect(throws: PN532HostError.self) { _ = try PN532PTYHost(emulator: PN532Emulator(target: nil), link: link) }
    }
}
