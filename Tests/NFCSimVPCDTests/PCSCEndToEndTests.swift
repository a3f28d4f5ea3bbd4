import Foundation
import NDEF
import NFCSim
import NFCTags
import Testing
import TestSupport

/// `nfcsim vpcd` in a private pcscd (scripts/private-pcscd.sh), seen by the PC/SC tools people
/// use: pcsc_scan and pyscard. vpcd arrival takes up to ~0.5 s (pcscd polls), so each test takes
/// one to four seconds.
@Suite(.serialized) struct PCSCEndToEndTests {
    static let uid = "04a1b2c3d4e5f6"
    static let storageATR = "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68"

    struct APDUResult: Decodable {
        var readers: [String]
        var atr: String?
        var responses: [String?]
    }

    /// Sends `apdus` (hex) to the card in "nfcsim 00 00" with pyscard, waiting up to 3 s for it.
    static func pyscard(_ pcscd: PrivatePCSCD, _ apdus: [String]) throws -> (APDUResult, RunResult) {
        try PCSCTools.requirePyscard()
        let result = try PCSCTools.run(PCSCTools.python, [PCSCTools.apduScript, "--reader", "nfcsim 00 00", "--wait", "3"] + apdus,
                                       environment: pcscd.environment, timeout: 15)
        #expect(!result.timedOut)
        let json = result.output.split(separator: "\n").last { $0.hasPrefix("{") }.map(String.init) ?? "{}"
        let decoded = try JSONDecoder().decode(APDUResult.self, from: Data(json.utf8))
        return (decoded, result)
    }


    @Test func pcscScanSeesTheReaderAndTheCardArriveAndLeave() throws {
        let pcscd = try PrivatePCSCD(nfcsim: ["--uri", "https://example.com/poster", "--after", "0.6", "--for", "1"])
        defer { pcscd.stop() }
        let scan = try PCSCTools.run(try Repository.installed("pcsc_scan"), ["-n", "-t", "3"], environment: pcscd.environment, timeout: 10)
        #expect(!scan.timedOut)
        let output = scan.output.replacingOccurrences(of: "\r", with: "\n")
        #expect(output.contains("0: nfcsim 00 00"), "\(output)")
        let inserted = try #require(output.range(of: "Card state: Card inserted, \n  ATR: \(Self.storageATR)"), "\(output)")
        #expect(output[inserted.upperBound...].contains("Card state: Card removed"), "the card leaves after it came: \(output)")
        #expect(pcscd.waitForLine(startingWith: "nfcsim: the card left the reader", timeout: 2) != nil, "\(pcscd.log)")
    }

    @Test func pyscardReadsTheType2StorageCard() throws {
        let message = NDEFMessage(URIRecord(uri: "https://example.com/summer-concert").record(),
                                  try TextRecord(text: "Summer concert in the park").record())
        let pcscd = try PrivatePCSCD(nfcsim: ["--uri", "https://example.com/summer-concert", "--text", "Summer concert in the park",
                                              "--type", "ntag215", "--uid", Self.uid, "--for", "10"])
        defer { pcscd.stop() }
        let encoded = message.encoded()
        let tlv = [0x03, UInt8(encoded.count)] + encoded
        let pages = stride(from: 4, to: 4 + (tlv.count + 3) / 4, by: 4).map { String(format: "FFB000%02X10", $0) }
        let (result, run) = try Self.pyscard(pcscd, ["FFCA000000", "FFB0000000"] + pages + ["FFB0008710", "FFB0000020", "FFCA010000"])
        #expect(run.status == 0, "\(run.output)\n\(pcscd.log)")
        #expect(result.readers.contains("nfcsim 00 00"))
        #expect(hex(printed: result.atr) == hex(printed: Self.storageATR))
        try #require(result.responses.count == 2 + pages.count + 3, "\(run.output)")
        #expect(hex(printed: result.responses[0]) == hex(printed: Self.uid) + [0x90, 0x00], "FF CA: the UID")
        #expect(hex(printed: result.responses[1]).prefix(3) == [0x04, 0xA1, 0xB2], "page 0 holds the UID")
        var read: [UInt8] = []
        for response in result.responses[2..<(2 + pages.count)] {
            let bytes = hex(printed: response)
            #expect(bytes.suffix(2) == [0x90, 0x00])
            read += bytes.dropLast(2)
        }
        #expect(Array(read.prefix(tlv.count)) == tlv, "the pages from 4 on hold the message's NDEF TLV")
        #expect(hex(printed: result.responses[2 + pages.count]) == [0x6A, 0x82], "NTAG215 ends at page 134")
        #expect(hex(printed: result.responses[3 + pages.count]) == [0x6C, 0x10], "16 bytes at most per read")
        #expect(hex(printed: result.responses[4 + pages.count]) == [0x6A, 0x81], "a storage card has no ATS")
    }

