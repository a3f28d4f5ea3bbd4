/// A PN532 as libnfc's `pn532_uart` driver sees it: it answers host frames with an ACK and a
/// response, keeps a register file, and finds at most one ``PN532Target`` in its field.
/// Pure state machine: bytes in, bytes out; ``PN532PTYHost`` puts it on a pseudo-terminal.
///
/// The commands, their layouts and the traces they were checked against are in
/// Docs/design/simulators.md §1–2. Replies never set status bit 0x80 (libnfc aborts on it).
public struct PN532Emulator: Sendable {
    /// PN532 command codes (PN532 User Manual §7).
    public enum Command: UInt8, Sendable {
        case diagnose = 0x00, getFirmwareVersion = 0x02, getGeneralStatus = 0x04
        case readRegister = 0x06, writeRegister = 0x08, readGPIO = 0x0C, writeGPIO = 0x0E
        case setSerialBaudRate = 0x10, setParameters = 0x12, samConfiguration = 0x14, powerDown = 0x16
        case rfConfiguration = 0x32, rfRegulationTest = 0x58
        case inJumpForDEP = 0x56, inJumpForPSL = 0x46, inListPassiveTarget = 0x4A, inATR = 0x50, inPSL = 0x4E
        case inDataExchange = 0x40, inCommunicateThru = 0x42, inDeselect = 0x44, inRelease = 0x52
        case inSelect = 0x54, inAutoPoll = 0x60
    }

    /// Status codes of the first response byte (PN532 User Manual table 7.1).
    public enum Status: UInt8, Sendable {
        case ok = 0x00, timeout = 0x01, crcError = 0x02, bufferOverflow = 0x09, mifareAuthenticationError = 0x14
        case invalidParameter = 0x10, notAcceptable = 0x27
    }

    /// Registers whose bits change how frames go on the air.
    public enum Register {
        public static let txMode: UInt16 = 0x6302
        public static let rxMode: UInt16 = 0x6303
        public static let control: UInt16 = 0x633C
        public static let manualRCV: UInt16 = 0x630D
        /// TxMode/RxMode bit 7: the chip adds (checks) CRC itself.
        public static let crcEnable: UInt8 = 0x80
    }

    /// SetParameters bit: the chip sends RATS itself and reports the ATS in InListPassiveTarget.
    public static let parameterAutoRATS: UInt8 = 0x10

    /// What the chip sends back for one frame from the host.
    public struct Answer: Equatable, Sendable {
        /// Bytes to write now: the ACK, and the response unless the command is still running
        /// (InAutoPoll with nothing in the field; see ``nextWakeUp`` and ``tick(now:)``).
        public var immediate: [UInt8] = []
    }

    private enum TargetState: Sendable { case idle, selected, halted }

    /// The object in (or near) the field.
    public private(set) var target: (any PN532Target)?
    /// When the object enters the field; nil: it is there from the start.
    public var arrival: ContinuousClock.Instant?
    /// When the object leaves the field; nil: it stays.
    public var departure: ContinuousClock.Instant?
    public private(set) var registers: [UInt16: UInt8] = [Register.txMode: 0x80, Register.rxMode: 0x80]
    public private(set) var parameters: UInt8 = 0
    public private(set) var fieldOn = false
    public private(set) var poweredDown = false
    private var state = TargetState.idle
    /// The PICC's ISO-DEP block number (starts at 1 after activation, ISO 14443-4 §7.5.3).
    private var blockNumber: UInt8 = 1
    private var lastResponse: [UInt8] = []
    /// An InAutoPoll still running: its target types, when it gives up (nil: never), and whether
    /// the object's arrival is still ahead of it.
    private var runningPoll: (types: [UInt8], giveUp: ContinuousClock.Instant?, awaitsArrival: Bool)?

    public init(target: (any PN532Target)?, arrival: ContinuousClock.Instant? = nil, departure: ContinuousClock.Instant? = nil) {
        self.target = target
        self.arrival = arrival
        self.departure = departure
    }

