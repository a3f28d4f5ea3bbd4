import Foundation
import NDEF
import NFCSim
import NFCTags
import Testing

/// Runs libnfc's own command-line tools, each bounded in time and killed by its PID if it hangs.
enum LibNFCTool {
    struct Result {
        var status: Int32
        var output: String
        var timedOut: Bool
    }

    struct Missing: Error, CustomStringConvertible {
        var name: String
        var description: String { "\(name) is not installed; run scripts/install-deps.sh (Debian packages libnfc-bin, libnfc-examples)" }
    }

    static func path(_ name: String) throws -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") + ["/usr/bin"]
        for directory in directories {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Missing(name: name)
    }

    static func environment(connstring: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LIBNFC_DEVICE"] = connstring
        environment["LIBNFC_AUTO_SCAN"] = "false"
        environment.removeValue(forKey: "LIBNFC_LOG_LEVEL")
        return environment
    }

    /// Runs `name` against `connstring`; output is stdout and stderr together.
    static func run(_ name: String, _ arguments: [String], connstring: String, timeout: Double = 20) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path(name))
        process.arguments = arguments
        process.environment = environment(connstring: connstring)
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("nfcsim-tool-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let output = try FileHandle(forWritingTo: outputURL)
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        try output.close()
        let text = String(decoding: (try? Data(contentsOf: outputURL)) ?? Data(), as: UTF8.self)
        return Result(status: process.terminationStatus, output: text, timedOut: timedOut)
    }
}

/// An emulated PN532 served on a pseudo-terminal from a thread of the test process.
final class ReaderOnAThread: @unchecked Sendable {
    let host: PN532PTYHost
    private let finished = DispatchSemaphore(value: 0)

    init(_ emulator: PN532Emulator) throws {
        host = try PN532PTYHost(emulator: emulator)
        let host = self.host, finished = self.finished
        let thread = Thread {
            do { try host.run() } catch { Issue.record("the PN532 host failed: \(error)") }
            finished.signal()
        }
        thread.start()
    }

    var connstring: String { host.connstring }

    func close() {
        host.stop()
        if finished.wait(timeout: .now() + 5) == .timedOut { Issue.record("the PN532 host did not stop") }
        host.shutdown()
    }
}

@Suite(.serialized) struct LibNFCToolTests {
    static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
    static let message = NDEFMessage(URIRecord(uri: "https://example.com/poster").record())

    static func tag(_ product: Type2Product = .ntag213, message: NDEFMessage = message) throws -> VirtualType2Tag {
        try VirtualType2Tag(product: product, uid: uid, message: message)
    }

    @Test func nfcListShowsTheTag() throws {
        let reader = try ReaderOnAThread(PN532Emulator(target: try Self.tag().pn532Target))
        defer { reader.close() }
        let result = try LibNFCTool.run("nfc-list", [], connstring: reader.connstring)
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("NFC device: user defined device opened"), "\(result.output)")
        #expect(result.output.contains("1 ISO14443A passive target(s) found:"), "\(result.output)")
        #expect(result.output.contains("ATQA (SENS_RES): 00  44"), "\(result.output)")
        #expect(result.output.contains("UID (NFCID1): 04  a1  b2  c3  d4  e5  f6"), "\(result.output)")
        #expect(result.output.contains("SAK (SEL_RES): 00"), "\(result.output)")
    }

    @Test func nfcListWithNoObject() throws {
        let reader = try ReaderOnAThread(PN532Emulator(target: nil))
        defer { reader.close() }
        let result = try LibNFCTool.run("nfc-list", [], connstring: reader.connstring)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("NFC device: user defined device opened"), "\(result.output)")
        #expect(!result.output.contains("target(s) found"), "\(result.output)")
    }

    @Test func nfcListShowsAnISODEPObjectWithItsATS() throws {
        let tag = try VirtualType4Tag(message: Self.message)
        let reader = try ReaderOnAThread(PN532Emulator(target: tag.pn532Target(uid: Self.uid)))
        defer { reader.close() }
        let result = try LibNFCTool.run("nfc-list", [], connstring: reader.connstring)
        #expect(result.output.contains("ATQA (SENS_RES): 03  44"), "\(result.output)")
        #expect(result.output.contains("SAK (SEL_RES): 20"), "\(result.output)")
        #expect(result.output.contains("ATS: 75  77  81  02  80"), "\(result.output)")
    }

    @Test(arguments: [(Type2Product.ntag213, 45), (.ntag215, 135), (.ntag216, 231)])
    func nfcMfultralightReadsTheWholeTag(product: Type2Product, pages: Int) throws {
        // A message long enough on the larger tags to need the 3-byte TLV length.
        let long = NDEFMessage(URIRecord(uri: "https://example.com/poster").record(),
                               try TextRecord(text: String(repeating: "Summer concert. ", count: product == .ntag213 ? 3 : 20)).record())
        let tag = try Self.tag(product, message: long)
        let reader = try ReaderOnAThread(PN532Emulator(target: tag.pn532Target))
        defer { reader.close() }
        let dump = FileManager.default.temporaryDirectory.appendingPathComponent("nfcsim-dump-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: dump) }
        let result = try LibNFCTool.run("nfc-mfultralight", ["r", dump.path], connstring: reader.connstring)
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("NTAG Type: \(product.name)"), "\(result.output)")
        #expect(result.output.contains("Done, \(pages) of \(pages) pages read (0 pages failed)."), "\(result.output)")
        let bytes = [UInt8](try Data(contentsOf: dump))
        #expect(bytes == tag.memory, "the dump is the tag's memory")
        let encoded = long.encoded()
        let tlv: [UInt8] = encoded.count < 0xFF ? [0x03, UInt8(encoded.count)] + encoded
            : [0x03, 0xFF, UInt8(encoded.count >> 8), UInt8(encoded.count & 0xFF)] + encoded
        #expect(Array(bytes[16..<(16 + tlv.count)]) == tlv, "page 4 on holds the NDEF TLV")
    }

    @Test func nfcPollSeesTheTagArriveAndLeave() throws {
        let tag = try Self.tag()
        let start = ContinuousClock.now
        let reader = try ReaderOnAThread(PN532Emulator(target: tag.pn532Target, arrival: start + .milliseconds(700),
                                                       departure: start + .milliseconds(1700)))
        defer { reader.close() }
        let result = try LibNFCTool.run("nfc-poll", [], connstring: reader.connstring)
        let elapsed = start.duration(to: .now)
        #expect(!result.timedOut)
        #expect(result.output.contains("UID (NFCID1): 04  a1  b2  c3  d4  e5  f6"), "\(result.output)")
        #expect(result.output.contains("Waiting for card removing...") && result.output.contains("done."), "\(result.output)")
        #expect(elapsed >= .milliseconds(1700), "nfc-poll saw the removal only after the departure")
    }
}
