import Foundation
import NDEF
import NFCSim
import NFCTags
import Testing
import TestSupport

/// pcsc_scan sees the virtual MIFARE Classic and ISO 15693 cards with their Part 3 ATRs.
@Suite(.serialized) struct StorageCardScanTests {
    @Test(arguments: [("classic1k", "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 01 00 00 00 00 6A"),
                      ("classic4k", "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 02 00 00 00 00 69"),
                      ("icodeslix2", "3B 8F 80 01 80 4F 0C A0 00 00 03 06 0B 00 14 00 00 00 00 77")])
    func pcscScanShowsTheATR(type: String, atr: String) throws {
        let pcscd = try PrivatePCSCD(nfcsim: ["--type", type, "--uri", "https://example.com/poster", "--after", "0.6", "--for", "1"])
        defer { pcscd.stop() }
        let scan = try PCSCTools.run(try Repository.installed("pcsc_scan"), ["-n", "-t", "3"], environment: pcscd.environment, timeout: 10)
        #expect(!scan.timedOut)
        let output = scan.output.replacingOccurrences(of: "\r", with: "\n")
        #expect(output.contains("ATR: \(atr)"), "\(output)\n\(pcscd.log)")
        #expect(output.contains("Card state: Card removed"), "\(output)")
    }

    @Test func pyscardAuthenticatesAndReadsTheClassicCard() throws {
        let pcscd = try PrivatePCSCD(nfcsim: ["--type", "classic1k", "--uri", "https://example.com/poster", "--for", "10"])
        defer { pcscd.stop() }
        let (result, run) = try PCSCEndToEndTests.pyscard(pcscd, [
            "FFB0000110",                       // not authenticated
            "FF82000006A0A1A2A3A4A5", "FF860000050100036000", "FFB0000110",
            "FF82000006FFFFFFFFFFFF", "FF860000050100076000",   // wrong key for sector 1
        ])
        #expect(run.status == 0, "\(run.output)\n\(pcscd.log)")
        try #require(result.responses.count == 6, "\(run.output)")
        #expect(result.responses[0]?.uppercased() == "6982")
        #expect(result.responses[1]?.uppercased() == "9000")
        #expect(result.responses[2]?.uppercased() == "9000")
        #expect(result.responses[3]?.uppercased().hasPrefix("140103E1") == true, "\(result.responses)")
        #expect(result.responses[5]?.uppercased() == "6300")
    }
}
