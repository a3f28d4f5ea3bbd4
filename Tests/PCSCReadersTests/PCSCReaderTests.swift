import Foundation
import NDEF
@testable import NFCReaders
import NFCTags
import PCSC
import Testing
import TestSupport

/// The PC/SC backend through the real pcsc-lite client library and a private pcscd
/// (scripts/private-pcscd.sh) whose vpcd reader holds an `nfcsim vpcd` object. Each check runs
/// in the pcsc-readers-probe helper, so each gets its own socket.
@Suite(.serialized) struct PCSCReaderTests {
    static let uid = "04a1b2c3d4e5f6"


    static func messageFile(_ message: NDEFMessage) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pcsc-readers-\(UUID().uuidString).ndef")
        try Data(message.encoded()).write(to: url)
        return url
    }

    @Test func theVPCDReaderIsListedOncePCSCDHasStarted() throws {
        let pcscd = try PrivatePCSCD(nfcsim: ["--uri", "https://example.com", "--for", "5"])
        defer { pcscd.stop() }
        let result = try PCSCRig.probe(["list", "5"], socket: pcscd.socket, timeout: 10)
        #expect(!result.timedOut)
        #expect(result.output.contains("reader=nfcsim 00 00"), "\(result.output)\n\(pcscd.log)")
    }

    @Test func aFullNTAG215ArrivesIsReadExactlyAndLeaves() throws {
        // 478 text characters: a 488-byte message, a 492-byte TLV in the 496 bytes the CC offers.
        let message = NDEFMessage(try TextRecord(text: String(repeating: "poster ", count: 68) + "ab").record())
        let file = try Self.messageFile(message)
        defer { try? FileManager.default.removeItem(at: file) }
        let pcscd = try PrivatePCSCD(nfcsim: ["--type", "ntag215", "--ndef", file.path, "--uid", Self.uid, "--after", "1", "--for", "2"])
        defer { pcscd.stop() }
        let result = try PCSCRig.probe(["read", "10"], socket: pcscd.socket, timeout: 15)
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.output)\n\(pcscd.log)")
        let arrived = try #require(result.line(startingWith: "arrived "), "\(result.output)")
        #expect(arrived.contains("uid=\(Self.uid)") && arrived.contains("platform=type2") && arrived.contains("MIFARE Ultralight")
                && arrived.contains("technology=iso14443a "), "\(arrived)")
        let read = try #require(result.line(startingWith: "ndef="), "\(result.output)")
        #expect(read.hasPrefix("ndef=\(Hex.string(message.encoded())) "), "exactly the message written")
        #expect(read.contains("uid=\(Self.uid)"))
        #expect(result.output.contains("removed uid=\(Self.uid)"), "\(result.output)")
        let roundTrips = read.split(separator: " ").first { $0.hasPrefix("roundTrips=") }.map { String($0.dropFirst(11)) } ?? "?"
        print("PC/SC full NTAG215 (\(message.encoded().count)-byte message): \(roundTrips) round trips (READ BINARY FF B0, 16 bytes each)")
    }

    @Test func aType4ObjectIsReadWithPlainAPDUs() throws {
        let message = NDEFMessage(URIRecord(uri: "https://example.com/poster").record())
        let pcscd = try PrivatePCSCD(nfcsim: ["--type", "type4", "--uri", "https://example.com/poster", "--uid", Self.uid, "--after", "0.5", "--for", "2"])
        defer { pcscd.stop() }
        let result = try PCSCRig.probe(["read", "10"], socket: pcscd.socket, timeout: 15)
        #expect(!result.timedOut)
        let arrived = try #require(result.line(startingWith: "arrived "), "\(result.output)\n\(pcscd.log)")
        #expect(arrived.contains("platform=type4") && arrived.contains("ISO-DEP") && arrived.contains("technology=iso14443-4 "), "\(arrived)")
        #expect(result.line(startingWith: "ndef=")?.hasPrefix("ndef=\(Hex.string(message.encoded())) ") == true, "\(result.output)")
        #expect(result.output.contains("removed uid="), "\(result.output)")
    }

    @Test func anObjectThatLeftBeforeTheReadIsObjectRemoved() throws {
        let pcscd = try PrivatePCSCD(nfcsim: ["--type", "ntag215", "--uri", "https://example.com/poster", "--after", "0.5", "--for", "1"])
        defer { pcscd.stop() }
        // The probe holds the arrived object for 2.5 s, while the card leaves, then reads it.
        let result = try PCSCRig.probe(["late-read", "2.5", "10"], socket: pcscd.socket, timeout: 15)
        #expect(!result.timedOut)
        let error = try #require(result.value("readError"), "\(result.output)\n\(pcscd.log)")
        #expect(error == TagReadError.objectRemoved(roundTrips: 0).description || error.contains("moved away too soon"), "\(error)")
    }

    @Test func sCardCancelEndsAWaitPromptly() throws {
        let pcscd = try PrivatePCSCD(nfcsim: ["--uri", "https://example.com", "--for", "5"])
        defer { pcscd.stop() }
        let result = try PCSCRig.probe(["cancel", "5"], socket: pcscd.socket, timeout: 10)
        #expect(result.value("outcome")?.hasPrefix("cancelled") == true, "\(result.output)")
        let after = result.output.split(separator: " ").first { $0.hasPrefix("returnedAfterCancelUs=") }
            .flatMap { Int($0.dropFirst("returnedAfterCancelUs=".count).trimmingCharacters(in: .whitespacesAndNewlines)) }
        let microseconds = try #require(after, "\(result.output)")
        print("SCardCancel ended a waiting SCardGetStatusChange after \(microseconds) µs")
        #expect(microseconds < 200_000)
    }

    @Test func aCardHeldExclusivelyByAnotherClientIsReportedAndReadOnceReleased() throws {
        let pcscd = try PrivatePCSCD(nfcsim: ["--uri", "https://example.com", "--for", "8"])
        defer { pcscd.stop() }
        let result = try PCSCRig.probe(["exclusive", "8"], socket: pcscd.socket, timeout: 12)
        let events = result.output.split(separator: "\n").filter { $0.hasPrefix("event=") }
        #expect(events == ["event=heldElsewhere(true)", "event=heldElsewhere(false)", "event=arrived(045a31126b2c80)"],
                "\(result.output)\n\(pcscd.log)")
        let waited = Int(result.value("arrivedAfterReleaseMs") ?? "") ?? .max
        #expect(waited <= Int(PCSCReader.heldRetry) + 500, "read \(waited) ms after the release")
    }

    /// Issue 12: "READ BINARY capability container failed with status 6986" while a second PC/SC
    /// client used the same card. Another client takes a transaction after the reader found the
    /// card: the read waits for it (its SCardBeginTransaction), runs only once it ends, inside
    /// its own transaction, and reads the right content. (Before: the read's first READ BINARY
    /// was refused with SCARD_E_SHARING_VIOLATION and the read failed.)
    @Test func aReadWaitsForAnotherClientsTransactionAndNeverInterleaves() throws {
        let message = NDEFMessage(URIRecord(uri: "https://example.com/poster").record())
        let pcscd = try PrivatePCSCD(nfcsim: ["--trace", "--uri", "https://example.com/poster", "--uid", Self.uid, "--for", "20"], debug: true)
        defer { pcscd.stop() }
        let pipe = FileManager.default.temporaryDirectory.appendingPathComponent("pcsc-go-\(UUID().uuidString)").path
        try #require(mkfifo(pipe, 0o600) == 0)
        defer { unlink(pipe) }
        let probe = try WatchedChild("/usr/bin/env", ["PCSCLITE_CSOCK_NAME=\(pcscd.socket)", try Repository.requireBuilt(PCSCRig.probe),
                                                      "transaction", pipe, "20"], name: "pcsc-readers-probe")
        defer { probe.stop() }
        try #require(probe.waitForLine(startingWith: "holding=", timeout: 15) != nil, "\(probe.log)\n\(pcscd.log)")
        // The read asks for its transaction: the third BEGIN_TRANSACTION pcscd receives (the
        // reader's identify, the other client's, the read's).
        let begins = pcscd.child.waitForLines(startingWith: "pcscd:", containing: "Received command: BEGIN_TRANSACTION", count: 3, timeout: 10)
        let go = open(pipe, O_WRONLY | O_NONBLOCK)
        _ = write(go, "\n", 1)
        close(go)
        let outcome = probe.waitForLine(startingWith: "ndef=", timeout: 15) ?? probe.waitForLine(startingWith: "readError=", timeout: 1)
        let context = "\(probe.log)\n\(pcscd.log)"
        try #require(begins != nil, "the read never asked for a transaction: \(context)")
        #expect(outcome == "ndef=\(Hex.string(message.encoded())) uid=\(Self.uid)", "\(context)")
        #expect(probe.waitForLine(startingWith: "holderReads=", timeout: 1) == "holderReads=9000,9000,9000,9000", "\(context)")

        // pcscd's own account: the reader's client (the third BEGIN's) began, exchanged and ended
        // only after the other client ended; none of its exchanges fell inside the other's transaction.
        // pcscd may log the read's END_TRANSACTION just after the client has its answer: wait for
        // the third (identify, the other client's, the read's).
        _ = pcscd.child.waitForLines(startingWith: "pcscd:", containing: "END_TRANSACTION for client", count: 3, timeout: 5)
        let log = pcscd.log.split(separator: "\n").map(String.init).filter { $0.hasPrefix("pcscd:") }
        let readerClient = try #require(begins?.last?.components(separatedBy: "from client ").last)
        let otherClient = try #require(begins?[1].components(separatedBy: "from client ").last)
        func index(_ part: String, after start: Int = 0) -> Int? { log[start...].firstIndex { $0.contains(part) } }
        let otherBegan = try #require(index("BEGIN_TRANSACTION for client \(otherClient), rv=SCARD_S_SUCCESS"), "\(context)")
        let otherEnded = try #require(index("END_TRANSACTION for client \(otherClient), rv=SCARD_S_SUCCESS", after: otherBegan), "\(context)")
        let readBegan = try #require(index("BEGIN_TRANSACTION for client \(readerClient), rv=SCARD_S_SUCCESS", after: otherEnded), "\(context)")
        let readEnded = try #require(index("END_TRANSACTION for client \(readerClient), rv=SCARD_S_SUCCESS", after: readBegan), "\(context)")
        let readerTransmits = log.indices.filter { log[$0].contains("TRANSMIT for client \(readerClient),") && $0 > otherBegan }
        #expect(!readerTransmits.isEmpty && readerTransmits.allSatisfy { $0 > readBegan && $0 < readEnded }, "\(context)")
        #expect(!log.contains { $0.contains("TRANSMIT for client \(readerClient), rv=SCARD_E_SHARING_VIOLATION") }, "\(context)")
        // What reached the card, in order: the other client's four READ BINARYs, then the read's.
        let reads = pcscd.log.split(separator: "\n").filter { $0.hasPrefix("nfcsim: > ff b0") }.map { $0.dropFirst("nfcsim: > ".count) }
        #expect(reads == ["ff b0 00 03 10", "ff b0 00 04 10", "ff b0 00 08 10", "ff b0 00 0c 10", "ff b0 00 03 10", "ff b0 00 07 10"], "\(context)")
    }

    /// Another client reset the card after the reader found it (SCARD_W_RESET_CARD on the read's
    /// next call): the card is still there, so the read reconnects and reads it, rather than
    /// calling it gone.
    @Test func aCardResetByAnotherClientIsReadAfterReconnecting() throws {
        let message = NDEFMessage(URIRecord(uri: "https://example.com/poster").record())
        let pcscd = try PrivatePCSCD(nfcsim: ["--uri", "https://example.com/poster", "--uid", Self.uid, "--for", "20"], debug: true)
        defer { pcscd.stop() }
        let result = try PCSCRig.probe(["reset", "15"], socket: pcscd.socket, timeout: 20)
        let context = "\(result.output)\n\(pcscd.log)"
        #expect(result.value("reset") != nil || result.output.contains("\nreset\n"), "\(context)")
        #expect(result.line(startingWith: "ndef=") == "ndef=\(Hex.string(message.encoded())) uid=\(Self.uid)", "\(context)")
        #expect(pcscd.log.contains("rv=SCARD_W_RESET_CARD"), "the reset reached the read: \(context)")
    }

    @Test func noPCSCDSaysHowToStartIt() throws {
        try PCSCRig.requireAll()
        let result = try PCSCRig.probe(["list", "5"], socket: "/nonexistent/pcscd-\(UUID().uuidString)/pcscd.comm", timeout: 10)
        #expect(result.output.contains("kind=pcscdNotRunning"), "\(result.output)")
        #expect(result.output.contains("systemctl start pcscd.socket"))
    }
}

