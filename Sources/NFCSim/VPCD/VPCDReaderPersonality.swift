import NFCTags

/// Which contactless reader `nfcsim vpcd` plays: what it answers beside the storage-card
/// pseudo-APDUs every PC/SC contactless reader has.
public enum VPCDReaderPersonality: String, Hashable, Sendable, CaseIterable {
    /// Storage-card pseudo-APDUs only (GET DATA, READ BINARY, LOAD KEYS, GENERAL AUTHENTICATE):
    /// `FF 00` and `FF C2` get `6D 00` like any other unknown instruction.
    case storageCard = "storage-card"
    /// An ACR122U: a PN532 behind direct transmit (``VPCDACR122U``).
    case acr122u
    /// A PC/SC 2.01 Part 3 reader with transparent exchange (``VPCDPart3Reader``).
    case part3

    /// `card` in this reader.
    public func present<Card: VPCDChipCard>(_ card: Card) -> any VPCDCard {
        switch self {
        case .storageCard: card
        case .acr122u: VPCDACR122U(card: card)
        case .part3: VPCDPart3Reader(card: card)
        }
    }
}

/// A card whose chip the reader can also reach below the storage-card layer, frame by frame.
public protocol VPCDChipCard: VPCDCard {
    /// What the reader learns of the chip while activating it.
    var chipIdentity: PN532TargetIdentity { get }
    /// One frame to the chip on the air (no CRC), as a reader's pass-through sends it.
    mutating func chipExchange(_ frame: [UInt8]) -> VirtualReply
}

/// The card's chip as the target of the reader's PN532.
struct VPCDCardChip<Card: VPCDChipCard>: PN532Target {
    var card: Card
    var identity: PN532TargetIdentity { card.chipIdentity }
    var isPresent: Bool { card.isPresent }
    mutating func activate() -> Bool {
        card.activate()
        return card.isPresent
    }
    mutating func exchange(_ command: [UInt8]) -> PN532TargetReply { card.chipExchange(command).pn532 }
}

/// An ACR122U with `Card` in its field, answering as ACR122U API 2.04 describes and libnfc's
/// acr122_pcsc driver expects:
///
/// | APDU | answer |
/// |---|---|
/// | `FF 00 00 00 Lc D4 <code> …` (direct transmit) | `D5 <code+1> …` from its PN532 (``PN532Emulator``, the same one `nfcsim pn532` runs), `90 00` |
/// | direct transmit that is no PN532 command (not `D4`, or the PN532 answers with an error frame) | `63 00` |
/// | direct transmit whose Lc does not match its data | `67 00` |
/// | `FF 00 48 00 00` (firmware version) | `ACR122U207` in ASCII, no status word (the ACR122U's quirk) |
/// | `FF 00 40 P2 04 T1 T2 N L` (LED and buzzer) | `90 <LED state>` |
/// | `FF 00 50 00 00` / `FF 00 51 PP 00` (PICC operating parameter) | `90 <parameter>` |
/// | anything else | the card's storage-card answers (``VPCDType2Card`` …; `FF C2`: `6D 00`) |
///
/// The reader polls on its own: when the card is powered or reset, its PN532 lists the object
/// (InListPassiveTarget), so target 1 is selected before the host sends anything.
public struct VPCDACR122U<Card: VPCDChipCard>: VPCDCard {
    public static var firmwareVersion: [UInt8] { Array("ACR122U207".utf8) }
    private var pn532: PN532Emulator
    private var piccParameter: UInt8 = 0xFF
    private var ledState: UInt8 = 0x00
    /// Direct transmits answered (exchanges with the PN532).
    public private(set) var directTransmits = 0

    public init(card: Card) {
        pn532 = PN532Emulator(target: VPCDCardChip(card: card))
        poll()
    }

    public var card: Card { (pn532.target as? VPCDCardChip<Card>)!.card }
    public var atr: [UInt8] { card.atr }
    public var isPresent: Bool { card.isPresent }

    public mutating func activate() { poll() }

    /// InListPassiveTarget with the modulation the chip answers to.
    private mutating func poll() {
        let listing: [UInt8] = switch card.chipIdentity {
        case .iso14443A: [0x01, 0x00]
        case .felica: [0x01, 0x01, 0x00, 0xFF, 0xFF, 0x01, 0x00]
        case .jewel: [0x01, 0x04]
        }
        _ = pn532.command(code: PN532Emulator.Command.inListPassiveTarget.rawValue, Array(listing))
    }