    /// Lets `body` change the target in the field when it is a `T` (a reader that embeds the
    /// chip also answers its own commands from the same object); nil otherwise.
    public mutating func withTarget<T: PN532Target, R>(as type: T.Type, _ body: (inout T) -> R) -> R? {
        guard var object = target as? T else { return nil }
        defer { target = object }
        return body(&object)
    }

    /// Whether the object is in the field at `now`.
    public func objectPresent(at now: ContinuousClock.Instant) -> Bool {
        guard let target, target.isPresent else { return false }
        if let arrival, now < arrival { return false }
        if let departure, now >= departure { return false }
        return true
    }

    /// When ``tick(now:)`` may have something to send: a running InAutoPoll gives up, or the
    /// object arrives while one runs. nil: nothing is waiting.
    public var nextWakeUp: ContinuousClock.Instant? {
        guard let runningPoll else { return nil }
        var instants = [runningPoll.giveUp].compactMap { $0 }
        if runningPoll.awaitsArrival, let arrival { instants.append(arrival) }
        return instants.min()
    }

    /// Lets a running command make progress at `now`; the bytes to send, if any.
    public mutating func tick(now: ContinuousClock.Instant = .now) -> [UInt8] {
        guard let poll = runningPoll else { return [] }
        if poll.awaitsArrival, let arrival, now >= arrival { runningPoll?.awaitsArrival = false }
        if let found = pollOnce(poll.types, now: now) {
            runningPoll = nil
            return finish(0x60, found)
        }
        if let giveUp = poll.giveUp, now >= giveUp {
            runningPoll = nil
            return finish(0x60, [0x00])
        }
        return []
    }

    private mutating func finish(_ code: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let response = PN532Frame.response(code &+ 1, payload).encoded
        lastResponse = response
        return response
    }

    /// Answers one decoded item from the host.
    public mutating func handle(_ item: PN532DecodedItem, now: ContinuousClock.Instant = .now) -> Answer {
        switch item {
        case .corrupt:
            // The chip does not acknowledge a frame it could not check; the host times out.
            return Answer()
        case .frame(.ack):
            // The host aborts the running command.
            runningPoll = nil
            return Answer()
        case .frame(.nack):
            return Answer(immediate: lastResponse)
        case .frame(.error):
            return Answer()
        case .frame(.information(let tfi, let data)):
            guard tfi == PN532Frame.hostToChip, let code = data.first else {
                return Answer(immediate: PN532Frame.ack.encoded + PN532Frame.error.encoded)
            }
            switch run(code: code, Array(data.dropFirst()), now: now) {
            case .now(let payload):
                let response = payload.map { PN532Frame.response(code &+ 1, $0).encoded } ?? PN532Frame.error.encoded
                lastResponse = response
                return Answer(immediate: PN532Frame.ack.encoded + response)
            case .running:
                return Answer(immediate: PN532Frame.ack.encoded)
            }
        }
    }

    /// One command without the frame around it (a reader that embeds the chip, such as the
    /// ACR122U, passes the host's `D4 <code> <parameters>` to it): the response payload after
    /// the response code, or nil when the chip answers with an error frame.
    public mutating func command(code: UInt8, _ parameters: [UInt8], now: ContinuousClock.Instant = .now) -> [UInt8]? {
        switch run(code: code, parameters, now: now) {
        case .now(let payload): return payload
        case .running:
            // InAutoPoll with nothing in the field: a synchronous caller gets "no target".
            runningPoll = nil
            return [0x00]
        }
    }

    private mutating func run(code: UInt8, _ parameters: [UInt8], now: ContinuousClock.Instant) -> Outcome {
        poweredDown = false
        runningPoll = nil
        switch respond(code: code, parameters, now: now) {
        case .now(var payload):
            // The chip's buffer holds 262 bytes: a longer reply is an overflow, never a crash.
            if let bytes = payload, bytes.count + 2 > PN532Frame.extendedLengthLimit {
                payload = code == Command.inDataExchange.rawValue || code == Command.inCommunicateThru.rawValue
                    ? [Status.bufferOverflow.rawValue] : nil
            }
            return .now(payload)
        case .running:
            return .running
        }
    }

    private enum Outcome { case now([UInt8]?), running }

    // MARK: - Commands