/// The pieces that need no daemon.
struct PCSCBackendUnitTests {

    @Test func part3ATRsNameTheCard() {
        let ultralight = PCSCCardIdentity(atr: hex("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68"))
        #expect(ultralight.kind == .storageCard(standard: 0x03, name: 0x0003))
        #expect(ultralight.platform == .type2)
        #expect(ultralight.description == "PC/SC storage card: MIFARE Ultralight (ISO 14443 A part 3)")
        let classic = PCSCCardIdentity(atr: hex("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 01 00 00 00 00 6A"))
        #expect(classic.platform == .mifareClassic && classic.description.contains("MIFARE Classic 1K"))
        #expect(PCSCCardIdentity(atr: hex("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 3A 00 00 00 00 51")).platform == .type2)
        #expect(PCSCCardIdentity(atr: hex("3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00 3B 00 00 00 00 42")).platform == .type3)
        let desfire = PCSCCardIdentity(atr: hex("3B 81 80 01 80 80"))
        #expect(desfire.kind == .isoDEP(historicalBytes: [0x80]) && desfire.platform == .type4)
        #expect(PCSCCardIdentity(atr: hex("3B 80 80 01 01")).platform == .type4)
        #expect(PCSCCardIdentity(atr: hex("3B 95 13 81 01 80 73 FF 01 00 0B")).kind == .other)
    }

