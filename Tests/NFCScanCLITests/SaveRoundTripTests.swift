import Foundation
import LibNFC
import NDEF
import NFCReaders
import NFCSim
import NFCTags
import Testing
import TestSupport

/// `nfcsim --save`: what a reader writes through the real libnfc lands in the file, which
/// `nfcsim --dump` presents again and `nfcscan` reads.
@Suite(.serialized) struct SaveRoundTripTests {
    static let old = NDEFMessage(URIRecord(uri: "https://example.com/old-poster").record())
    static let new = NDEFMessage(URIRecord(uri: "https://example.com/new-poster").record(),
                                 try! TextRecord(text: "Saved by nfcsim").record())

    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nfcsim-save-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The message the real Type 2 reader finds in the object a saved file describes.
    static func message(in file: URL, raw: RawChip? = nil) async throws -> NDEFMessage? {
        let dump = try DumpFile.parse([UInt8](try Data(contentsOf: file)), raw: raw)
        guard case .type2(let chip) = dump.chip else { return nil }
        return try await Type2Tag.readNDEF(over: InProcessTransport(try chip.virtualTag())).message
    }

    /// Writes `message` with nfcscan's own driver through the real libnfc to the nfcsim at `connstring`.
    static func write(_ message: NDEFMessage, connstring: String) async throws -> TagWriteReport? {
        guard let arrival = try await LibNFCArrival.first(at: connstring) else { return nil }
        let bytes = message.encoded()
        let report = try await arrival.object.perform { driver async throws(TagWriteError) in try await driver.write(bytes, options: WriteOptions()) }
        await arrival.close()
        return report
    }

    @Test func aMessageWrittenThroughLibnfcIsSavedAndReadBackByNfcscan() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = directory.appendingPathComponent("poster.nfc")
        let sim = try NFCSimPN532Child(["--type", "ntag215", "--uri", "https://example.com/old-poster", "--save", saved.path, "--for", "60"])
        // Saved at once, before anything is written.
        #expect(try await Self.message(in: saved) == Self.old)
        let report = try await Self.write(Self.new, connstring: sim.connstring)
        #expect(report?.changed == true)
        sim.stop()
        #expect(try await Self.message(in: saved) == Self.new)
        let attributes = try FileManager.default.attributesOfItem(atPath: saved.path)
        #expect((attributes[.posixPermissions] as? Int ?? 0) & 0o077 == 0, "the file is private")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["poster.nfc"], "no temporary file left")

