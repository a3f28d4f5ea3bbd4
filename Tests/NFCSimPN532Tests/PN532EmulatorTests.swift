import NDEF
import NFCSim
import NFCTags
import Testing

/// Drives the emulator frame by frame, checking the ACK and the response framing every time.
struct Chip {
    var emulator: PN532Emulator
    var now = ContinuousClock.now

    static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]

    init(target: (any PN532Target)? = Chip.ntag213(), departure: ContinuousClock.Instant? = nil) {
        emulator = PN532Emulator(target: target, departure: departure)
    }

    static func ntag213(product: Type2Product = .ntag213) -> PN532VirtualObjectTarget<VirtualType2Tag> {
        let message = NDEFMessage(URIRecord(uri: "https://example.com/poster").record())
        return try! VirtualType2Tag(product: product, uid: uid, message: message).pn532Target
    }

    /// Sends command `code` and returns the response data after the response code (nil: error frame).
    mutating func send(_ code: UInt8, _ parameters: [UInt8] = [], sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8]? {
        let answer = emulator.handle(.frame(.command(code, parameters)), now: now)
        #expect(Array(answer.immediate.prefix(6)) == PN532Frame.ack.encoded, sourceLocation: sourceLocation)
        var decoder = PN532FrameDecoder()
        let items = decoder.feed(answer.immediate.dropFirst(6))
        guard items.count == 1, case .frame(let frame) = items[0] else {
            Issue.record("expected one response frame, got \(items)", sourceLocation: sourceLocation)
            return nil
        }
        switch frame {
        case .error: return nil
        case .information(let tfi, let data):
            #expect(tfi == 0xD5, sourceLocation: sourceLocation)
            #expect(data.first == code &+ 1, sourceLocation: sourceLocation)
            return Array(data.dropFirst())
        default:
            Issue.record("unexpected \(frame)", sourceLocation: sourceLocation)
            return nil
        }
    }
}

@Suite struct PN532EmulatorTests {
    @Test func openSequenceAsLibnfcSendsIt() {
        var chip = Chip()
        #expect(chip.send(0x14, [0x01]) == [])
        #expect(chip.send(0x00, [0x00] + Array("libnfc".utf8)) == [0x00] + Array("libnfc".utf8))
        #expect(chip.send(0x02) == [0x32, 0x01, 0x06, 0x07])
        #expect(chip.send(0x12, [0x14]) == [])
        #expect(chip.send(0x06, [0x63, 0x02, 0x63, 0x03, 0x63, 0x0D, 0x63, 0x38, 0x63, 0x3D]) == [0x80, 0x80, 0x00, 0x00, 0x00])
    }

    @Test func registersAreKept() {
        var chip = Chip()
        #expect(chip.send(0x08, [0x63, 0x05, 0x40, 0x63, 0x3C, 0x10]) == [])
        #expect(chip.send(0x06, [0x63, 0x05, 0x63, 0x3C, 0x12, 0x34]) == [0x40, 0x10, 0x00])
        #expect(chip.send(0x08, [0x63, 0x05]) == nil, "a write needs address and value")
    }

