import NDEF
import NFCSim
import NFCTags
import Testing
import TestSupport

/// A dump's originality signature (Flipper's `Signature:` line, Proxmark3's `Card.Signature`)
/// becomes what the simulated chip answers, a reader reads it back as the chip's, `--save` keeps
/// it; a signature line that is not 32 whole bytes is refused, never half-trusted.
struct DumpSignatureTests {
    static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
    static let signature = (0..<32).map { UInt8(0x5A ^ $0) }
    static let slix2UID: [UInt8] = [0xE0, 0x04, 0x01, 0x08, 0x11, 0x22, 0x33, 0x44]

    static func ntag216Image() throws -> [UInt8] {
        try Type2MemoryImage.make(product: .ntag216, uid: uid, dataArea: [0x03, 0x00, 0xFE])
    }

    static func flipperNTAG216(signatureLine: String) throws -> String {
        let text = DumpFiles.flipperType2(chip: "NTAG216", memory: try ntag216Image(), getVersion: Type2Product.ntag216.version)
        return text.replacingOccurrences(of: "Signature: " + DumpFiles.hex([UInt8](repeating: 0xA5, count: 32)), with: signatureLine)
    }

    static func parse(_ text: String) throws(DumpError) -> DumpedChip {
        try DumpFile.parse(Array(text.utf8), raw: nil).chip
    }

    static func error(_ text: String) -> String {
        do { _ = try parse(text); return "no error" } catch { return error.description }
    }

    @Test func flipperSignatureIsWhatTheChipAnswersAndAReaderReads() async throws {
        guard case .type2(let dump) = try Self.parse(try Self.flipperNTAG216(signatureLine: "Signature: " + DumpFiles.hex(Self.signature))) else {
            Issue.record("not a Type 2 chip"); return
        }
        #expect(dump.signature == Self.signature)
        let reading = try await Type2Tag.readNDEF(over: InProcessTransport(try dump.virtualTag()), uid: Self.uid)
        #expect(reading.originality == .signature(.ntag21x, Self.signature))
        // --save writes it back.
        guard case .type2(let saved) = try DumpFile.parse(try DumpFile.serialise(.type2(dump), as: .flipper), raw: nil).chip else {
            Issue.record("not a Type 2 chip"); return
        }
        #expect(saved.signature == Self.signature)
    }

    /// All zeros is kept for a signing chip (a clone's answer, read as not genuine); a chip of no
    /// signing family answers nothing to READ_SIG whatever its dump's zeros.
    @Test func zeroSignaturesStayOnSigningChipsOnly() async throws {
        let zeros = [UInt8](repeating: 0, count: 32)
        let proxmark = DumpFiles.proxmarkUltralight(memory: try Type2MemoryImage.make(product: .ntag213, uid: Self.uid, dataArea: [0x03, 0x00, 0xFE]),
                                                    getVersion: Type2Product.ntag213.version!)
        guard case .type2(let ntag) = try Self.parse(proxmark) else { Issue.record("not a Type 2 chip"); return }
        #expect(ntag.signature == zeros)
        let reading = try await Type2Tag.readNDEF(over: InProcessTransport(try ntag.virtualTag()), uid: Self.uid)
        #expect(reading.originality == .signature(.ntag21x, zeros))

        let withSignature = proxmark.replacingOccurrences(of: String(repeating: "00", count: 32), with: DumpFiles.hex(Self.signature, separator: ""))
        guard case .type2(let signed) = try Self.parse(withSignature) else { Issue.record("not a Type 2 chip"); return }
        #expect(signed.signature == Self.signature)

        var ultralight = try Type2MemoryImage.make(product: .ultralight, uid: Self.uid, dataArea: [0x03, 0x00, 0xFE])
        ultralight += [UInt8](repeating: 0, count: 48 * 4 - ultralight.count)
        let ultralightC = DumpFiles.flipperType2(chip: "Mifare Ultralight C", memory: ultralight, getVersion: nil)
            .replacingOccurrences(of: DumpFiles.hex([UInt8](repeating: 0xA5, count: 32)), with: DumpFiles.hex(zeros))
        guard case .type2(let plain) = try Self.parse(ultralightC) else { Issue.record("not a Type 2 chip"); return }
        #expect(plain.signature == nil)
    }

    @Test func flipperSLIX2SignatureIsAnsweredToReadSignature() async throws {
        let memory = [0xE1, 0x40, 0x0F, 0x01, 0x03, 0x00, 0xFE] + [UInt8](repeating: 0, count: 128 - 7)
        let text = DumpFiles.flipperType5(uid: Self.slix2UID, blockSize: 4, memory: memory) + "Signature: \(DumpFiles.hex(Self.signature))\n"
        guard case .type5(let dump) = try Self.parse(text) else { Issue.record("not a Type 5 chip"); return }
        #expect(dump.signature == Self.signature)
        let reading = try await Type5Tag.readNDEF(over: InProcessTransport(try dump.virtualTag()))
        #expect(reading.originality == .signature(.icode, Self.signature))
        #expect(try DumpFile.parse(try DumpFile.serialise(.type5(dump), as: .flipper), raw: nil).chip == .type5(dump))

        // An ICODE SLIX (type indicator 10) has no READ SIGNATURE: its dump's zeros are dropped.
        var slixUID = Self.slix2UID
        slixUID[3] = 0x10
        let slix = DumpFiles.flipperType5(uid: slixUID, blockSize: 4, memory: memory) + "Signature: \(DumpFiles.hex([UInt8](repeating: 0, count: 32)))\n"
        guard case .type5(let plain) = try Self.parse(slix) else { Issue.record("not a Type 5 chip"); return }
        #expect(plain.signature == nil)
        var tag = try plain.virtualTag()
        #expect(tag.respond(to: Type5Command.readSignature) == .frame([0x01, 0x01]))
    }

    @Test func hostileSignatureLinesAreRefused() throws {
        let short = Self.error(try Self.flipperNTAG216(signatureLine: "Signature: " + DumpFiles.hex(Self.signature.prefix(31))))
        #expect(short.contains("Signature has 31 bytes, not 32"), "\(short)")
        let long = Self.error(try Self.flipperNTAG216(signatureLine: "Signature: " + DumpFiles.hex(Self.signature + [0x00])))
        #expect(long.contains("Signature has 33 bytes, not 32"), "\(long)")
        let unread = Self.error(try Self.flipperNTAG216(signatureLine: "Signature: ?? " + DumpFiles.hex(Self.signature.prefix(31))))
        #expect(unread.hasPrefix("line "), "\(unread)")
        let huge = Self.error(try Self.flipperNTAG216(signatureLine: "Signature: " + String(repeating: "AB ", count: 10_000)))
        #expect(huge.contains("not 32"), "\(huge)")
        let proxmark = DumpFiles.proxmarkUltralight(memory: try Type2MemoryImage.make(product: .ntag213, uid: Self.uid, dataArea: []),
                                                    getVersion: Type2Product.ntag213.version!)
            .replacingOccurrences(of: String(repeating: "00", count: 32), with: String(repeating: "00", count: 28))
        #expect(Self.error(proxmark).hasPrefix("$.Card.Signature"), "\(Self.error(proxmark))")
    }
}
