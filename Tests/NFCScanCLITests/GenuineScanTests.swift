import Foundation
import NDEF
import NFCSim
import NFCTags
import Testing
import TestSupport

/// Is the chip genuine, end to end: a dump carrying a real NTAG216's UID and originality signature
/// (Flipper's fz_Ntag216, unleashed-firmware's unit-test resources), presented by `nfcsim --dump`
/// through the real libnfc, whose READ_SIG answers the dump's signature; `nfcscan --json` and
/// `nfcscan info` check it with OpenSSL against NXP's key. The same signature on a UID one byte
/// off is a copy's.
@Suite(.serialized) struct GenuineScanTests {
    static let uid = hex("04D9650A325E80")
    static let signature = hex("482AF2010FF2F5A79AD5796ECB14544898D1575D8A23A9B0E820023ECDC816DB")

    static func dump(uid: [UInt8]) throws -> URL {
        let message = NDEFMessage(URIRecord(uri: "https://example.com/badge").record())
        let memory = try Type2MemoryImage.make(product: .ntag216, uid: uid,
                                               dataArea: Type2MemoryImage.dataArea(holding: message, capacity: Type2Product.ntag216.ccDataAreaSize))
        return try DumpFiles.write(DumpFiles.flipperType2(chip: "NTAG216", memory: memory, getVersion: Type2Product.ntag216.version,
                                                          signature: signature), suffix: ".nfc")
    }

    static func json(_ result: RunResult) throws -> [String: Any] {
        let context = "status \(result.status)\nstdout: \(result.stdout)\nstderr: \(result.stderr)"
        #expect(result.status == 0, "\(context)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(context)")
        return try #require(report["object"] as? [String: Any], "\(context)")
    }

    @Test func aRealChipsSignatureIsGenuineAndOnAnotherUIDItIsNot() throws {
        let genuine = try Self.dump(uid: Self.uid)
        defer { try? FileManager.default.removeItem(at: genuine) }
        let sim = try NFCSimPN532Child(["--dump", genuine.path, "--for", "60"])
        defer { _ = sim.stop() }
        let scan = try ScanCLI.run(["--json", "--verbose", "--timeout", "10"], connstring: sim.connstring)
        let object = try Self.json(scan)
        #expect(object["genuine"] as? Bool == true, "\(scan.stdout)\n\(scan.stderr)")
        #expect(object["genuine_key"] as? String == "NXP NTAG21x")
        #expect(scan.stderr.contains("nfcscan: genuine: its originality signature verifies under NXP NTAG21x"), "\(scan.stderr)")
        let info = try ScanCLI.run(["info", "--object", "badge", "--timeout", "10"], connstring: sim.connstring)
        #expect(info.status == 0 && info.stdout.hasSuffix("This badge's chip is genuine.\n"), "\(info.stdout)\n\(info.stderr)")
        let infoJSON = try Self.json(try ScanCLI.run(["info", "--json", "--timeout", "10"], connstring: sim.connstring))
        #expect(infoJSON["genuine"] as? Bool == true)

        var other = Self.uid
        other[6] ^= 0x01
        let copy = try Self.dump(uid: other)
        defer { try? FileManager.default.removeItem(at: copy) }
        let copySim = try NFCSimPN532Child(["--dump", copy.path, "--for", "60"])
        defer { _ = copySim.stop() }
        let copied = try Self.json(try ScanCLI.run(["--json", "--timeout", "10"], connstring: copySim.connstring))
        #expect(copied["genuine"] as? Bool == false)
        #expect(copied["genuine_key"] == nil)
        let copyInfo = try ScanCLI.run(["info", "--object", "badge", "--timeout", "10"], connstring: copySim.connstring)
        #expect(copyInfo.stdout.hasSuffix("This badge's chip may not be genuine.\n"), "\(copyInfo.stdout)\n\(copyInfo.stderr)")
    }

    /// Through a private pcscd: an ACR122U passes READ_SIG (genuine); a storage-card reader maps
    /// only reads, so nothing is checked: `genuine` is absent and --verbose says why.
    @Test func throughPCSCAPassThroughReaderChecksAndAStorageCardReaderCannot() throws {
        let genuine = try Self.dump(uid: Self.uid)
        defer { try? FileManager.default.removeItem(at: genuine) }
        for (reader, expected) in [("acr122u", true as Bool?), ("storage-card", nil)] {
            let pcscd = try PrivatePCSCD(nfcsim: ["--reader", reader, "--dump", genuine.path, "--after", "0.5", "--for", "20"])
            defer { pcscd.stop() }
            let scan = try PCSCScanTests.nfcscan(["--json", "--verbose", "--timeout", "10"], socket: pcscd.socket)
            let object = try Self.json(scan)
            #expect(object["genuine"] as? Bool == expected, "\(reader): \(scan.stdout)\n\(scan.stderr)\n\(pcscd.log)")
            if expected == nil {
                #expect(scan.stderr.contains("nfcscan: genuineness not checked: this reader cannot ask the chip (NTAG21x) for its signature"),
                        "\(scan.stderr)")
            }
        }
    }
}
