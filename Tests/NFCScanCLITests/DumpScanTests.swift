import Foundation
import NDEF
import NFCSim
import NFCTags
import Testing
import TestSupport

/// `nfcsim --dump` end to end: a dump file of each format, written here from an image the test
/// builds, presented through the real libnfc (`nfcsim pn532`) or a real, private pcscd (`nfcsim
/// vpcd`) and read by the built `nfcscan --json`: the UID, the platform and the records are the
/// dump's.
@Suite(.serialized) struct DumpScanTests {
    enum Backend: String, Sendable { case libnfc, pcsc }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var backend: Backend
        var suffix: String
        var contents: @Sendable () throws -> [UInt8]
        var arguments: [String] = []
        var uid: String
        var platform: String
        var testDescription: String { "\(name) through \(backend)" }
    }

    static let uri = "https://example.com/poster"
    static let message = NDEFMessage(URIRecord(uri: uri).record())
    static let uid7: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
    static let uid4: [UInt8] = [0x5C, 0x2A, 0x91, 0xE3]
    static let slixUID: [UInt8] = [0xE0, 0x04, 0x01, 0x08, 0x11, 0x22, 0x33, 0x44]

    static func type2(_ product: Type2Product, pages: Int? = nil) throws -> [UInt8] {
        var image = try Type2MemoryImage.make(product: product, uid: uid7,
                                              dataArea: Type2MemoryImage.dataArea(holding: message, capacity: product.ccDataAreaSize))
        if let pages { image += [UInt8](repeating: 0, count: pages * 4 - image.count) }
        return image
    }

    static func type5() throws -> [UInt8] {
        let area = try Type2MemoryImage.dataArea(holding: message, capacity: 312)
        return [0xE1, 0x40, 0x27, 0x01] + area + [UInt8](repeating: 0, count: 316 - area.count)
    }

    static func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let cases: [Case] = [
        Case(name: "Flipper v2 NTAG215", backend: .libnfc, suffix: ".nfc", contents: {
            utf8(DumpFiles.flipperType2(version: 2, chip: "NTAG215", memory: try type2(.ntag215), getVersion: Type2Product.ntag215.version))
        }, uid: "04a1b2c3d4e5f6", platform: "type2"),
        Case(name: "Flipper v2 NTAG215", backend: .pcsc, suffix: ".nfc", contents: {
            utf8(DumpFiles.flipperType2(version: 2, chip: "NTAG215", memory: try type2(.ntag215), getVersion: Type2Product.ntag215.version))
        }, uid: "04a1b2c3d4e5f6", platform: "type2"),
        Case(name: "Flipper v4 Ultralight EV1 MF0UL21", backend: .libnfc, suffix: ".nfc", contents: {
            var product = Type2Product.ultralightEV1_128
            product.ccDataAreaSize = 128
            return utf8(DumpFiles.flipperType2(chip: "Mifare Ultralight 21", memory: try type2(product), getVersion: product.version))
        }, uid: "04a1b2c3d4e5f6", platform: "type2"),
        Case(name: "Flipper v4 Ultralight C", backend: .pcsc, suffix: ".nfc", contents: {
            utf8(DumpFiles.flipperType2(chip: "Mifare Ultralight C", memory: try type2(.ultralight, pages: 48), getVersion: nil))
        }, uid: "04a1b2c3d4e5f6", platform: "type2"),
        Case(name: "Flipper MIFARE Classic 1K, sector 15 unread", backend: .libnfc, suffix: ".nfc", contents: {
            utf8(DumpFiles.flipperClassic(size: .classic1K, uid: uid4, memory: try MifareClassicImage.make(size: .classic1K, uid: uid4, message: message), unread: [15]))
        }, uid: "5c2a91e3", platform: "mifare-classic"),
        Case(name: "Flipper SLIX", backend: .pcsc, suffix: ".nfc", contents: {
            utf8(DumpFiles.flipperType5(uid: slixUID, blockSize: 4, memory: try type5() + [0, 0, 0, 0]))
        }, uid: "e004010811223344", platform: "type5"),
        Case(name: "Flipper FeliCa Lite-S", backend: .libnfc, suffix: ".nfc", contents: {
            let tag = try VirtualType3Tag(message: message)
            return utf8(DumpFiles.flipperFeliCa(idm: tag.idm, pmm: tag.pmm, blocks: tag.memory))
        }, uid: "012e4ce1a2b3c4d5", platform: "type3"),
        Case(name: "Proxmark3 hf mfu NTAG213", backend: .libnfc, suffix: ".json", contents: {
            utf8(DumpFiles.proxmarkUltralight(memory: try type2(.ntag213), getVersion: Type2Product.ntag213.version!))
        }, uid: "04a1b2c3d4e5f6", platform: "type2"),
        Case(name: "Proxmark3 hf mf 4K", backend: .libnfc, suffix: ".json", contents: {
            utf8(DumpFiles.proxmarkClassic(size: .classic4K, uid: uid4, memory: try MifareClassicImage.make(size: .classic4K, uid: uid4, message: message)))
        }, uid: "5c2a91e3", platform: "mifare-classic"),
        Case(name: "Metrodroid NTAG216", backend: .pcsc, suffix: ".json", contents: {
            utf8(DumpFiles.metrodroidUltralight(memory: try type2(.ntag216), model: "NTAG216"))
        }, uid: "04a1b2c3d4e5f6", platform: "type2"),
        Case(name: "Metrodroid MIFARE Classic 1K", backend: .libnfc, suffix: ".json", contents: {
            utf8(DumpFiles.metrodroidClassic(size: .classic1K, uid: uid4, memory: try MifareClassicImage.make(size: .classic1K, uid: uid4, message: message)))
        }, uid: "5c2a91e3", platform: "mifare-classic"),
        Case(name: "Metrodroid FeliCa", backend: .libnfc, suffix: ".json", contents: {
            let tag = try VirtualType3Tag(message: message)
            return utf8(DumpFiles.metrodroidFeliCa(idm: tag.idm, pmm: tag.pmm, blocks: tag.memory))
        }, uid: "012e4ce1a2b3c4d5", platform: "type3"),
        Case(name: "raw Type 5 user memory", backend: .pcsc, suffix: ".bin", contents: { try type5() },
             arguments: ["--type", "icodeslix2"], uid: "e0040108662d4a90", platform: "type5"),
        Case(name: "raw MIFARE Classic 1K (.mfd)", backend: .libnfc, suffix: ".mfd", contents: {
            try MifareClassicImage.make(size: .classic1K, uid: uid4, message: message)
        }, arguments: ["--type", "classic1k"], uid: "5c2a91e3", platform: "mifare-classic"),
    ]

    /// nfcscan --json reading the dump on `backend`; its result and nfcsim's log.
    static func scan(_ file: URL, arguments: [String], backend: Backend) throws -> (RunResult, String) {
        switch backend {
        case .libnfc:
            let sim = try NFCSimPN532Child(["--dump", file.path] + arguments + ["--for", "30"])
            defer { sim.stop() }
            return (try ScanCLI.run(["--json", "--timeout", "10"], connstring: sim.connstring), sim.log)
        case .pcsc:
            let pcscd = try PrivatePCSCD(nfcsim: ["--dump", file.path] + arguments + ["--after", "1", "--for", "30"])
            defer { pcscd.stop() }
            return (try PCSCScanTests.nfcscan(["--json", "--timeout", "10"], socket: pcscd.socket), pcscd.log)
        }
    }

    @Test(arguments: cases)
    func nfcscanReadsTheDump(test: Case) throws {
        let file = try DumpFiles.write(try test.contents(), suffix: test.suffix)
        defer { try? FileManager.default.removeItem(at: file) }
        let (r, log) = try Self.scan(file, arguments: test.arguments, backend: test.backend)
        let context = "status \(r.status)\nstdout: \(r.stdout)\nstderr: \(r.stderr)\nnfcsim: \(log)"
        #expect(!r.timedOut, "\(context)")
        #expect(r.status == 0, "\(context)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(context)")
        let object = json["object"] as? [String: Any]
        #expect(object?["uid"] as? String == test.uid, "\(context)")
        #expect(object?["platform"] as? String == test.platform, "\(context)")
        let records = json["records"] as? [[String: Any]] ?? []
        #expect(records.map { $0["uri"] as? String } == [Self.uri], "\(context)")
        #expect(log.contains("dump"), "nfcsim names the dump: \(log)")
    }

    @Test func aDumpTheBackendCannotPresentIsRefusedWithTheWayOut() throws {
        let slix = try DumpFiles.write(DumpFiles.flipperType5(uid: Self.slixUID, blockSize: 4, memory: try Self.type5() + [0, 0, 0, 0]), suffix: ".nfc")
        let felica = try DumpFiles.write(DumpFiles.flipperFeliCa(idm: VirtualType3Tag.defaultIDm, pmm: VirtualType3Tag.defaultPMm,
                                                                 blocks: try VirtualType3Tag(message: Self.message).memory), suffix: ".nfc")
        let broken = try DumpFiles.write("Filetype: Flipper NFC device\nVersion: 4\nDevice type: NTAG213\nUID: 04 A1 B2 C3 D4 E5 F6\nPage 0: 04 A1\n", suffix: ".nfc")
        defer { for file in [slix, felica, broken] { try? FileManager.default.removeItem(at: file) } }
        let pn532 = try BoundedProcess.run(Repository.nfcsim, ["pn532", "--dump", slix.path], timeout: 10)
        #expect(pn532.status == 65)
        #expect(pn532.stderr == "nfcsim: \(slix.path) holds an ISO 15693 object (ICODE SLIX), which a PN532 cannot read; present it through PC/SC with nfcsim vpcd --dump \(slix.path)\n")
        let vpcd = try BoundedProcess.run(Repository.nfcsim, ["vpcd", "--dump", felica.path], timeout: 10)
        #expect(vpcd.status == 65)
        #expect(vpcd.stderr.contains("holds a FeliCa, which a storage-card reader cannot read; use nfcsim vpcd --reader acr122u (or part3) --dump"), "\(vpcd.stderr)")
        let bad = try BoundedProcess.run(Repository.nfcsim, ["pn532", "--dump", broken.path], timeout: 10)
        #expect(bad.status == 65)
        #expect(bad.stderr == "nfcsim: \(broken.path), line 5: Page 0 has 2 bytes, not 4; save the dump again from the reader or app that made it\n")
        let both = try BoundedProcess.run(Repository.nfcsim, ["pn532", "--dump", broken.path, "--uri", "https://example.com"], timeout: 10)
        #expect(both.status == 64)
        #expect(both.stderr.contains("--dump is the whole object"), "\(both.stderr)")
    }
}