    public mutating func transmit(_ apdu: [UInt8]) -> [UInt8]? {
        guard isPresent else { return nil }
        guard apdu.count >= 5, apdu[0] == 0xFF, apdu[1] == 0x00 else { return pass(apdu) }
        switch (apdu[2], apdu[3]) {
        case (0x00, 0x00):
            guard Int(apdu[4]) == apdu.count - 5 else { return ResponseAPDU(status: .wrongLength).bytes }
            let payload = Array(apdu.dropFirst(5))
            guard payload.count >= 2, payload[0] == PN532Frame.hostToChip else { return ResponseAPDU(status: .operationFailed).bytes }
            directTransmits += 1
            let answer = pn532.command(code: payload[1], Array(payload.dropFirst(2)))
            guard isPresent else { return nil }
            guard let answer, answer.count + 2 <= 256 else { return ResponseAPDU(status: .operationFailed).bytes }
            return [PN532Frame.chipToHost, payload[1] &+ 1] + answer + StatusWord.success.bytes
        case (0x48, 0x00) where apdu.count == 5:
            return Self.firmwareVersion
        case (0x40, _) where apdu.count == 9 && apdu[4] == 0x04:
            // P2 bits 0-1: final red and green states, applied when their update bits (2-3) are set.
            let p2 = apdu[3]
            if p2 & 0x04 != 0 { ledState = ledState & ~0x01 | p2 & 0x01 }
            if p2 & 0x08 != 0 { ledState = ledState & ~0x02 | p2 & 0x02 }
            return [0x90, ledState]
        case (0x50, 0x00) where apdu.count == 5:
            return [0x90, piccParameter]
        case (0x51, let parameter) where apdu.count == 5:
            piccParameter = parameter
            return [0x90, parameter]
        default:
            return pass(apdu)
        }
    }

    private mutating func pass(_ apdu: [UInt8]) -> [UInt8]? {
        pn532.withTarget(as: VPCDCardChip<Card>.self) { $0.card.transmit(apdu) } ?? nil
    }
}

/// A PC/SC 2.01 Part 3 reader with transparent exchange, `Card` in its field:
///
/// | APDU | answer |
/// |---|---|
/// | `FF C2 00 00 Lc <DOs> 00` (Manage Session: `80 00` version, `81 00` start, `82 00` end, `83 00`/`84 00` RF off/on, `5F46 04 <timer>`) | `C0 03 00 90 00` (+ `80 03 01 00 00` for the version), `90 00` |
/// | `FF C2 00 01 Lc <DOs> 00` (Transparent Exchange: `5F46` timer, `90 02` flags, `95 LL <frame>`) | `C0 03 00 90 00 97 LL <answer>`, `90 00`; a 4-bit answer as one byte |
/// | the object does not answer | `C0 03 <index> 64 01`, `90 00` (index: the `95` object's place) |
/// | an unknown data object | `C0 03 <index> 6A 81`, `90 00` |
/// | `FF C2 00 02 …` (Switch Protocol): the object is already active in its protocol | `C0 03 00 90 00`, `90 00` |
/// | `FF C2` with another P2, or P1 not 00 | `6A 86` |
/// | a malformed APDU or data objects that do not parse | `67 00` |
/// | anything else | the card's storage-card answers (`FF 00`: `6D 00`) |
public struct VPCDPart3Reader<Card: VPCDChipCard>: VPCDCard {
    public private(set) var card: Card
    public private(set) var sessionOpen = false
    /// Transparent exchanges answered.
    public private(set) var transparentExchanges = 0

    public init(card: Card) { self.card = card }

    public var atr: [UInt8] { card.atr }
    public var isPresent: Bool { card.isPresent }
    public mutating func activate() { card.activate() }

