import Foundation
import NDEF
import NFCSim
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
    /// Fits an NTAG213.
    static let short = NDEFMessage(URIRecord(uri: "https://example.com/summer-concert").record())

    /// Runs the probe's `write` on an NTAG215 holding ``old`` in `reader`; the probe's lines.
    func write(reader: String, extra: [String] = []) throws -> RunResult {
        let file = try PCSCReaderTests.messageFile(Self.old)
        defer { try? FileManager.default.removeItem(at: file) }
        let pcscd = try PrivatePCSCD(nfcsim: ["--reader", reader, "--type", "ntag215", "--ndef", file.path, "--after", "0.5", "--for", "8"])
        defer { pcscd.stop() }
        let result = try PCSCRig.probe(["write", Hex.string(Self.new.encoded())] + extra + ["15"], socket: pcscd.socket, timeout: 20)
        #expect(!result.timedOut, "\(result.output)\n\(pcscd.log)")
        return result
    }

    @Test func aStorageCardReaderWritesWithUpdateBinary() throws {
        let result = try write(reader: "storage-card")
        let written = try #require(result.line(startingWith: "written "), "\(result.output)")
        #expect(written.contains("changed=true"), "\(written)")
        let read = try #require(result.line(startingWith: "ndef="), "\(result.output)")
        #expect(read.hasPrefix("ndef=\(Hex.string(Self.new.encoded())) "), "\(read)")
        let status = try #require(result.line(startingWith: "status "), "\(result.output)")
        #expect(status.contains("access=read-write used=\(Self.new.encoded().count)") && status.contains("formatted=true"), "\(status)")
        print("PC/SC storage-card write: \(written)")
    }

    /// Issue 21: a storage-card reader cannot reach an NTAG215's dynamic lock bits (GET_VERSION
    /// does not pass): a write to be locked is refused before its first UPDATE BINARY, says
    /// which reader would do it, and the object reads back as it was, read-write.
    @Test func aStorageCardReaderRefusesAWriteToBeLockedBeforeWriting() throws {
        let result = try write(reader: "storage-card", extra: ["lock"])
        let refused = try #require(result.line(startingWith: "writeError=refused: not supported: locking it through this reader"),
                                   "\(result.output)")
        #expect(refused.contains("ACR122U"), "\(refused)")
        #expect(result.line(startingWith: "written ") == nil && result.line(startingWith: "readOnly ") == nil, "\(result.output)")
        let read = try #require(result.line(startingWith: "ndef="), "\(result.output)")
        #expect(read.hasPrefix("ndef=\(Hex.string(Self.old.encoded())) "), "\(read)")
        let status = try #require(result.line(startingWith: "status "), "\(result.output)")
        #expect(status.contains("access=read-write used=\(Self.old.encoded().count)"), "\(status)")
    }

    @Test func anACR122UWritesAndLocksThroughDirectTransmit() throws {
        let result = try write(reader: "acr122u", extra: ["lock"])
        let written = try #require(result.line(startingWith: "written "), "\(result.output)")
        #expect(written.contains("changed=true"), "\(written)")
        #expect(result.line(startingWith: "readOnly ") != nil, "\(result.output)")
        let read = try #require(result.line(startingWith: "ndef="), "\(result.output)")
        #expect(read.hasPrefix("ndef=\(Hex.string(Self.new.encoded())) "), "\(read)")
        let status = try #require(result.line(startingWith: "status "), "\(result.output)")
        #expect(status.contains("access=read-only") && status.contains("formatted=true"), "\(status)")
        print("PC/SC acr122u write: \(written)")
    }

    /// An NTAG213 dump whose CFG0 puts pages 4 on behind the factory password (FF FF FF FF).
    func writeProtected(reader: String, extra: [String]) throws -> RunResult {
        var memory = try Type2MemoryImage.make(product: .ntag213, uid: [0x04, 0x51, 0x62, 0x73, 0x84, 0x95, 0xA6],
                                               dataArea: Type2MemoryImage.dataArea(holding: Self.old, capacity: 144))
        memory[0x29 * 4 + 3] = 0x04
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pcsc-protected-\(UUID().uuidString).nfc")
        try DumpFiles.flipperType2(chip: "NTAG213", memory: memory, getVersion: Type2Product.ntag213.version).write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let pcscd = try PrivatePCSCD(nfcsim: ["--reader", reader, "--dump", file.path, "--after", "0.5", "--for", "8"])
        defer { pcscd.stop() }
        let result = try PCSCRig.probe(["write", Hex.string(Self.short.encoded())] + extra + ["15"], socket: pcscd.socket, timeout: 20)
        #expect(!result.timedOut, "\(result.output)\n\(pcscd.log)")
        return result
    }

    /// A storage-card reader answers the refused WRITE 63 00, like silence: the object answering
    /// again makes it a refusal (password required), not "moved away too soon"; nothing changed.
    @Test func aProtectedObjectOnAStorageCardReaderIsRefusedClearly() throws {
        let result = try writeProtected(reader: "storage-card", extra: [])
        #expect(result.line(startingWith: "writeError=refused: protected by a password") != nil, "\(result.output)")
        let read = try #require(result.line(startingWith: "ndef="), "\(result.output)")
        #expect(read.hasPrefix("ndef=\(Hex.string(Self.old.encoded())) "), "\(read)")
        let withPassword = try writeProtected(reader: "storage-card", extra: ["password=ffffffff"])
        #expect(withPassword.line(startingWith: "writeError=refused: not supported:") != nil, "\(withPassword.output)")
    }

    /// Through an ACR122U the configuration pages are read: refused before any WRITE without the
    /// password, written with it (PWD_AUTH through direct transmit).
    @Test func aProtectedObjectThroughAnACR122UNeedsItsPassword() throws {
        let refused = try writeProtected(reader: "acr122u", extra: [])
        #expect(refused.line(startingWith: "writeError=refused: protected by a password") != nil, "\(refused.output)")
        let written = try writeProtected(reader: "acr122u", extra: ["password=ffffffff"])
        #expect(written.line(startingWith: "written ") != nil, "\(written.output)")
        let read = try #require(written.line(startingWith: "ndef="), "\(written.output)")
        #expect(read.hasPrefix("ndef=\(Hex.string(Self.short.encoded())) "), "\(read)")
    }
}
