import LibNFC
import NFCTags
import Synchronization

/// The link to one object selected on a libnfc device: raw commands with easy framing
/// (`nfc_initiator_transceive_bytes`; on a PN53x that is InDataExchange, which adds CRC_A and,
/// for ISO-DEP, the block protocol).
///
/// Capabilities, honestly: a PN53x answers at most 252 data bytes per InDataExchange (a normal
/// frame carries 254 bytes after the TFI: command code, status, data), so FAST_READ reads at
/// most 63 pages per frame; GET_VERSION and FAST_READ pass (the chip forwards any command in
/// easy framing); no extended-length APDUs (the PN53x ISO-DEP layer uses short frames).
///
/// Errors: NFC_ETGRELEASED, or any call after the reader saw the object leave, is
/// ``TransportError/objectRemoved``; a failed radio exchange (NFC_ERFTRANS: the object did not
/// answer, or answered with a CRC/parity fault) and NFC_ETIMEOUT are ``TransportError/timeout``
/// (a plain Ultralight falls silent on GET_VERSION and is still there; the tag protocols turn
/// silence in mid-read into "moved away too soon"); I/O failures mean the reader went away. A
/// Type 2 NAK inside InDataExchange arrives from a PN53x as a failed command (NFC_EMFCAUTHFAIL);
/// it is passed on as a one-byte NAK with code 0, since the chip does not report the 4 bits.
public final class LibNFCTransport: TagTransport, Sendable {
    public let capabilities: LinkCapabilities
    public let target: Target
    let device: LibNFCDevice
    /// Milliseconds libnfc waits for one answer.
    let timeout: Int32
    private let isType2: Bool
    /// False once the reader saw the object leave (or selected another).
    private let current = Mutex(true)
    /// When the last exchange ended; the reader's presence check keeps out of a read's way.
    let lastActivity = Mutex<ContinuousClock.Instant?>(nil)
    /// Reads under way. A presence check re-selects the object, which ends a MIFARE Classic
    /// authentication (and any ISO-DEP state) mid-read, so the reader makes none while this is
    /// above zero, however long the gaps between a read's exchanges (a loaded machine).
    let readsInProgress = Mutex(0)

    func beginRead() { readsInProgress.withLock { $0 += 1 } }
    func endRead() { readsInProgress.withLock { $0 -= 1 } }

    /// Largest data answer of one PN53x InDataExchange.
    public static let pn53xMaxResponse = 252

    init(device: LibNFCDevice, target: Target, platform: TagPlatform?) {
        self.device = device
        self.target = target
        // MIFARE Classic's refused AUTHENTICATE or READ also arrives as NFC_EMFCAUTHFAIL: a NAK.
        isType2 = platform == .type2 || platform == .mifareClassic
        capabilities = LinkCapabilities(maxResponseLength: Self.pn53xMaxResponse, passesType2Extensions: true,
                                        extendedLengthAPDUs: false)
        // Type 2 answers within a few ms; ISO-DEP objects may ask for a long frame waiting time.
        timeout = platform == .type4 ? 2000 : 500
    }

    var isCurrent: Bool { current.withLock { $0 } }
    func retire() { current.withLock { $0 = false } }

    public func transceive(_ command: [UInt8]) async throws(TransportError) -> [UInt8] {
        guard isCurrent else { throw .objectRemoved }
        defer { lastActivity.withLock { $0 = .now } }
        lastActivity.withLock { $0 = .now }
        do {
            return try await device.transceive(command, maxResponse: 264, timeout: timeout)
        } catch {
            if isType2, error.code == .mifareAuthentication { return [0x00] }
            throw map(error)
        }
    }

    public func reactivate() async throws(TransportError) {
        guard isCurrent else { throw .objectRemoved }
        guard target.modulation.type == .iso14443A else { throw .notSupported("re-activation of \(target.modulation)") }
        lastActivity.withLock { $0 = .now }
        defer { lastActivity.withLock { $0 = .now } }
        do {
            guard try await device.selectPassiveTarget(target.modulation, initiatorData: target.identifier) != nil else {
                throw TransportError.objectRemoved
            }
        } catch let error as TransportError {
            throw error
        } catch let error as LibNFCError {
            throw map(error)
        } catch {
            throw .protocolError("\(error)")
        }
    }

    func map(_ error: LibNFCError) -> TransportError {
        switch error.code {
        case .targetReleased?: return .objectRemoved
        case .rfTransmission?, .timeout?: return isCurrent ? .timeout : .objectRemoved
        case .io?, .noSuchDevice?: return .readerGone
        case .deviceNotSupported?, .notImplemented?: return .notSupported(error.description)
        case nil where error == .closed: return .readerGone
        default: return .protocolError(error.description)
        }
    }
}

/// A libnfc target as the drivers' link: an operation marks a read in progress, so the reader's
/// presence check (which re-selects the object and would end a MIFARE Classic authentication)
/// keeps out of its way. No other program reaches a device nfcscan holds.
extension LibNFCTransport: ObjectLink {
    public func exclusive<T: Sendable>(_ body: () async -> T) async throws(TransportError) -> T {
        beginRead()
        defer { endRead() }
        return await body()
    }

    public func release() async {}

    public func unreachable(_ platform: TagPlatform) -> TagReadError? {
        platform == .type5 ? DetectedObject.type5Unreachable : nil
    }
}
