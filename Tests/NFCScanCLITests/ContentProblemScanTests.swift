import NDEF
import NFCCopy
import NFCSim
import Testing
import TestSupport

/// Issue 23: a problem in what the object holds is not mended by scanning again, so `nfcscan`
/// exits 65 with a sentence that says so, never 74 and "The item couldn't be read. Try again."
/// (which is for an object that left), nor for an object of a kind that cannot be read. Each object behind the emulated PN532, read by the built
/// `nfcscan` through the real libnfc.
@Suite(.serialized) struct ContentProblemScanTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var target: @Sendable () throws -> any PN532Target
        var sentence: @Sendable (any ScanCopyCatalog) -> String
        var testDescription: String { name }
    }

    static let poster = NDEFMessage(URIRecord(uri: "https://example.com/poster").record())

    static let cases: [Case] = [
        Case(name: "Type 1 of a newer mapping version", target: {
            var tag = try VirtualType1Tag(product: .topaz96, message: poster)
            tag.write([0xE1, 0x20, 0x0E, 0x00], at: 8)
            return tag.pn532Target
        }, sentence: { $0.newerForm }),
        Case(name: "FeliCa attribute block with a wrong checksum", target: {
            var tag = try VirtualType3Tag(message: poster)
            var attributes = Array(tag.memory.prefix(16))
            attributes[15] ^= 0x01
            tag.write(attributes, atBlock: 0)
            return tag.pn532Target
        }, sentence: { $0.unreadableContent }),
        Case(name: "FeliCa of a newer mapping version", target: {
            var tag = try VirtualType3Tag(message: poster)
            var attributes = Array(tag.memory.prefix(16))
            attributes[0] = 0x20
            let sum = attributes[0..<14].reduce(0) { $0 + Int($1) }
            attributes[14] = UInt8(sum >> 8)
            attributes[15] = UInt8(sum & 0xFF)
            tag.write(attributes, atBlock: 0)
            return tag.pn532Target
        }, sentence: { $0.newerForm }),
        Case(name: "Ultralight whose CC leads past the chip (READ NAKed)", target: {
            var tag = try VirtualType2Tag(product: .ultralight, dataArea: [0x03, 0xFF, 0x01, 0x2C] + [UInt8](repeating: 0xD1, count: 44))
            tag.write([0xE1, 0x10, 0xFF, 0x00], atPage: 3)
            return tag.pn532Target
        }, sentence: { $0.unreadableContent }),
        Case(name: "Type 1 whose header ROM is another kind of chip's", target: {
            var tag = try VirtualType1Tag(product: .topaz96, message: poster)
            tag.headerROM = [0x21, 0x48]
            return tag.pn532Target
        }, sentence: { $0.unsupportedObject }),
    ]

    @Test(arguments: cases)
    func exits65WithTheReason(test: Case) throws {
        let r = try ScanCommandTests.withEmulator(PN532Emulator(target: try test.target())) { connstring in
            try ScanCLI.run(["--object", "poster", "--timeout", "10"], connstring: connstring)
        }
        let copy = ScanCopy.catalog(object: "poster")
        let context = "\(test.name): status \(r.status)\nstdout: \(r.stdout)\nstderr: \(r.stderr)"
        #expect(r.status == 65, "\(context)")
        #expect(r.stdout == "", "\(context)")
        #expect(r.stderr.split(separator: "\n").last.map(String.init) == test.sentence(copy), "\(context)")
        #expect(!r.stderr.contains(copy.readFailed), "\(context)")
    }
}