    private mutating func respond(code: UInt8, _ p: [UInt8], now: ContinuousClock.Instant) -> Outcome {
        guard let command = Command(rawValue: code) else { return .now(nil) }
        switch command {
        case .diagnose:
            guard let test = p.first else { return .now(nil) }
            switch test {
            case 0x00: return .now(p)  // communication line test: echo NumTst and the data
            case 0x01, 0x02: return .now([0x00])  // ROM and RAM tests pass
            case 0x06: return .now([state == .selected && objectPresent(at: now) ? 0x00 : 0x01])
            default: return .now([Status.notAcceptable.rawValue])
            }
        case .getFirmwareVersion:
            return .now([0x32, 0x01, 0x06, 0x07])  // PN532 v1.6, ISO 14443A, 14443B, 18092
        case .getGeneralStatus:
            var out: [UInt8] = [0x00, fieldOn ? 0x01 : 0x00]
            if state == .selected, objectPresent(at: now) { out += [0x01, 0x01, 0x00, 0x00, 0x00] } else { out.append(0x00) }
            out.append(0x00)  // SAM status
            return .now(out)
        case .readRegister:
            guard !p.isEmpty, p.count % 2 == 0 else { return .now(nil) }
            return .now(stride(from: 0, to: p.count, by: 2).map { registers[UInt16(p[$0]) << 8 | UInt16(p[$0 + 1])] ?? 0 })
        case .writeRegister:
            guard !p.isEmpty, p.count % 3 == 0 else { return .now(nil) }
            for i in stride(from: 0, to: p.count, by: 3) { registers[UInt16(p[i]) << 8 | UInt16(p[i + 1])] = p[i + 2] }
            return .now([])
        case .readGPIO:
            return .now([0xFF, 0xFF, 0x00])
        case .writeGPIO, .setSerialBaudRate, .samConfiguration, .rfRegulationTest:
            return .now([])
        case .setParameters:
            guard let flags = p.first else { return .now(nil) }
            parameters = flags
            return .now([])
        case .powerDown:
            poweredDown = true
            return .now([Status.ok.rawValue])
        case .rfConfiguration:
            guard let item = p.first else { return .now(nil) }
            if item == 0x01, p.count >= 2 {
                let on = p[1] & 0x01 != 0
                // Switching the field off powers the object down: it forgets HALT and selection.
                if !on { state = .idle }
                fieldOn = on
            }
            return .now([])
        case .inListPassiveTarget:
            return .now(listPassiveTarget(p, now: now))
        case .inAutoPoll:
            return autoPoll(p, now: now)
        case .inDataExchange:
            guard let tg = p.first else { return .now(nil) }
            return .now(dataExchange(tg: tg, Array(p.dropFirst()), now: now))
        case .inCommunicateThru:
            return .now(communicateThru(p, now: now))
        case .inDeselect, .inRelease:
            let tg = p.first ?? 0
            guard tg == 0 || (tg == 1 && state == .selected) else { return .now([Status.notAcceptable.rawValue]) }
            if state == .selected { state = .halted }
            return .now([Status.ok.rawValue])
        case .inSelect:
            guard p.first == 1, target != nil else { return .now([Status.notAcceptable.rawValue]) }
            guard objectPresent(at: now), target!.activate() else { return .now([Status.timeout.rawValue]) }
            state = .selected
            blockNumber = 1
            return .now([Status.ok.rawValue])
        case .inJumpForDEP, .inJumpForPSL, .inATR, .inPSL:
            return .now([Status.notAcceptable.rawValue])
        }
    }

    private mutating func listPassiveTarget(_ p: [UInt8], now: ContinuousClock.Instant) -> [UInt8]? {
        guard p.count >= 2, (1...2).contains(p[0]) else { return nil }
        fieldOn = true
        let brTy = p[1], initiatorData = Array(p.dropFirst(2))
        guard let data = activate(brTy: brTy, initiatorData: initiatorData, now: now) else { return [0x00] }
        return [0x01] + data
    }

