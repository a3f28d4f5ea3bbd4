import Foundation
import NDEF
import NFCTags
import Testing
import TestSupport

/// Writing through the real pcsc-lite: a private pcscd holding `nfcsim vpcd`, the probe writing
/// with `DetectedObject.perform { $0.write(…) }`, and pyscard — another PC/SC client — reading the
/// card's bytes back with plain READ BINARY.
@Suite(.serialized) struct PCSCWriteTests {
    static let message = NDEFMessage(URIRecord(uri: "https://example.com/written-through-pcscd").record(),
                                     try! TextRecord(text: String(repeating: "Saved. ", count: 9)).record())


    /// Writes `message` to the card nfcsim holds (`type`, first holding `--uri`), with `extra`
    /// probe words (lock), then sends `apdus` with pyscard; returns the probe's output and the
    /// APDU answers.
    func write(type: String, extra: [String] = [], pyscard apdus: [String]) throws -> (RunResult, [[UInt8]]) {
        try PCSCRig.requireAll()
        try PCSCTools.requirePyscard()
        let pcscd = try PrivatePCSCD(nfcsim: ["--type", type, "--uri", "https://example.com/old", "--after", "0.5", "--for", "30"])
        defer { pcscd.stop() }
        let probe = try PCSCRig.probe(["write", Hex.string(Self.message.encoded())] + extra + ["20"], socket: pcscd.socket, timeout: 25)
        #expect(!probe.timedOut && probe.status == 0, "\(probe.output)\n\(pcscd.log)")
        let run = try PCSCTools.run(PCSCTools.python, [PCSCTools.apduScript, "--reader", "nfcsim 00 00", "--wait", "5"] + apdus,
                                    environment: pcscd.environment, timeout: 15)
        #expect(run.status == 0, "\(run.output)\n\(pcscd.log)")
        struct Answers: Decodable { var responses: [String?] }
        let json = run.output.split(separator: "\n").last { $0.hasPrefix("{") }.map(String.init) ?? "{}"
        let answers = try JSONDecoder().decode(Answers.self, from: Data(json.utf8))
        return (probe, answers.responses.map { hex(printed: $0) })
    }

    @Test func type4IsWrittenAndPyscardReadsTheNDEFFile() throws {
        let encoded = Self.message.encoded()
        let (probe, answers) = try write(type: "type4", pyscard: [
            "00A4040007D276000085010100", "00A4000C02E104", "00B0000002",
            "00B00002" + String(format: "%02X", encoded.count),
        ])
        #expect(probe.line(startingWith: "written changed=true") != nil, "\(probe.output)")
        #expect(probe.line(startingWith: "status access=read-write used=\(encoded.count)") != nil, "\(probe.output)")
        try #require(answers.count == 4, "\(answers)")
        #expect(answers[2] == [0x00, UInt8(encoded.count), 0x90, 0x00], "NLEN")
        #expect(answers[3] == encoded + [0x90, 0x00], "the message from offset 2")
    }

    @Test func type5IsWrittenMadeReadOnlyAndPyscardReadsTheBlocks() throws {
        let encoded = Self.message.encoded()
        let tlv = [0x03, UInt8(encoded.count)] + encoded + [0xFE]
        let blocks = (4 + tlv.count + 3) / 4
        let (probe, answers) = try write(type: "icodeslix2", extra: ["lock"],
                                         pyscard: (0..<blocks).map { String(format: "FFB000%02X04", $0) })
        #expect(probe.line(startingWith: "written changed=true") != nil, "\(probe.output)")
        // No Part 3 mapping for LOCK BLOCK: read-only by the CC alone, and said so.
        #expect(probe.line(startingWith: "readOnly chipLocked=false") != nil, "\(probe.output)")
        #expect(probe.line(startingWith: "status access=read-only used=\(encoded.count)") != nil, "\(probe.output)")
        try #require(answers.count == blocks, "\(answers)")
        #expect(answers.allSatisfy { $0.suffix(2) == [0x90, 0x00] }, "\(answers)")
        let memory = answers.flatMap { $0.dropLast(2) }
        #expect(Array(memory.prefix(4)) == [0xE1, 0x43, 0x27, 0x01], "the CC says read-only (write access 11)")
        #expect(Array(memory[4..<(4 + tlv.count)]) == tlv, "the message's TLV and Terminator")
    }

    /// Types 1 and 3 through a reader's pass-through (ACR122U direct transmit; PC/SC Part 3
    /// transparent exchange for FeliCa): written, verified, and read back by a fresh read.
    @Test(arguments: [("topaz512", "acr122u"), ("felica", "acr122u"), ("felica", "part3")])
    func typesOneAndThreeAreWrittenThroughAPassThrough(type: String, reader: String) throws {
        try PCSCRig.requireAll()
        let short = NDEFMessage(URIRecord(uri: "https://example.com/pass").record())
        let pcscd = try PrivatePCSCD(nfcsim: ["--type", type, "--reader", reader, "--uri", "https://example.com/old",
                                              "--after", "0.5", "--for", "30"])
        defer { pcscd.stop() }
        let probe = try PCSCRig.probe(["write", Hex.string(short.encoded()), "20"], socket: pcscd.socket, timeout: 25)
        #expect(probe.line(startingWith: "written changed=true") != nil, "\(probe.output)\n\(pcscd.log)")
        #expect(probe.line(startingWith: "ndef=\(Hex.string(short.encoded())) ") != nil, "\(probe.output)")
        #expect(probe.line(startingWith: "status access=read-write used=\(short.encoded().count)") != nil, "\(probe.output)")
    }
}
