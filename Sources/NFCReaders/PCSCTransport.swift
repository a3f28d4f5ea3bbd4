import NDEF
import NFCTags
import PCSC
import Synchronization

/// The link to one card connected through PC/SC.
///
/// - Type 2 (a Part 3 storage card): the reader speaks to the chip, the host sends pseudo-APDUs.
///   READ `30 pp` becomes READ BINARY `FF B0 00 pp 10` (16 bytes = 4 pages), WRITE `A2 pp d0..d3`
///   becomes UPDATE BINARY `FF D6 00 pp 04 d0..d3`. NXP's GET_VERSION and FAST_READ do not pass
///   (``LinkCapabilities/passesType2Extensions`` is false; sending them is
///   ``TransportError/notSupported(_:)``). Status words: `90 00` is the data; `6A 82` (no such
///   page) is the chip's NAK, passed on as a one-byte NAK; `69 82` to a READ (security status
///   not satisfied: the chip refused it for want of its password, which PWD_AUTH would give but
///   cannot pass) is ``TransportError/passwordNotPassed``; `63 00` (the reader's "operation
///   failed": the chip did not answer) is ``TransportError/timeout``; `6A 81`/`6D 00`/`6E 00`
///   are "not supported"; anything else is a protocol error.
/// - Type 4 (ISO-DEP): APDUs pass as they are; responses are at most 256 data bytes plus the
///   status word (extended-length APDUs are not assumed).
///
/// Errors: the card gone (SCARD_W_REMOVED_CARD, SCARD_E_NO_SMARTCARD, SCARD_W_RESET_CARD), or
/// any call after the reader saw it leave, is ``TransportError/objectRemoved``; the reader or
/// pcscd gone is ``TransportError/readerGone``; an exchange that failed (SCARD_E_NOT_TRANSACTED,
/// SCARD_W_UNRESPONSIVE_CARD) is ``TransportError/timeout``.
///
/// pcscd lets several programs share a card; without a transaction another program's commands can
/// land between two of ours (its SELECT between our SELECT and READ BINARY: "status 6986"). So
/// each multi-command use of the card (identifying it, reading it) runs inside one PC/SC
/// transaction (``exclusive(_:)``); a program that holds one makes the read wait until it ends.
/// Limit: pcsc-lite gives no way to give up that wait; it ends when the other program ends its
/// transaction or the card leaves, and meanwhile this reader's card context is busy.
public final class PCSCTransport: TagTransport, Sendable {
    public let platform: TagPlatform?
    let card: PCSCCard
    /// What the reader answered to the pass-through probe, shared by every card it presents.
    let passThroughMemory: PCSCPassThroughMemory
    /// Whether a Part 3 transparent session is open (between ``openPassThrough()`` and ``closePassThrough()``).
    private let sessionOpen = Mutex(false)
    private let exchangeCount = Atomic(0)
    /// Command APDUs sent to the card so far (probes and session management included).
    public var exchanges: Int { exchangeCount.load(ordering: .relaxed) }
    var sessionIsOpen: Bool {
        get { sessionOpen.withLock { $0 } }
        set { sessionOpen.withLock { $0 = newValue } }
    }
    private let current = Mutex(true)
    /// The key in the reader's volatile slot 0 (MIFARE Classic), to load it only when it changes.
    let loadedKey = Mutex<[UInt8]?>(nil)
    /// MIFARE Classic 1K/4K/Mini from the ATR's card name, when the card is one.
    public let mifareClassicSize: MifareClassicSize?

    /// Bytes of one READ BINARY for Type 2: one READ's 16 bytes.
    public static let type2ReadLength = 16

    init(card: PCSCCard, platform: TagPlatform?, mifareClassicSize: MifareClassicSize? = nil,
         passThroughMemory: PCSCPassThroughMemory = PCSCPassThroughMemory()) {
        self.card = card
        self.platform = platform
        self.mifareClassicSize = mifareClassicSize
        self.passThroughMemory = passThroughMemory
    }

    /// The pass-through this card's frames take, when the reader has one that reaches it.
    public var passThrough: ReaderPassThrough? {
        guard case .passThrough(let way)? = passThroughMemory.answer, way.reaches(platform) else { return nil }
        return way
    }

