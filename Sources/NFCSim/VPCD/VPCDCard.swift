import NDEF
import NFCTags

/// What the virtual card does with one message from the driver.
public enum VPCDCardReply: Hashable, Sendable {
    /// Nothing goes back (power off, power on, reset: the driver reads no reply, vpcd.c:403-437).
    case none
    /// A reply payload (the ATR, or a response APDU with its status word).
    case send([UInt8])
    /// The object has left the field: close the connection without answering, which pcscd sees
    /// as the card removed (vpcd.c:354-355), also in the middle of a transaction.
    case leave
}

/// A virtual object as the card a PC/SC reader presents for it: an ATR, and the answers to the
/// APDUs pcscd passes through vpcd, including the reader's own pseudo-APDUs (class FF).
public protocol VPCDCard: Sendable {
    /// The ATR the reader reports for the object.
    var atr: [UInt8] { get }
    /// Whether the object is still in the field.
    var isPresent: Bool { get }
    /// Power on or reset: the object is activated again, as a reader does when it powers a card.
    mutating func activate()
    /// One command APDU; nil when the object has left the field and cannot answer.
    mutating func transmit(_ apdu: [UInt8]) -> [UInt8]?
}

extension VPCDCard {
    /// Answers one driver message.
    public mutating func handle(_ message: VPCDMessage) -> VPCDCardReply {
        guard isPresent else { return .leave }
        switch message {
        case .control(.getATR): return .send(atr)
        case .control(.powerOn), .control(.reset):
            activate()
            return .none
        case .control(.powerOff), .unknownControl: return .none
        case .apdu(let bytes): return transmit(bytes).map { .send($0) } ?? .leave
        }
    }
}

/// Status words of the reader's pseudo-APDUs beyond those ISO 7816-4 cards use (Docs/design/simulators.md §3.5).
extension StatusWord {
    /// 6A 81: function not supported (a pseudo-APDU the object cannot do, or an APDU to a
    /// storage card, which has no APDU layer).
    public static let functionNotSupported = StatusWord(0x6A81)
    /// 63 00: the operation failed (ACR readers, when the object does not answer as expected).
    public static let operationFailed = StatusWord(0x6300)
    /// 6C XX: wrong Le; XX is the length to ask for.
    public static func wrongLe(exact: UInt8) -> StatusWord { StatusWord(0x6C, exact) }
}

/// GET DATA (`FF CA`), which every PC/SC contactless reader answers for the object in its field
/// (PC/SC Part 3 §3.2.2.1.3; Docs/design/simulators.md §3.5): P1 00 the UID, P1 01 the ATS
/// historical bytes (ISO-DEP only).
enum GetData {
    static func answer(_ command: CommandAPDU, raw: [UInt8], uid: [UInt8], historicalBytes: [UInt8]?) -> ResponseAPDU {
        guard command.data.isEmpty, command.p2 == 0x00 else { return ResponseAPDU(status: .functionNotSupported) }
        let value: [UInt8]
        switch command.p1 {
        case 0x00: value = uid
        case 0x01:
            guard let historicalBytes else { return ResponseAPDU(status: .functionNotSupported) }
            value = historicalBytes
        default: return ResponseAPDU(status: .functionNotSupported)
        }
        // Le 00 (or absent) asks for all of it.
        guard raw.count == 5, raw[4] != 0x00, let le = command.le else { return ResponseAPDU(data: value, status: .success) }
        if le > value.count { return ResponseAPDU(data: value, status: .endOfFile) }
        if le < value.count { return ResponseAPDU(status: .wrongLe(exact: UInt8(value.count))) }
        return ResponseAPDU(data: value, status: .success)
    }
}

