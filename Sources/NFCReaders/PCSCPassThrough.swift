import NFCTags
import Synchronization

/// What one reader answered when asked whether frames pass through it to the object, kept for
/// the reader's lifetime so that only its first card pays for the question (one or two APDUs).
public final class PCSCPassThroughMemory: Sendable {
    public enum Answer: Hashable, Sendable {
        case passThrough(ReaderPassThrough)
        /// Storage-card pseudo-APDUs only.
        case storageCardsOnly
    }

    private let stored = Mutex<Answer?>(nil)

    public init() {}

    /// The reader's answer, nil before the first probe.
    public var answer: Answer? { stored.withLock { $0 } }

    func remember(_ answer: Answer) { stored.withLock { $0 = answer } }
}

/// The probe and the Part 3 session around a read (inside its PC/SC transaction).
///
/// Probe order: direct transmit first (PN532 GetFirmwareVersion: harmless, and an ACR122U knows
/// no `FF C2`), then Manage Session's Start Transparent Session (which, when accepted, is the
/// session this read uses). A storage-card-only reader answers both with a status word alone
/// (`6D 00`, `6A 81`, `63 00`…): it is remembered as such and read with storage-card APDUs.
extension PCSCTransport {
    /// Probes the reader once (only for objects a pass-through could help with) and opens a
    /// transparent session when reading goes through one.
    func openPassThrough() async throws(TransportError) {
        guard [.type1, .type2, .type3].contains(platform) else { return }
        if passThroughMemory.answer == nil {
            let direct = try await transmit(ReaderPassThrough.directTransmitProbe)
            if ReaderPassThrough.answersDirectTransmit(direct) {
                passThroughMemory.remember(.passThrough(.directTransmit))
            } else if ReaderPassThrough.sessionAccepted(try await transmit(ReaderPassThrough.startSession)) {
                passThroughMemory.remember(.passThrough(.transparentExchange))
                sessionIsOpen = true
                return
            } else {
                passThroughMemory.remember(.storageCardsOnly)
            }
        }
        guard passThrough == .transparentExchange, !sessionIsOpen else { return }
        guard ReaderPassThrough.sessionAccepted(try await transmit(ReaderPassThrough.startSession)) else {
            throw .protocolError("the reader refused to start a transparent session it accepted before")
        }
        sessionIsOpen = true
    }

    /// Ends the transparent session, if one is open (the reader goes back to polling).
    func closePassThrough() async {
        guard sessionIsOpen else { return }
        sessionIsOpen = false
        _ = try? await transmit(ReaderPassThrough.endSession)
    }
}
