import Foundation
import NDEF
import NFCTags
import Testing
import TestSupport

/// Writing Type 2 objects through the real pcsc-lite and a private pcscd holding `nfcsim vpcd`:
/// on a storage-card reader (UPDATE BINARY `FF D6 00 pp 04`) and through an ACR122U's direct
/// transmit (WRITE, GET_VERSION and FAST_READ reach the chip), then read back by a fresh read.
@Suite(.serialized) struct Type2WriteThroughPCSCTests {
    static let old = NDEFMessage(URIRecord(uri: "https://example.com/old-poster").record())
    static let new = NDEFMessage(URIRecord(uri: "https://example.com/summer-concert").record(),
                                 try! TextRecord(text: String(repeating: "Bring a chair. ", count: 10)).record())

    /// Runs the probe's `write` on an NTAG215 holding ``old`` in `reader`; the probe's lines.
    func write(reader: String, extra: [String] = []) throws -> RunResult {
        let file = try PCSCReaderTests.messageFile(Self.old)
        defer { try? FileManager.default.removeItem(at: file) }
        let pcscd = try PrivatePCSCD(nfcsim: ["--reader", reader, "--type", "ntag215", "--ndef", file.path, "--after", "0.5", "--for", "8"])
        defer { pcscd.stop() }
        let result = try PCSCRig.probe(["write", PCSCReaderTests.hex(Self.new.encoded())] + extra + ["15"], socket: pcscd.socket, timeout: 20)
        #expect(!result.timedOut, "\(result.output)\n\(pcscd.log)")
        return result
    }

    @Test func aStorageCardReaderWritesWithUpdateBinary() throws {
        let result = try write(reader: "storage-card")
        let written = try #require(result.line(startingWith: "written "), "\(result.output)")
        #expect(written.contains("changed=true"), "\(written)")
        let read = try #require(result.line(startingWith: "ndef="), "\(result.output)")
        #expect(read.hasPrefix("ndef=\(PCSCReaderTests.hex(Self.new.encoded())) "), "\(read)")
        let status = try #require(result.line(startingWith: "status "), "\(result.output)")
        #expect(status.contains("formatted=true access=read-write used=\(Self.new.encoded().count)"), "\(status)")
        print("PC/SC storage-card write: \(written)")
    }

    @Test func anACR122UWritesAndLocksThroughDirectTransmit() throws {
        let result = try write(reader: "acr122u", extra: ["lock"])
        let written = try #require(result.line(startingWith: "written "), "\(result.output)")
        #expect(written.contains("changed=true"), "\(written)")
        #expect(result.line(startingWith: "locked ") != nil, "\(result.output)")
        let read = try #require(result.line(startingWith: "ndef="), "\(result.output)")
        #expect(read.hasPrefix("ndef=\(PCSCReaderTests.hex(Self.new.encoded())) "), "\(read)")
        let status = try #require(result.line(startingWith: "status "), "\(result.output)")
        #expect(status.contains("formatted=true access=read-only"), "\(status)")
        print("PC/SC acr122u write: \(written)")
    }
}