    /// Activates the object with the given modulation; its target data (Tg first) when it answers.
    private mutating func activate(brTy: UInt8, initiatorData: [UInt8], now: ContinuousClock.Instant) -> [UInt8]? {
        guard objectPresent(at: now), var object = target else {
            // Out of the field the object has no power: it forgets HALT and selection, so it (or
            // another object) answers again when it comes back.
            state = .idle
            return nil
        }
        guard state != .halted else { return nil }
        var data: [UInt8] = [0x01]
        switch (brTy, object.identity) {
        case (0x00, .iso14443A(let sensRes, let selRes, let nfcid1, let ats)):
            // Initiator data selects one UID.
            if !initiatorData.isEmpty, !Self.uidMatches(initiatorData, nfcid1) { return nil }
            data += sensRes + [selRes, UInt8(nfcid1.count)] + nfcid1
            if selRes & 0x20 != 0, parameters & Self.parameterAutoRATS != 0, let ats { data += ats }
        case (0x01, .felica(let idm, let pmm, let systemCode)), (0x02, .felica(let idm, let pmm, let systemCode)):
            // POLLING: 00 SC1 SC2 RC TSN; FF in the system code matches any byte.
            guard initiatorData.count >= 5, initiatorData[0] == 0x00 else { return nil }
            let wanted = Array(initiatorData[1...2])
            guard zip(wanted, systemCode).allSatisfy({ $0 == 0xFF || $0 == $1 }) else { return nil }
            let withCode = initiatorData[3] == 0x01
            data += [withCode ? 0x14 : 0x12, 0x01] + idm + pmm + (withCode ? systemCode : [])
        case (0x04, .jewel(let sensRes, let jewelID)):
            data += sensRes + jewelID
        default:
            return nil
        }
        guard object.activate() else { target = object; return nil }
        target = object
        state = .selected
        blockNumber = 1
        return data
    }

    /// Jewel commands whose air answer starts with the address: READ, READ8, RSEG, WRITE-E,
    /// WRITE-NE, WRITE-E8, WRITE-NE8.
    static let jewelAddressEchoes: Set<UInt8> = [0x01, 0x02, 0x10, 0x53, 0x1A, 0x54, 0x1B]

    /// A UID given as InListPassiveTarget initiator data: the plain UID, or cascaded (88 + 3 bytes).
    private static func uidMatches(_ given: [UInt8], _ uid: [UInt8]) -> Bool {
        if given == uid { return true }
        var plain: [UInt8] = []
        var rest = given[...]
        while !rest.isEmpty {
            if rest.first == 0x88, rest.count > 4 { plain += rest.dropFirst().prefix(3); rest = rest.dropFirst(4) } else { plain += rest; break }
        }
        return plain == uid
    }

    private mutating func autoPoll(_ p: [UInt8], now: ContinuousClock.Instant) -> Outcome {
        guard p.count >= 3 else { return .now(nil) }
        let pollCount = p[0], period = p[1], types = p.dropFirst(2)
        fieldOn = true
        if let found = pollOnce(Array(types), now: now) { return .now(found) }
        // Nothing answered: the chip keeps polling PollNr times (FF: for ever), each round trying
        // every type for Period × 150 ms, then reports no target; an arriving object ends it.
        let rounds = max(Int(pollCount), 1) * max(types.count, 1) * max(Int(period), 1)
        let awaitsArrival = target != nil && arrival.map { now < $0 } == true
        runningPoll = (Array(types), pollCount == 0xFF ? nil : now + .milliseconds(150 * rounds), awaitsArrival)
        return .running
    }

    /// One round of InAutoPoll: `NbTg Type Len TargetData` for the first type that answers.
    private mutating func pollOnce(_ types: [UInt8], now: ContinuousClock.Instant) -> [UInt8]? {
        for type in types {
            let found: [UInt8]?
            switch (type, target?.identity) {
            case (0x00, .iso14443A?), (0x10, .iso14443A?):
                found = activate(brTy: 0x00, initiatorData: [], now: now)
            case (0x20, .iso14443A(_, let sak, _, _)?) where sak & 0x20 != 0:
                found = activate(brTy: 0x00, initiatorData: [], now: now)
            case (0x01, .felica?), (0x11, .felica?):
                found = activate(brTy: 0x01, initiatorData: [0x00, 0xFF, 0xFF, 0x00, 0x00], now: now)
            case (0x02, .felica?), (0x12, .felica?):
                found = activate(brTy: 0x02, initiatorData: [0x00, 0xFF, 0xFF, 0x00, 0x00], now: now)
            case (0x04, .jewel?):
                found = activate(brTy: 0x04, initiatorData: [], now: now)
            default:
                found = nil
            }
            if let found { return [0x01, type, UInt8(found.count)] + found }
        }
        return nil
    }