    @Test func listingFindsTheTagOnceUntilTheFieldIsCycled() {
        var chip = Chip()
        _ = chip.send(0x12, [0x14])
        #expect(chip.send(0x4A, [0x01, 0x00]) == [0x01, 0x01, 0x00, 0x44, 0x00, 0x07] + Chip.uid)
        #expect(chip.send(0x44, [0x00]) == [0x00])
        #expect(chip.send(0x4A, [0x01, 0x00]) == [0x00], "halted after InDeselect")
        #expect(chip.send(0x32, [0x01, 0x00]) == [])
        #expect(chip.send(0x32, [0x01, 0x01]) == [])
        #expect(chip.send(0x4A, [0x01, 0x00]) == [0x01, 0x01, 0x00, 0x44, 0x00, 0x07] + Chip.uid)
        // Other modulations find nothing.
        for brTy: UInt8 in [1, 2] { #expect(chip.send(0x4A, [0x01, brTy, 0x00, 0xFF, 0xFF, 0x01, 0x00]) == [0x00]) }
        #expect(chip.send(0x4A, [0x01, 0x03, 0x00]) == [0x00])
        #expect(chip.send(0x4A, [0x01, 0x04]) == [0x00])
        #expect(chip.send(0x4A, [0x01, 0x09]) == [0x00])
    }

    @Test func listingByUID() {
        var chip = Chip()
        #expect(chip.send(0x4A, [0x01, 0x00, 0x04, 0x00, 0x00, 0x00]) == [0x00])
        #expect(chip.send(0x4A, [0x01, 0x00, 0x88, 0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6])?.first == 0x01)
    }

    @Test func rawGetVersionWithCRCOffThenReadsWithEasyFraming() {
        var chip = Chip()
        _ = chip.send(0x4A, [0x01, 0x00])
        #expect(chip.send(0x08, [0x63, 0x02, 0x00, 0x63, 0x03, 0x00]) == [])
        // Exactly the trace: 42 60 F8 32 → 43 00 + version + CRC 80 91.
        #expect(chip.send(0x42, [0x60, 0xF8, 0x32]) == [0x00, 0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03, 0x80, 0x91])
        #expect(chip.send(0x42, [0x60, 0xF8, 0x33]) == [0x01], "a frame with a bad CRC is not answered")
        #expect(chip.send(0x08, [0x63, 0x02, 0x80, 0x63, 0x03, 0x80]) == [])
        let page0 = chip.send(0x40, [0x01, 0x30, 0x00])
        #expect(page0?.first == 0x00)
        #expect(page0?.count == 17)
        #expect(Array(page0?[1...3] ?? []) == [0x04, 0xA1, 0xB2])
        let page4 = chip.send(0x40, [0x01, 0x30, 0x04])
        #expect(Array(page4?[1...2] ?? []) == [0x03, 0x17], "the NDEF TLV starts page 4")
        // The last page wraps to page 0 (NTAG213: 45 pages).
        let page44 = chip.send(0x40, [0x01, 0x30, 0x2C])
        #expect(Array(page44?[5...7] ?? []) == [0x04, 0xA1, 0xB2])
    }

    @Test func rawFramesFollowTheCRCBits() {
        var chip = Chip()
        _ = chip.send(0x4A, [0x01, 0x00])
        // CRC handled by the chip: the frame is the bare command, the reply has no CRC.
        #expect(chip.send(0x42, [0x60]) == [0x00, 0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03])
        // A NAK with CRC checking on is a CRC error; with it off, a 4-bit frame and RxLastBits 4.
        #expect(chip.send(0x42, [0x30, 0xF0]) == [0x02])
        _ = chip.send(0x4A, [0x01, 0x00])
        #expect(chip.send(0x08, [0x63, 0x03, 0x00]) == [])
        #expect(chip.send(0x42, [0x30, 0xF0]) == [0x00, 0x00])
        #expect(chip.send(0x06, [0x63, 0x3C]) == [0x04])
    }

    @Test func typeBFramingReachesNoTypeATag() {
        var chip = Chip()
        _ = chip.send(0x4A, [0x01, 0x00])
        #expect(chip.send(0x08, [0x63, 0x02, 0x83, 0x63, 0x03, 0x83]) == [])
        #expect(chip.send(0x42, [0x01, 0x0B, 0x3F, 0x80]) == [0x01])
        #expect(chip.send(0x42, []) == [0x01])
    }

    @Test func dataExchangeErrors() {
        var chip = Chip()
        #expect(chip.send(0x40, [0x01, 0x30, 0x00]) == [0x27], "nothing selected")
        _ = chip.send(0x4A, [0x01, 0x00])
        #expect(chip.send(0x40, [0x02, 0x30, 0x00]) == [0x27], "no target 2")
        #expect(chip.send(0x40, [0x01, 0x30, 0xF0]) == [0x14], "NAK: the read fails")
        #expect(chip.send(0x40, [0x01, 0x30, 0x00]) == [0x01], "idle after a NAK until selected again")
        #expect(chip.send(0x4A, [0x01, 0x00])?.first == 0x01)
        #expect(chip.send(0x40, [0x01, 0x30, 0x00])?.first == 0x00)
    }

    @Test func theTagLeavesAtItsDeparture() {
        let start = ContinuousClock.now
        var chip = Chip(departure: start + .seconds(2))
        chip.now = start
        #expect(chip.send(0x4A, [0x01, 0x00])?.first == 0x01)
        #expect(chip.send(0x40, [0x01, 0x30, 0x00])?.first == 0x00)
        chip.now = start + .seconds(3)
        #expect(chip.send(0x40, [0x01, 0x30, 0x00]) == [0x01], "gone: timeout, which libnfc reads as removal")
        #expect(chip.send(0x4A, [0x01, 0x00]) == [0x00])
    }

    @Test func autoPollReportsTheTagOrAnswersLater() {
        var chip = Chip()
        #expect(chip.send(0x60, [0x14, 0x02, 0x20, 0x10, 0x03]) == [0x01, 0x10, 0x0C, 0x01, 0x00, 0x44, 0x00, 0x07] + Chip.uid)
        // Nothing in the field: ACK now, "no target" once PollNr × types × Period × 150 ms have passed.
        let start = ContinuousClock.now
        var empty = PN532Emulator(target: nil)
        #expect(empty.handle(.frame(.command(0x60, [0x02, 0x01, 0x10, 0x20])), now: start).immediate == PN532Frame.ack.encoded)
        #expect(empty.nextWakeUp == start + .milliseconds(600))
        #expect(empty.tick(now: start + .milliseconds(599)) == [])
        #expect(empty.tick(now: start + .milliseconds(600)) == PN532Frame.response(0x61, [0x00]).encoded)
        #expect(empty.nextWakeUp == nil)
        // Polling for ever ends only when the host aborts it with an ACK.
        _ = empty.handle(.frame(.command(0x60, [0xFF, 0x01, 0x10])), now: start)
        #expect(empty.nextWakeUp == nil)
        #expect(empty.handle(.frame(.ack)).immediate.isEmpty)
        #expect(empty.tick(now: start + .seconds(100)) == [])
    }

    @Test func anObjectArrivingEndsARunningPoll() {
        let start = ContinuousClock.now
        var chip = Chip()
        chip.emulator.arrival = start + .seconds(1)
        chip.now = start
        #expect(chip.send(0x4A, [0x01, 0x00]) == [0x00], "not there yet")
        let answer = chip.emulator.handle(.frame(.command(0x60, [0xFF, 0x02, 0x10])), now: start)
        #expect(answer.immediate == PN532Frame.ack.encoded)
        #expect(chip.emulator.nextWakeUp == start + .seconds(1))
        #expect(chip.emulator.tick(now: start + .seconds(1))
                == PN532Frame.response(0x61, [0x01, 0x10, 0x0C, 0x01, 0x00, 0x44, 0x00, 0x07] + Chip.uid).encoded)
        #expect(chip.emulator.nextWakeUp == nil)
    }