    public var capabilities: LinkCapabilities {
        if let passThrough {
            return LinkCapabilities(maxResponseLength: passThrough.maxAnswerLength, passesType2Extensions: true, extendedLengthAPDUs: false)
        }
        return platform == .type2
            ? LinkCapabilities(maxResponseLength: Self.type2ReadLength, passesType2Extensions: false, extendedLengthAPDUs: false)
            : LinkCapabilities(maxResponseLength: 258, passesType2Extensions: false, extendedLengthAPDUs: false)
    }

    var isCurrent: Bool { current.withLock { $0 } }
    func retire() { current.withLock { $0 = false } }

    /// Done with the card: disconnects (leaving it powered, in place) so another client may
    /// connect to it, even exclusively; later exchanges are ``TransportError/objectRemoved``.
    public func release() async {
        retire()
        await card.disconnect(.leave)
    }

    /// The UID, from the Part 3 GET DATA `FF CA 00 00 00` (empty when the reader does not say),
    /// inside a transaction so that no other client's command comes between.
    func identifier() async throws(TransportError) -> [UInt8] {
        try await beginTransaction()
        let response: [UInt8]
        do { response = try await transmit([0xFF, 0xCA, 0x00, 0x00, 0x00]) } catch {
            await endTransaction()
            throw error
        }
        await endTransaction()
        guard response.count >= 2, response.suffix(2) == [0x90, 0x00] else { return [] }
        return Array(response.dropLast(2))
    }

    /// `SCardBeginTransaction`, waiting while another client holds one. Another client may have
    /// reset the card since this handle last used it (SCARD_W_RESET_CARD): the card is still
    /// there, so this handle acknowledges the reset (reconnect, leaving the card as it is) and
    /// tries once more. A card another client holds exclusively is a clear error.
    func beginTransaction() async throws(TransportError) {
        guard isCurrent else { throw .objectRemoved }
        do {
            try await card.beginTransaction()
        } catch where error.kind == .resetCard {
            do {
                try await card.reconnect(initialization: .leave)
                try await card.beginTransaction()
            } catch {
                throw beginFailure(error)
            }
        } catch {
            throw beginFailure(error)
        }
    }

    private func beginFailure(_ error: PCSCError) -> TransportError {
        guard error.kind == .sharingViolation else { return map(error) }
        return .protocolError("another program holds the card exclusively (\(error)); read it again once that program lets go")
    }

    /// `SCardEndTransaction`; a card that has left ends it by itself.
    func endTransaction() async {
        try? await card.endTransaction(.leave)
    }

    public func transceive(_ command: [UInt8]) async throws(TransportError) -> [UInt8] {
        guard isCurrent else { throw .objectRemoved }
        if let passThrough {
            return try passThrough.answer(try await transmit(passThrough.command(command, platform: platform)), platform: platform)
        }
        if platform == .mifareClassic { return try await mifareClassic(command) }
        if platform == .type5 { return try await type5(command) }
        guard platform == .type2 else { return try await transmit(command) }
        guard let code = command.first else { throw .protocolError("empty command") }
        switch code {
        case 0x30 where command.count == 2:
            let response = try await transmit([0xFF, 0xB0, 0x00, command[1], UInt8(Self.type2ReadLength)])
            do { return try Self.type2Answer(response, data: true) } catch .timeout {
                // 63 00 is a chip that refused the READ (a protected page, one past its end) or
                // fell silent. A card the reader still holds refused it, as a NAK on the air says:
                // reading again would not help. Only a card gone is an object that moved away.
                guard await stillPresent() else { throw .timeout }
                return [0x00]
            }
        case 0xA2 where command.count == 6:
            let response = try await transmit([0xFF, 0xD6, 0x00, command[1], 0x04] + command[2...])
            return try Self.type2Answer(response, data: false)
        case 0x60: throw .notSupported("GET_VERSION (60) over a PC/SC storage-card link")
        case 0x3A: throw .notSupported("FAST_READ (3A) over a PC/SC storage-card link")
        default: throw .notSupported("Type 2 command \(Hex.spaced([code], uppercase: true)) over a PC/SC storage-card link")
        }
    }