    @Test func pyscardReadsTheType4ObjectThroughTheNDEFApplication() throws {
        let message = NDEFMessage(URIRecord(uri: "https://example.com/poster").record())
        let encoded = message.encoded()
        let pcscd = try PrivatePCSCD(nfcsim: ["--type", "type4", "--uri", "https://example.com/poster", "--uid", Self.uid, "--for", "10"])
        defer { pcscd.stop() }
        let (result, run) = try Self.pyscard(pcscd, [
            "FFCA000000",
            "00A4040007D276000085010100",   // SELECT the NDEF application (v2)
            "00A4000C02E103", "00B000000F",  // the CC file
            "00A4000C02E104", "00B0000002",  // NLEN
            String(format: "00B00002%02X", encoded.count),
        ])
        #expect(run.status == 0, "\(run.output)\n\(pcscd.log)")
        #expect(result.atr == "3b8180018080", "ISO-DEP with DESFire's historical byte")
        try #require(result.responses.count == 7, "\(run.output)")
        #expect(hex(printed: result.responses[0]) == hex(printed: Self.uid) + [0x90, 0x00])
        #expect(result.responses[1] == "9000")
        #expect(result.responses[2] == "9000")
        let cc = hex(printed: result.responses[3])
        #expect(cc.suffix(2) == [0x90, 0x00] && cc.count == 17 && cc[2] == 0x20, "a mapping 2.0 CC")
        #expect(result.responses[4] == "9000")
        #expect(hex(printed: result.responses[5]) == [0x00, UInt8(encoded.count), 0x90, 0x00])
        #expect(hex(printed: result.responses[6]) == encoded + [0x90, 0x00])
    }

    @Test func theObjectCanArriveLateAndTheScriptCleansUp() throws {
        let pcscd = try PrivatePCSCD(nfcsim: ["--uri", "https://example.com", "--after", "1", "--for", "5"])
        let directory = URL(fileURLWithPath: pcscd.socket).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let start = ContinuousClock.now
        let (result, run) = try Self.pyscard(pcscd, ["FFCA000000"])
        #expect(run.status == 0, "\(run.output)\n\(pcscd.log)")
        #expect(start.duration(to: .now) >= .milliseconds(900), "no card before --after")
        #expect(hex(printed: result.responses.first ?? nil) == VirtualType2Tag.defaultUID + [0x90, 0x00])
        let log = pcscd.stop()
        #expect(log.contains("nfcsim: stopped"), "nfcsim stops on SIGTERM: \(log)")
        #expect(!FileManager.default.fileExists(atPath: directory.path), "the state directory is removed: \(directory.path)")
    }
}

@Suite struct VPCDCommandLineTests {
    @Test func helpTeachesThePrivatePCSCD() throws {
        try Repository.requireBuilt(Repository.nfcsim)
        let help = try PCSCTools.run(Repository.nfcsim, ["vpcd", "--help"], timeout: 10)
        #expect(help.status == 0)
        #expect(help.output.contains("scripts/private-pcscd.sh"))
        #expect(help.output.contains("PCSCLITE_CSOCK_NAME"))
        #expect(help.output.contains("--after"))
        let wrong = try PCSCTools.run(Repository.nfcsim, ["vpcd", "--ndef", "/dev/null", "--uri", "https://example.com"], timeout: 10)
        #expect(wrong.status == 64, "\(wrong.output)")
    }
}