/// What a PC/SC reader does with an APDU for a contactless storage card before the card's own
/// instructions (READ/UPDATE BINARY, keys…): short APDUs only (one that encodes back to itself is
/// in the short form), the reader's class FF, and GET DATA answered from the UID. Every storage
/// card nfcsim presents starts here and hands the rest to `card`.
enum StorageCardAPDU {
    static func answer(_ apdu: [UInt8], uid: [UInt8], card: (CommandAPDU) -> [UInt8]?) -> [UInt8]? {
        guard let command = CommandAPDU(apdu), command.bytes == apdu, !command.needsExtendedLength else { return ResponseAPDU(status: .wrongLength).bytes }
        guard command.cla == 0xFF else { return ResponseAPDU(status: .functionNotSupported).bytes }
        if command.ins == 0xCA { return GetData.answer(command, raw: apdu, uid: uid, historicalBytes: nil).bytes }
        return card(command)
    }
}

/// A Type 2 object (NTAG21x, Ultralight) as a PC/SC Part 3 contactless storage card, as readers
/// such as the ACR122U and SCL3711 present one (Docs/design/simulators.md §3.4-3.5):
///
/// - ATR `3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68` (ISO 14443A part 3,
///   MIFARE Ultralight; readers report NTAG21x with it too).
/// - `FF CA 00 00 00` → the 7-byte UID, `90 00`.
/// - `FF B0 00 PP LE` → LE bytes from page PP, gathered from as many READ commands (16 bytes
///   each) as it takes; LE 00 means 16 as on ACR readers. Then:
///
/// | situation | status |
/// |---|---|
/// | done | 90 00 |
/// | fewer bytes before the last page than LE (the bytes there are returned) | 62 82 |
/// | page past the last page | 6A 82 |
/// | LE over ``maxReadLength`` | 6C, then ``maxReadLength`` |
/// | data in the command, or a malformed APDU | 67 00 |
/// | another FF instruction | 6D 00 |
/// | `FF D6 00 PP 04 d0..d3` (UPDATE BINARY: one WRITE) | 90 00; 63 00 when the chip refuses |
/// | another P1 of GET DATA (FF CA 01 asks for ATS bytes a storage card has not) | 6A 81 |
/// | an APDU of another class: the object has no APDU layer | 6A 81 |
/// | the chip did not answer a READ | 63 00 |
/// | the chip refused a READ (NAK: its password protects the page) | 69 82 (security status not satisfied, as PC/SC Part 3 readers such as SCM/Identiv's answer; the ACR122U says 63 00 for every failure) |
public struct VPCDType2Card: VPCDCard {
    public var tag: VirtualType2Tag
    /// Largest LE for READ BINARY: 16 on the ACR122U; other readers allow more, which the card
    /// then assembles from several READs.
    public var maxReadLength: Int
    /// The card name code in the ATR.
    public var cardName: UInt16
    /// READ commands sent to the chip so far (round trips on the air).
    public private(set) var chipCommands = 0

    public init(tag: VirtualType2Tag, maxReadLength: Int = 16, cardName: UInt16 = ContactlessATR.CardName.mifareUltralight) {
        precondition((1...0xFF).contains(maxReadLength), "LE is one byte")
        self.tag = tag
        self.maxReadLength = maxReadLength
        self.cardName = cardName
    }

    public var atr: [UInt8] { ContactlessATR.storageCard(standard: .iso14443APart3, cardName: cardName) }
    public var isPresent: Bool { tag.isPresent }

    public mutating func activate() { _ = tag.reactivate() }

    public mutating func transmit(_ apdu: [UInt8]) -> [UInt8]? {
        guard tag.isPresent else { return nil }
        return StorageCardAPDU.answer(apdu, uid: tag.uid) { command in
            switch command.ins {
            case 0xB0: readBinary(command, raw: apdu).map(\.bytes)
            case 0xD6: updateBinary(command).map(\.bytes)
            default: ResponseAPDU(status: .instructionNotSupported).bytes
            }
        }
    }

