import Foundation
import NDEF
import NFCCopy
import NFCScanKit
import NFCSim
import NFCTags
import Testing
import TestSupport

/// Malformed and hostile Type 2 memory images, presented by `nfcsim --image` through the real
/// libnfc (`nfcsim pn532`) and a real, private pcscd (`nfcsim vpcd`), read by the built
/// `nfcscan`: it never crashes, prints no partial message, says one clear sentence and exits
/// with the documented status.
@Suite(.serialized) struct HostileImageScanTests {
    static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
    static let hostileText = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{202E}txt.exe\u{2066}"

    enum Backend: String, CaseIterable, Sendable { case libnfc, pcsc }

    /// One image and what nfcscan must do with it.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var image: @Sendable () throws -> [UInt8]
        /// nil: a data failure (stdout empty, one sentence on stderr) with `status`.
        var stdout: String?
        var status: Int32
        /// The sentence a data failure ends with.
        var sentence: @Sendable (any ScanCopyCatalog) -> String = { $0.unreadableContent }
        /// The backends the case holds for.
        var backends: [Backend] = Backend.allCases
        var testDescription: String { name }
    }

    /// A formatted NTAG213 whose data area (from page 4) is `dataArea`, CC bytes replaced by `cc`.
    static func ntag213(dataArea: [UInt8], cc: [UInt8]? = nil) throws -> [UInt8] {
        var image = try Type2MemoryImage.make(product: .ntag213, uid: uid, dataArea: dataArea)
        if let cc { image.replaceSubrange(12..<16, with: cc) }
        return image
    }

    static func message() throws -> NDEFMessage {
        NDEFMessage(URIRecord(uri: "https://example.com/poster").record(), try TextRecord(text: "Summer concert").record())
    }

    static let cases: [Case] = [
        Case(name: "CC claims 2 KB on an NTAG213", image: {
            // 0xFF × 8 = 2040 bytes of data area claimed; the NDEF TLV's length (1792) fits
            // the claim but not the chip's 144 bytes.
            try ntag213(dataArea: [0x03, 0xFF, 0x07, 0x00, 0xD1, 0x01], cc: [0xE1, 0x10, 0xFF, 0x00])
        }, stdout: nil, status: 65),
        Case(name: "NDEF TLV length past the end of memory", image: {
            try ntag213(dataArea: [0x03, 0xF0, 0xD1, 0x01, 0xEC, 0x54, 0x02, 0x65, 0x6E])
        }, stdout: nil, status: 65),
        Case(name: "3-byte TLV length 0xFFFE", image: {
            try ntag213(dataArea: [0x03, 0xFF, 0xFF, 0xFE, 0xD1, 0x01, 0x03, 0x54, 0x02, 0x65, 0x6E])
        }, stdout: nil, status: 65),
        Case(name: "valid TLV, broken chunk sequence inside", image: {
            // A first chunk (MB, CF) of a text record, then a record with a type of its own
            // instead of a middle or final chunk (TNF 6, no type).
            let ndef: [UInt8] = [0xB1, 0x01, 0x03, 0x54, 0x02, 0x65, 0x6E,
                                 0x51, 0x01, 0x01, 0x54, 0x61]
            return try ntag213(dataArea: [0x03, UInt8(ndef.count)] + ndef + [0xFE])
        }, stdout: nil, status: 65),
        Case(name: "text with terminal escapes and bidi overrides", image: {
            let message = NDEFMessage(try TextRecord(text: hostileText).record())
            return try ntag213(dataArea: try Type2MemoryImage.dataArea(holding: message, capacity: Type2Product.ntag213.ccDataAreaSize))
        }, stdout: "Text: \\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{202e}txt.exe\\u{2066}\n", status: 0),
        Case(name: "leftover bytes after the message and no Terminator", image: {
            // Issue 12: a real Ultralight's NDEF TLV was followed by 0x8d… and no 0xFE.
            let tlv = TLVWalker.encode(.ndefMessage, value: try message().encoded())!
            return try ntag213(dataArea: tlv + [0x8D, 0x41, 0x00, 0x72, 0x03, 0xFF, 0x12])
        }, stdout: "Link: https://example.com/poster\nText: Summer concert\n", status: 0),
        Case(name: "a vCard in Latin-1 between a link and a text", image: {
            // Issue 12: one payload that does not fit its type hid the whole message.
            let card = Array("BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Jos".utf8) + [0xE9] + Array("\r\nEND:VCARD\r\n".utf8)
            let records = try message().records
            let withCard = NDEFMessage(records: [records[0], NDEFRecord(tnf: .media, type: "text/vcard", payload: card), records[1]])
            return try ntag213(dataArea: try Type2MemoryImage.dataArea(holding: withCard, capacity: Type2Product.ntag213.ccDataAreaSize))
        }, stdout: "Link: https://example.com/poster\n\(ScanCopy.catalog().unreadableRecord)\nText: Summer concert\n", status: 0),
        // Issue 23: what the object holds does not change by scanning again: 65, never 74's "try again".
        Case(name: "CC of a newer mapping version", image: {
            try ntag213(dataArea: try Type2MemoryImage.dataArea(holding: message(), capacity: 144), cc: [0xE1, 0x20, 0x12, 0x00])
        }, stdout: nil, status: 65, sentence: { $0.newerForm }),
        // Issue 23: lock bytes a Lock Control TLV announces, between it and the message (before:
        // "reserved TLV tag 0xff", 65), and a TLV of a reserved tag (before: refused).
        Case(name: "lock bytes between the TLVs", image: {
            try ntag213(dataArea: [0x01, 0x03, 0x51, 0x10, 0x42, 0xFF, 0xFF] + TLVWalker.encode(.ndefMessage, value: try message().encoded())! + [0xFE])
        }, stdout: "Link: https://example.com/poster\nText: Summer concert\n", status: 0),
        Case(name: "a TLV of a reserved tag before the message", image: {
            try ntag213(dataArea: [0x42, 0x02, 0x00, 0x00] + TLVWalker.encode(.ndefMessage, value: try message().encoded())! + [0xFE])
        }, stdout: "Link: https://example.com/poster\nText: Summer concert\n", status: 0),
        Case(name: "a valid image (control)", image: {
            try ntag213(dataArea: try Type2MemoryImage.dataArea(holding: message(), capacity: Type2Product.ntag213.ccDataAreaSize))
        }, stdout: "Link: https://example.com/poster\nText: Summer concert\n", status: 0),
    ]

    static func imageFile(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nfcscan-image-\(UUID().uuidString).bin")
        try Data(bytes).write(to: url)
        return url
    }

    /// nfcscan reading the image on `backend`; the result and nfcsim's log.
    static func scan(_ image: [UInt8], backend: Backend) throws -> (RunResult, String) {
        let file = try imageFile(image)
        defer { try? FileManager.default.removeItem(at: file) }
        switch backend {
        case .libnfc:
            let sim = try NFCSimPN532Child(["--type", "ntag213", "--image", file.path, "--for", "30"])
            defer { sim.stop() }
            let r = try ScanCLI.run(["--timeout", "10"], connstring: sim.connstring)
            return (r, sim.log)
        case .pcsc:
            let pcscd = try PrivatePCSCD(nfcsim: ["--type", "ntag213", "--image", file.path, "--after", "1", "--for", "30"])
            defer { pcscd.stop() }
            let r = try PCSCScanTests.nfcscan(["--timeout", "10"], socket: pcscd.socket)
            return (r, pcscd.log)
        }
    }

    @Test(arguments: Backend.allCases, cases)
    func nfcscanReadsTheImage(backend: Backend, test: Case) throws {
        guard test.backends.contains(backend) else { return }
        let (r, log) = try Self.scan(try test.image(), backend: backend)
        let context = "\(backend) \(test.name): status \(r.status)\nstdout: \(r.stdout)\nstderr: \(r.stderr)\nnfcsim: \(log)"
        #expect(!r.timedOut, "\(context)")
        #expect(r.status == test.status, "\(context)")
        let copy = ScanCopy.catalog()
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(Array(lines.prefix(2)) == [copy.firstPrompt, copy.reading], "\(context)")
        if let stdout = test.stdout {
            #expect(r.stdout == stdout, "\(context)")
            #expect(lines.count == 2, "\(context)")
            #expect(!r.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E || $0.value == 0x2066 })
        } else {
            #expect(r.stdout == "", "no partial message: \(context)")
            // The prompt, the progress line, then one sentence for a person.
            #expect(lines.count == 3, "\(context)")
            #expect(lines.last == test.sentence(copy), "\(context)")
            for line in lines { #expect(CopyRules.problems(in: line).isEmpty, "\(line): \(CopyRules.problems(in: line))") }
        }
        print("nfcscan through \(backend), \(test.name): status \(r.status), stderr \(r.stderr.debugDescription)")
    }

    @Test func anImageOfTheWrongSizeIsRefusedByNFCSim() throws {
        let long = try Self.imageFile([UInt8](repeating: 0, count: 181))
        let short = try Self.imageFile(try Self.ntag213(dataArea: []).prefix(100).map { $0 })
        defer { try? FileManager.default.removeItem(at: long); try? FileManager.default.removeItem(at: short) }
        let r = try Self.runNFCSim(["pn532", "--type", "ntag213", "--image", long.path])
        #expect(r.status == 65)
        #expect(r.stdout == "")
        #expect(r.stderr == "nfcsim: \(long.path) has 181 bytes, more than the NTAG213's memory (180 bytes, 45 pages of 4); give an image of at most 180 bytes or another --type\n")
        let vpcd = try Self.runNFCSim(["vpcd", "--type", "ntag213", "--image", long.path])
        #expect(vpcd.status == 65)
        #expect(vpcd.stderr == r.stderr, "the same message from both subcommands")
        let type4 = try Self.runNFCSim(["vpcd", "--type", "type4", "--image", short.path])
        #expect(type4.status == 64)
        #expect(type4.stderr.contains("--image is for Type 2 objects"), "\(type4.stderr)")
        // A shorter image is padded, and nfcsim says so.
        let sim = try NFCSimPN532Child(["--type", "ntag213", "--image", short.path, "--uid", "04112233445566", "--for", "5"])
        let log = sim.stop()
        #expect(log.contains("nfcsim: \(short.path) has 100 bytes, the NTAG213's memory 180; the other 80 are zeros"), "\(log)")
        #expect(log.contains("--uid is ignored"), "\(log)")
        #expect(log.contains("NTAG213 UID 04 a1 b2 c3 d4 e5 f6"), "the UID is the image's: \(log)")
    }

    /// The built nfcsim with `arguments`, bounded in time.
    static func runNFCSim(_ arguments: [String]) throws -> RunResult {
        try BoundedProcess.run(Repository.nfcsim, arguments, timeout: 10)
    }
}