    public mutating func transmit(_ apdu: [UInt8]) -> [UInt8]? {
        guard isPresent else { return nil }
        guard apdu.count >= 4, apdu[0] == 0xFF, apdu[1] == 0xC2 else { return card.transmit(apdu) }
        guard apdu[2] == 0x00, (0x00...0x02).contains(apdu[3]) else { return ResponseAPDU(status: .wrongParameters).bytes }
        guard let command = CommandAPDU(apdu), command.bytes == apdu,
              let objects = BERDataObject.parse(command.data) else { return ResponseAPDU(status: .wrongLength).bytes }
        var out: [BERDataObject] = []
        var status: [UInt8] = [0x00, 0x90, 0x00]
        for (index, object) in objects.enumerated() {
            let place = UInt8(truncatingIfNeeded: index + 1)
            switch (apdu[3], object.tag) {
            case (_, 0x5F46), (0x01, 0x90), (0x02, 0x8F): continue    // the timer, the flags, the protocol
            case (0x00, 0x80): out.append(BERDataObject(tag: 0x80, value: [0x01, 0x00, 0x00]))
            case (0x00, 0x81): sessionOpen = true
            case (0x00, 0x82): sessionOpen = false
            case (0x00, 0x83): continue
            case (0x00, 0x84): card.activate()
            case (0x01, 0x95):
                transparentExchanges += 1
                switch card.chipExchange(object.value) {
                case .frame(let bytes): out.append(BERDataObject(tag: 0x97, value: bytes))
                case .nak(let code): out.append(BERDataObject(tag: 0x97, value: [code & 0x0F]))
                case .silence:
                    guard isPresent else { return nil }
                    status = [place, 0x64, 0x01]
                }
            default:
                status = [place, 0x6A, 0x81]
            }
            if status[0] != 0x00 { break }
        }
        let body = ([BERDataObject(tag: 0xC0, value: status)] + out).flatMap(\.encoded)
        guard body.count <= 256 else { return ResponseAPDU(status: .wrongLe(exact: 0x00)).bytes }
        return body + StatusWord.success.bytes
    }
}

extension VPCDType2Card: VPCDChipCard {
    public var chipIdentity: PN532TargetIdentity { tag.pn532Target.identity }
    public mutating func chipExchange(_ frame: [UInt8]) -> VirtualReply { tag.respond(to: frame) }
}

extension VPCDMifareClassicCard: VPCDChipCard {
    public var chipIdentity: PN532TargetIdentity { chip.pn532Target.identity }
    public mutating func chipExchange(_ frame: [UInt8]) -> VirtualReply { chip.respond(to: frame) }
}

/// A Topaz (Type 1) or FeliCa (Type 3) object in a PC/SC reader: a storage card whose ATR names
/// it (standard 03 card name 00 30 Topaz; standard 11 card name 00 3B FeliCa) and whose UID (or
/// IDm) GET DATA gives, but which no storage-card pseudo-APDU reads: READ BINARY is `6A 81`,
/// other `FF` instructions `6D 00`, other classes `6A 81`. Only a reader's pass-through reaches it.
public struct VPCDPassThroughOnlyCard<Object: VirtualObject>: VPCDChipCard {
    public var object: Object
    public let chipIdentity: PN532TargetIdentity
    public let uid: [UInt8]
    public let atr: [UInt8]

    public init(object: Object, identity: PN532TargetIdentity, uid: [UInt8], atr: [UInt8]) {
        self.object = object
        chipIdentity = identity
        self.uid = uid
        self.atr = atr
    }

    public var isPresent: Bool { object.isPresent }
    public mutating func activate() { _ = object.reactivate() }
    public mutating func chipExchange(_ frame: [UInt8]) -> VirtualReply { object.respond(to: frame) }

    public mutating func transmit(_ apdu: [UInt8]) -> [UInt8]? {
        guard object.isPresent else { return nil }
        return StorageCardAPDU.answer(apdu, uid: uid) { command in
            // READ BINARY does not reach this object's memory: only the pass-through does.
            ResponseAPDU(status: command.ins == 0xB0 ? .functionNotSupported : .instructionNotSupported).bytes
        }
    }
}

extension VirtualType1Tag {
    /// The Topaz as a PC/SC reader presents it (card name 00 30, Topaz), UID0–6 for GET DATA.
    public var vpcdCard: VPCDPassThroughOnlyCard<VirtualType1Tag> {
        VPCDPassThroughOnlyCard(object: self, identity: pn532Target.identity, uid: uid,
                                atr: ContactlessATR.storageCard(standard: .iso14443APart3, cardName: 0x0030))
    }
}

extension VirtualType3Tag {
    /// The FeliCa object as a PC/SC reader presents it (standard 11, card name 00 3B), its IDm
    /// for GET DATA.
    public var vpcdCard: VPCDPassThroughOnlyCard<VirtualType3Tag> {
        VPCDPassThroughOnlyCard(object: self, identity: pn532Target.identity, uid: idm,
                                atr: ContactlessATR.storageCard(standard: .felica, cardName: ContactlessATR.CardName.felica))
    }
}