    /// UPDATE BINARY `FF D6 00 PP 04 d0..d3`: one WRITE of page PP. 90 00 for the chip's ACK;
    /// 63 00 when it NAKs (a locked or password-protected page) or is silent, as ACR122U-class
    /// readers answer; 6A 82 past the last page; 67 00 for another length.
    private mutating func updateBinary(_ command: CommandAPDU) -> ResponseAPDU? {
        guard command.p1 == 0x00, command.data.count == Type2Product.pageSize, command.le == nil else { return ResponseAPDU(status: .wrongLength) }
        guard Int(command.p2) < tag.product.totalPages else { return ResponseAPDU(status: .fileNotFound) }
        chipCommands += 1
        switch tag.respond(to: [Type2Command.writeCode, command.p2] + command.data) {
        case .frame: return ResponseAPDU(status: .success)
        case .nak, .silence:
            guard tag.isPresent else { return nil }
            _ = tag.reactivate()
            return ResponseAPDU(status: .operationFailed)
        }
    }

    private mutating func readBinary(_ command: CommandAPDU, raw: [UInt8]) -> ResponseAPDU? {
        guard command.data.isEmpty, let le = command.le else { return ResponseAPDU(status: .wrongLength) }
        let length = raw[4] == 0x00 ? 16 : le
        guard length <= maxReadLength else { return ResponseAPDU(status: .wrongLe(exact: UInt8(maxReadLength))) }
        let pages = tag.product.totalPages
        let first = Int(command.p1) << 8 | Int(command.p2)
        guard first < pages else { return ResponseAPDU(status: .fileNotFound) }
        let available = (pages - first) * Type2Product.pageSize
        let wanted = min(length, available)
        var data: [UInt8] = []
        var page = first
        while data.count < wanted {
            chipCommands += 1
            switch tag.respond(to: Type2Command.read(page: UInt8(page)).frame) {
            case .frame(let bytes) where bytes.count == 16:
                // READ wraps to page 0 past the last page; keep only pages that exist from here.
                data += bytes.prefix(min(4, pages - page) * Type2Product.pageSize)
                page += 4
            case .nak:
                // Within the memory a READ is refused only for want of the password (NTAG21x PROT):
                // Part 3 readers say so (SCM/Identiv's storage-card READ BINARY: 69 82).
                guard tag.isPresent else { return nil }
                _ = tag.reactivate()
                return ResponseAPDU(status: .securityStatusNotSatisfied)
            default:
                guard tag.isPresent else { return nil }
                _ = tag.reactivate()
                return ResponseAPDU(status: .operationFailed)
            }
        }
        return ResponseAPDU(data: Array(data.prefix(wanted)), status: wanted < length ? .endOfFile : .success)
    }
}

/// A Type 4 object (ISO-DEP) as the card a PC/SC reader presents: ATR `3B 8n 80 01` with the ATS
/// historical bytes and TCK (DESFire's ATS gives `3B 81 80 01 80 80`), GET DATA for the UID and
/// the historical bytes, and every other APDU passed to the object itself.
public struct VPCDType4Card: VPCDCard {
    public var object: VirtualType4Tag
    public let uid: [UInt8]
    public let ats: [UInt8]

    public init(object: VirtualType4Tag, uid: [UInt8] = VirtualType4Tag.pn532DefaultUID, ats: [UInt8] = VirtualType4Tag.pn532DefaultATS) {
        self.object = object
        self.uid = uid
        self.ats = ats
    }

    public var historicalBytes: [UInt8] { ContactlessATR.historicalBytes(ofATS: ats) }
    public var atr: [UInt8] { ContactlessATR.isoDEP(historicalBytes: historicalBytes) }
    public var isPresent: Bool { object.isPresent }

    public mutating func activate() { _ = object.reactivate() }

    public mutating func transmit(_ apdu: [UInt8]) -> [UInt8]? {
        guard object.isPresent else { return nil }
        if apdu.first == 0xFF {
            guard let command = CommandAPDU(apdu), command.bytes == apdu else { return ResponseAPDU(status: .wrongLength).bytes }
            guard command.ins == 0xCA else { return ResponseAPDU(status: .instructionNotSupported).bytes }
            return GetData.answer(command, raw: apdu, uid: uid, historicalBytes: historicalBytes).bytes
        }
        switch object.respond(to: apdu) {
        case .frame(let bytes): return bytes
        case .nak, .silence: return nil
        }
    }
}