        // The saved file is the object again: nfcscan reads the new message from it.
        let again = try NFCSimPN532Child(["--dump", saved.path, "--for", "30"])
        defer { again.stop() }
        let result = try ScanCLI.run(["--json", "--timeout", "10"], connstring: again.connstring)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("https://example.com/new-poster"), "\(result.stdout)")
        #expect(result.stdout.contains("Saved by nfcsim"), "\(result.stdout)")
        #expect(again.log.contains("NTAG215"), "\(again.log)")
    }

    @Test func aRawImageSavedIsWhatTheDumpHasWritten() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = directory.appendingPathComponent("poster.bin")
        let sim = try NFCSimPN532Child(["--type", "ntag213", "--uri", "https://example.com/old-poster", "--save", saved.path, "--for", "60"])
        _ = try await Self.write(Self.new, connstring: sim.connstring)
        sim.stop()
        let image = [UInt8](try Data(contentsOf: saved))
        #expect(image.count == Type2Product.ntag213.totalPages * 4)
        #expect(try await Self.message(in: saved, raw: .type2(.ntag213)) == Self.new)
        // libnfc's own tool reads the same bytes from the object the image presents.
        let again = try NFCSimPN532Child(["--type", "ntag213", "--dump", saved.path, "--for", "30"])
        defer { again.stop() }
        let read = directory.appendingPathComponent("read.bin")
        let result = try LibNFCTool.run("nfc-mfultralight", ["r", read.path], connstring: again.connstring)
        #expect(result.status == 0, "\(result.output)")
        // As READ answers it: the image keeps PWD and PACK, which read as zeros.
        let asRead = try VirtualType2Tag(product: .ntag213, image: image).memoryAsRead
        #expect(Array([UInt8](try Data(contentsOf: read)).prefix(image.count)) == asRead)
    }

    @Test(arguments: ["pn532", "vpcd"])
    func aSymbolicLinkAJSONNameATopazInAnNFCFileOrAType4IsRefusedBeforeStarting(command: String) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("elsewhere.nfc")
        try Data("keep".utf8).write(to: target)
        let link = directory.appendingPathComponent("link.nfc")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let nfcsim = try Repository.requireBuilt(Repository.nfcsim)
        let viaLink = try BoundedProcess.run(nfcsim, [command, "--save", link.path, "--for", "1"], output: .together, timeout: 20)
        #expect(viaLink.status == 73, "\(viaLink.stdout)")
        #expect(viaLink.stdout.contains("is a symbolic link"), "\(viaLink.stdout)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep")
        let json = try BoundedProcess.run(nfcsim, [command, "--save", directory.appendingPathComponent("x.json").path, "--for", "1"], output: .together, timeout: 20)
        #expect(json.status == 64, "\(json.stdout)")
        #expect(json.stdout.contains("name the file .nfc"), "\(json.stdout)")
        let topaz = try BoundedProcess.run(nfcsim, [command, "--type", "topaz96", "--save", directory.appendingPathComponent("t.nfc").path, "--for", "1"],
                                           output: .together, timeout: 20)
        #expect(topaz.status == 64, "\(topaz.stdout)")
        #expect(topaz.stdout.contains("cannot hold a Topaz; name the file .bin"), "\(topaz.stdout)")
        guard command == "vpcd" else { return }
        let type4 = try BoundedProcess.run(nfcsim, [command, "--type", "type4", "--save", directory.appendingPathComponent("t.bin").path, "--for", "1"],
                                           output: .together, timeout: 20)
        #expect(type4.status == 64, "\(type4.stdout)")
        #expect(type4.stdout.contains("has no dump format"), "\(type4.stdout)")
    }

    /// A FeliCa taken away between WriteF 0F and the commit: what a person sees is a clean
    /// refusal that says to save again, never part of a message.
    @Test func aHalfWrittenFeliCaIsRefusedNotShownInPart() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var tag = try VirtualType3Tag(message: Self.old)
        let length = Self.old.encoded().count
        tag.write(Type3AttributeBlock.encode(blocksPerCheck: 4, blocksPerUpdate: 1, maxBlocks: 13, writeFlag: 0x0F, ndefLength: length), atBlock: 0)
        // Half the new message already over the old one.
        tag.write(Array(Self.new.encoded().prefix(16)), atBlock: 1)
        let file = directory.appendingPathComponent("torn.nfc")
        try Data(try DumpFile.serialise(tag.dumpedChip, as: .flipper)).write(to: file)
        let sim = try NFCSimPN532Child(["--dump", file.path, "--for", "30"])
        defer { sim.stop() }
        let result = try ScanCLI.run(["--timeout", "10"], connstring: sim.connstring)
        #expect(result.status == 65, "\(result.stdout)")
        #expect(result.stderr.contains("Saving to the item was cut short. Save it again."), "\(result.stdout) \(result.stderr)")
        #expect(!result.stdout.contains("example.com"), "no part of either message is shown")
        print("nfcscan on a half-written FeliCa: \(result.stdout)\(result.stderr)")
    }

    /// libnfc's own tool writes the card; the saved file then holds its bytes.
    @Test func whatNfcMfclassicWritesIsSaved() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = directory.appendingPathComponent("card.nfc"), image = directory.appendingPathComponent("card.mfd")
        let sim = try NFCSimPN532Child(["--type", "classic1k", "--uri", "https://example.com/old-card", "--save", saved.path, "--for", "60"])
        defer { sim.stop() }
        let read = try LibNFCTool.run("nfc-mfclassic", ["r", "a", "u", image.path], connstring: sim.connstring, timeout: 60)
        #expect(read.output.contains("Done, 64 of 64 blocks read."), "\(read.output)")
        // A new message within block 4, the first data block of the first NDEF sector: libnfc
        // 1.8.0's nfc-mfclassic w writes only the first block of each sector, on any card (its
        // write sits inside write_card's is_first_block branch; the trace shows no WRITE for the
        // other blocks, though it counts them written).
        var bytes = [UInt8](try Data(contentsOf: image))
        let message = NDEFMessage(URIRecord(uri: "https://a.io").record()).encoded()
        let block = [0x03, UInt8(message.count)] + message + [0xFE]
        bytes.replaceSubrange(64..<(64 + block.count), with: block)
        try Data(bytes).write(to: image)
        // Capital A: go on past the trailers key A may not write.
        let write = try LibNFCTool.run("nfc-mfclassic", ["w", "A", "u", image.path], connstring: sim.connstring, timeout: 60)
        #expect(write.output.contains("blocks written"), "\(write.output)")
        sim.stop()
        let dump = try DumpFile.parse([UInt8](try Data(contentsOf: saved)), raw: nil)
        guard case .classic(let chip) = dump.chip else { Issue.record("not a Classic"); return }
        #expect(Array(chip.memory[64..<(64 + block.count)]) == block)
    }
}