    @Test func isoDEPObjectGetsItsATSAndAPDUs() throws {
        let tag = try VirtualType4Tag(message: NDEFMessage(URIRecord(uri: "https://example.com").record()))
        var chip = Chip(target: tag.pn532Target())
        _ = chip.send(0x12, [0x14])
        #expect(chip.send(0x4A, [0x01, 0x00]) == [0x01, 0x01, 0x03, 0x44, 0x20, 0x07] + VirtualType4Tag.pn532DefaultUID + VirtualType4Tag.pn532DefaultATS)
        // SELECT the NDEF application v2.
        let select: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00]
        #expect(chip.send(0x40, [0x01] + select) == [0x00, 0x90, 0x00])
        // Presence check as libnfc does it: R(NAK) in raw mode, CRC on → R(ACK).
        #expect(chip.send(0x42, [0xB2]) == [0x00, 0xA3])
        // Without AUTO_RATS no ATS is reported.
        var plain = Chip(target: tag.pn532Target())
        #expect(plain.send(0x4A, [0x01, 0x00]) == [0x01, 0x01, 0x03, 0x44, 0x20, 0x07] + VirtualType4Tag.pn532DefaultUID)
    }

    @Test func felicaTargetAnswersPolling() {
        struct FeliCa: PN532Target {
            var identity = PN532TargetIdentity.felica(idm: [0x01, 0x2E, 0x4C, 0xE1, 0xA2, 0xB3, 0xC4, 0xD5],
                                                      pmm: [0x03, 0x43, 0, 0, 0, 0, 0, 0], systemCode: [0x12, 0xFC])
            var isPresent: Bool { true }
            mutating func activate() -> Bool { true }
            mutating func exchange(_ command: [UInt8]) -> PN532TargetReply { .data([UInt8(command.count + 1)] + command) }
        }
        var chip = Chip(target: FeliCa())
        #expect(chip.send(0x4A, [0x01, 0x00]) == [0x00])
        #expect(chip.send(0x4A, [0x01, 0x01, 0x00, 0xFF, 0xFF, 0x01, 0x00])
                == [0x01, 0x01, 0x14, 0x01, 0x01, 0x2E, 0x4C, 0xE1, 0xA2, 0xB3, 0xC4, 0xD5, 0x03, 0x43, 0, 0, 0, 0, 0, 0, 0x12, 0xFC])
        #expect(chip.send(0x4A, [0x01, 0x02, 0x00, 0x12, 0xFC, 0x00, 0x00])?.count == 20)
        #expect(chip.send(0x4A, [0x01, 0x02, 0x00, 0x88, 0xB4, 0x00, 0x00]) == [0x00], "another system code")
    }

    @Test func unknownCommandsGetAnErrorFrameAndTheChipGoesOn() {
        var chip = Chip()
        #expect(chip.send(0x8C, [0x00]) == nil)
        #expect(chip.send(0xFE) == nil)
        #expect(chip.send(0x00) == nil, "Diagnose without a test number")
        #expect(chip.send(0x56, [0x01, 0x00, 0x00]) == [0x27])
        #expect(chip.send(0x02) == [0x32, 0x01, 0x06, 0x07])
        let wrongTFI = chip.emulator.handle(.frame(.information(tfi: 0xD5, data: [0x02])))
        #expect(wrongTFI.immediate == PN532Frame.ack.encoded + PN532Frame.error.encoded)
        #expect(chip.emulator.handle(.corrupt(.dataChecksum)).immediate.isEmpty)
    }

    @Test func aReplyTooLongForTheChipIsAnOverflowNotACrash() {
        var chip = Chip(target: Chip.ntag213(product: .ntag216))
        _ = chip.send(0x4A, [0x01, 0x00])
        // FAST_READ of 120 pages: 480 bytes, more than one frame carries.
        #expect(chip.send(0x42, [0x3A, 0x00, 0x77]) == [0x09])
        _ = chip.send(0x4A, [0x01, 0x00])
        #expect(chip.send(0x42, [0x3A, 0x00, 0x3F])?.count == 1 + 256)
    }

    @Test func closeSequence() {
        var chip = Chip()
        _ = chip.send(0x4A, [0x01, 0x00])
        #expect(chip.send(0x52, [0x00]) == [0x00])
        #expect(chip.send(0x32, [0x01, 0x00]) == [])
        #expect(chip.send(0x16, [0xF0]) == [0x00])
        #expect(chip.emulator.poweredDown)
    }

    @Test func noStatusByteEverHasBit7() {
        var chip = Chip()
        let statusCommands: [(UInt8, [UInt8])] = [(0x40, [0x01, 0x30, 0x00]), (0x42, [0x60]), (0x44, [0x05]), (0x52, [0x00]),
                                                  (0x54, [0x01]), (0x16, [0xF0]), (0x40, [0x01, 0x30, 0xFF])]
        for prelude in [false, true] {
            if prelude { _ = chip.send(0x4A, [0x01, 0x00]) }
            for (code, parameters) in statusCommands {
                if let status = chip.send(code, parameters)?.first { #expect(status & 0x80 == 0) }
            }
        }
    }
}