    private mutating func dataExchange(tg: UInt8, _ data: [UInt8], now: ContinuousClock.Instant) -> [UInt8] {
        guard tg & 0x3F == 0x01, state == .selected, target != nil else { return [Status.notAcceptable.rawValue] }
        guard objectPresent(at: now) else { return [Status.timeout.rawValue] }
        switch target!.exchange(data) {
        case .data(let reply):
            // The PN53x drops the address echo of Jewel READ/READ8/RSEG/WRITE answers (libnfc's
            // utils/jewel.h sizes them without it).
            if case .jewel = target!.identity, let code = data.first, Self.jewelAddressEchoes.contains(code), !reply.isEmpty {
                return [Status.ok.rawValue] + reply.dropFirst()
            }
            return [Status.ok.rawValue] + reply
        // A NAK inside InDataExchange: libnfc counts any non-zero status as a failed command.
        case .nak: return [Status.mifareAuthenticationError.rawValue]
        case .silence: return [Status.timeout.rawValue]
        }
    }

    private mutating func communicateThru(_ data: [UInt8], now: ContinuousClock.Instant) -> [UInt8] {
        let txMode = registers[Register.txMode] ?? 0, rxMode = registers[Register.rxMode] ?? 0
        registers[Register.control] = (registers[Register.control] ?? 0) & ~0x07
        // Type B / FeliCa framing, or no object selected: nothing answers.
        guard txMode & 0x03 == 0, rxMode & 0x03 == 0, !data.isEmpty,
              state == .selected, target != nil, objectPresent(at: now) else { return [Status.timeout.rawValue] }
        var frame = data
        if txMode & Register.crcEnable == 0 {
            // The host computed CRC_A itself; a frame with a wrong CRC is ignored by the object.
            guard CRCA.isValid(frame) else { return [Status.timeout.rawValue] }
            frame.removeLast(2)
        }
        let reply: PN532TargetReply
        if target!.identity.isISODEP {
            reply = isoDEPBlock(frame)
        } else {
            reply = target!.exchange(frame)
        }
        switch reply {
        case .data(let bytes):
            return [Status.ok.rawValue] + (rxMode & Register.crcEnable == 0 ? CRCA.appending(to: bytes) : bytes)
        case .nak(let code):
            // A 4-bit frame has no CRC: with CRC checking on the chip reports a CRC error.
            guard rxMode & Register.crcEnable == 0 else { return [Status.crcError.rawValue] }
            registers[Register.control] = ((registers[Register.control] ?? 0) & ~0x07) | 0x04
            return [Status.ok.rawValue, code & 0x0F]
        case .silence:
            return [Status.timeout.rawValue]
        }
    }

    /// The ISO 14443-4 block layer, for raw frames to an ISO-DEP object (no CID, no NAD, no
    /// chaining): I-blocks carry APDUs, R(NAK) is answered with R(ACK), S(DESELECT) halts.
    private mutating func isoDEPBlock(_ frame: [UInt8]) -> PN532TargetReply {
        guard let pcb = frame.first else { return .silence }
        switch pcb & 0xC0 {
        case 0x00 where pcb & 0x3E == 0x02:  // I-block
            blockNumber = pcb & 0x01
            switch target!.exchange(Array(frame.dropFirst())) {
            case .data(let reply): return .data([0x02 | blockNumber] + reply)
            case .nak, .silence: return .silence
            }
        case 0x80 where pcb & 0x26 == 0x22:  // R-block
            // R(NAK) or R(ACK) with the other block number (a presence check): R(ACK).
            return .data([0xA2 | blockNumber])
        case 0xC0 where pcb & 0x30 == 0x00:  // S(DESELECT)
            state = .halted
            return .data([pcb])
        default:
            return .silence
        }
    }
}