    @Test func storageCardStatusWordsBecomeType2Answers() throws {
        #expect(try PCSCTransport.type2Answer(Array(repeating: 7, count: 16) + [0x90, 0x00], data: true) == Array(repeating: 7, count: 16))
        #expect(try PCSCTransport.type2Answer([0x6A, 0x82], data: true) == [0x00], "no such page: the chip's NAK")
        #expect(try PCSCTransport.type2Answer([0x90, 0x00], data: false) == [0x0A], "a write's ACK")
        #expect(throws: TransportError.timeout) { try PCSCTransport.type2Answer([0x63, 0x00], data: true) }
        #expect(throws: TransportError.protocolError("status word 6C 10")) { try PCSCTransport.type2Answer([0x6C, 0x10], data: true) }
    }

    @Test func cardGoneCodesAreObjectRemoved() {
        for code in [PCSCError.removedCard, .noSmartcard, .resetCard] { #expect(PCSCTransport.map(code) == .objectRemoved) }
        #expect(PCSCTransport.map(.readerUnavailable) == .readerGone)
        #expect(PCSCTransport.map(.notTransacted) == .timeout)
        #expect(PCSCReader.explain(.sharingViolation, reader: "ACS ACR122U 00 00") == .heldExclusively(reader: "ACS ACR122U 00 00"))
        #expect(PCSCReader.explain(.securityViolation, reader: nil).description.contains("polkit"))
        #expect(PCSCError.noService.text == "Service not available.")
    }

    @Test func multiStringsSplitOnNUL() {
        let chars: [CChar] = Array("nfcsim 00 00\0nfcsim 00 01\0\0".utf8).map { CChar(bitPattern: $0) }
        #expect(PCSCContext.multiString(chars) == ["nfcsim 00 00", "nfcsim 00 01"])
    }
}