    /// A pseudo-APDU's response as the Type 2 chip's answer: the data, an ACK (0x0A) for a write,
    /// or a one-byte NAK.
    static func type2Answer(_ response: [UInt8], data: Bool) throws(TransportError) -> [UInt8] {
        guard response.count >= 2 else { throw .protocolError("a response without status word") }
        let sw = (response[response.count - 2], response[response.count - 1])
        let body = Array(response.dropLast(2))
        switch sw {
        case (0x90, 0x00): return data ? body : [0x0A]
        case (0x62, 0x82) where data && !body.isEmpty: return body
        case (0x6A, 0x82): return [0x00]
        case (0x69, 0x82) where data: throw .passwordNotPassed
        case (0x63, 0x00): throw .timeout
        case (0x6A, 0x81), (0x6D, 0x00), (0x6E, 0x00): throw .notSupported("this command (status word \(Hex.spaced([sw.0, sw.1], uppercase: true)))")
        default: throw .protocolError("status word \(Hex.spaced([sw.0, sw.1], uppercase: true))")
        }
    }

    /// Whether the card is still in the reader's field: no removal seen, and `SCardStatus` on the
    /// handle answers (a card that left answers SCARD_W_REMOVED_CARD).
    func stillPresent() async -> Bool {
        guard isCurrent else { return false }
        return (try? await card.status()) != nil
    }

    func transmit(_ apdu: [UInt8]) async throws(TransportError) -> [UInt8] {
        exchangeCount.add(1, ordering: .relaxed)
        do {
            return try await card.transmit(apdu, maxResponse: 258 + 2)
        } catch {
            throw map(error)
        }
    }

    /// Resets the card and connects again (the reader re-activates it).
    public func reactivate() async throws(TransportError) {
        guard isCurrent else { throw .objectRemoved }
        do { try await card.reconnect(initialization: .reset) } catch { throw map(error) }
    }

    func map(_ error: PCSCError) -> TransportError {
        guard isCurrent else { return .objectRemoved }
        return Self.map(error)
    }

    /// How a PC/SC failure reaches the tag protocols.
    public static func map(_ error: PCSCError) -> TransportError {
        switch error.kind {
        case .removedCard, .noSmartcard, .resetCard: .objectRemoved
        case .readerUnavailable, .unknownReader, .noService, .serviceStopped, .invalidHandle: .readerGone
        case .notTransacted, .unresponsiveCard, .unpoweredCard, .timeout: .timeout
        default: .protocolError(error.description)
        }
    }
}

/// A PC/SC card as the drivers' link: each operation inside one PC/SC transaction with the
/// reader's pass-through probed (once per reader) and its Part 3 session open, so another program
/// sharing the card cannot interleave its commands.
extension PCSCTransport: ObjectLink {
    public func exclusive<T: Sendable>(_ body: () async -> T) async throws(TransportError) -> T {
        try await beginTransaction()
        do { try await openPassThrough() } catch {
            await endTransaction()
            throw error
        }
        let result = await body()
        await closePassThrough()
        await endTransaction()
        return result
    }

    /// Part 3 storage-card APDUs map READ/UPDATE BINARY, not Topaz RID/RALL/RSEG or FeliCa Check
    /// frames: Types 1 and 3 need the reader's pass-through (``ReaderPassThrough``: ACR122U
    /// direct transmit for both, Part 3 transparent exchange for FeliCa).
    public func unreachable(_ platform: TagPlatform) -> TagReadError? {
        let kind: String
        switch platform {
        case .type1: kind = "Type 1 (Topaz/Jewel)"
        case .type3: kind = "Type 3 (FeliCa)"
        default: return nil
        }
        guard passThrough == nil else { return nil }
        return .unsupported("reading \(kind) objects through this PC/SC reader: it passes no frames to them (ACR122U direct transmit reaches Types 1 and 3, PC/SC Part 3 transparent exchange Type 3); use such a reader, or a libnfc reader (PN53x)")
    }

    /// The Classic size from the ATR's card name; Type 5 system information has no Part 3 mapping.
    public func driverContext(uid: [UInt8], technology: DetectedObject.Technology) -> DriverContext {
        DriverContext(uid: uid, classicSize: mifareClassicSize ?? technology.classicSize, type5SystemInformation: false)
    }
}
