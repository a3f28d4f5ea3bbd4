import NFCTags

/// Which library a reader is reached through.
public enum ReaderBackend: String, Hashable, Sendable {
    case libnfc
    case pcsc
}

/// What a reader is doing.
public enum ReaderStatus: Hashable, Sendable {
    /// Open and looking for an object.
    case searching
    /// An object is in the field (announced with ``ReaderEvent/arrived(_:)``).
    case objectPresent
    /// The reader failed and is no longer used; the error says why.
    case failed(ReaderError)
    case closed
}

/// A reader: one place objects are held near. Backends (libnfc, PC/SC) implement it, so
/// everything above reads objects the same way whatever the hardware.
public protocol Reader: AnyObject, Sendable {
    /// The reader's name as its backend gives it (for libnfc: the device name and connstring).
    var name: String { get }
    var backend: ReaderBackend { get }
    var status: ReaderStatus { get }
    /// Arrivals and removals, in order; the stream ends when the reader is closed, and throws a
    /// ``ReaderError`` when the reader fails. One stream per reader: the first call starts the
    /// search, later calls get a stream that finishes at once.
    func events() -> AsyncThrowingStream<ReaderEvent, any Error>
    /// Stops searching and releases the reader.
    func close() async
}

public enum ReaderEvent: Sendable {
    /// An object entered the field and was activated; read it through its transport.
    case arrived(DetectedObject)
    /// The object with this identifier left the field.
    case removed(identifier: [UInt8])
    /// Another program holds the reader's object exclusively (true: a wallet or smart-card app
    /// using it through pcscd), or no longer does (false). Nothing is read meanwhile.
    case heldElsewhere(Bool)
}

/// An object the reader found, with the link to it.
public struct DetectedObject: Sendable {
    /// How the object was found, with what it told the reader during activation.
    public enum Technology: Hashable, Sendable {
        /// ISO/IEC 14443 type A: ATQA, SAK and (ISO-DEP only) the ATS without TL.
        case iso14443A(atqa: [UInt8], sak: UInt8, ats: [UInt8])
        case felica(pmm: [UInt8], systemCode: [UInt8])
        case iso14443B(applicationData: [UInt8], protocolInfo: [UInt8])
        case jewel
        /// Another modulation (named as libnfc names it).
        case other(String)
    }

    /// UID, IDm, PUPI or Jewel ID.
    public var identifier: [UInt8]
    public var technology: Technology
    /// The tag platform activation points to, when there is one this project reads: Type 2 for a
    /// type A object with SAK 00 (NTAG, Ultralight), Type 4 for ISO-DEP (SAK bit 0x20), Type 3
    /// for FeliCa, Type 1 for Jewel/Topaz, MIFARE Classic for SAK 08/18/09; nil for other objects.
    public var platform: TagPlatform?
    /// Raw command frames to the object (Type 2 commands, or APDUs for ISO-DEP).
    public var transport: any TagTransport

    public init(identifier: [UInt8], technology: Technology, platform: TagPlatform?, transport: any TagTransport) {
        self.identifier = identifier
        self.technology = technology
        self.platform = platform
        self.transport = transport
    }

    /// Lets go of the object once it has been read: a PC/SC card is disconnected, so another
    /// program (a wallet or smart-card app) can use it, even exclusively, while it stays near
    /// the reader; its removal is still noticed. A libnfc target needs nothing (no other program
    /// can reach a device nfcscan holds). Exchanges after this fail as ``TransportError/objectRemoved``.
    public func release() async {
        await (transport as? PCSCTransport)?.release()
    }

    /// Reads the NDEF message with the protocol of ``platform``: over PC/SC inside one transaction
    /// (identify and read), so another program sharing the card cannot interleave its commands.
    public func readNDEF() async throws(TagReadError) -> TagReading {
        if let pcsc = transport as? PCSCTransport {
            return try await pcsc.transacted { () async throws(TagReadError) in try await readWithPassThrough(pcsc) }
        }
        return try await readByPlatform()
    }

    /// The read between the reader's pass-through probe (and Part 3 session start) and the session's end.
    private func readWithPassThrough(_ pcsc: PCSCTransport) async throws(TagReadError) -> TagReading {
        do { try await pcsc.openPassThrough() } catch {
            throw error == .objectRemoved ? .objectRemoved(roundTrips: 0) : .transport(error)
        }
        let result: Result<TagReading, TagReadError>
        do { result = .success(try await readByPlatform()) } catch { result = .failure(error) }
        await pcsc.closePassThrough()
        return try result.get()
    }

    private func readByPlatform() async throws(TagReadError) -> TagReading {
        let libnfc = transport as? LibNFCTransport
        libnfc?.beginRead()
        defer { libnfc?.endRead() }
        return switch platform {
        case .type2?: try await Type2Tag.readNDEF(over: transport, uid: identifier)
        case .type4?: try await Type4Tag.readNDEF(over: transport, uid: identifier)
        case .type3?: try await Self.unlessPCSC(transport, "Type 3 (FeliCa)") { () async throws(TagReadError) in
            try await Type3Tag.readNDEF(over: transport, idm: identifier)
        }
        case .type1?: try await Self.unlessPCSC(transport, "Type 1 (Topaz/Jewel)") { () async throws(TagReadError) in
            try await Type1Tag.readNDEF(over: transport)
        }
        case .mifareClassic?: try await readMifareClassic()
        case .type5?: try await readType5()
        default: throw .unsupported("reading \(platform.map { "\($0)" } ?? "this kind of object") is not implemented")
        }
    }

    /// PC/SC Part 3 storage-card APDUs map READ BINARY, not Topaz RID/RALL/RSEG or FeliCa Check
    /// frames: over PC/SC, Types 1 and 3 need the reader's pass-through (``ReaderPassThrough``:
    /// ACR122U direct transmit for both, Part 3 transparent exchange for FeliCa).
    private static func unlessPCSC(_ transport: any TagTransport, _ kind: String,
                                   _ read: () async throws(TagReadError) -> TagReading) async throws(TagReadError) -> TagReading {
        if let pcsc = transport as? PCSCTransport, pcsc.passThrough == nil {
            throw .unsupported("reading \(kind) objects through this PC/SC reader: it passes no frames to them (ACR122U direct transmit reaches Types 1 and 3, PC/SC Part 3 transparent exchange Type 3); use such a reader, or a libnfc reader (PN53x)")
        }
        return try await read()
    }

    /// The platform activation data points to.
    static func platform(for technology: Technology) -> TagPlatform? {
        switch technology {
        case .iso14443A(_, let sak, _) where sak & 0x20 != 0: .type4
        case .iso14443A(_, let sak, _) where sak & 0x7F == 0x00: .type2
        case .iso14443A(_, let sak, _) where MifareClassicSize(sak: sak) != nil: .mifareClassic
        case .iso14443A: nil
        case .felica: .type3
        case .iso14443B(_, let protocolInfo) where protocolInfo.count > 1 && protocolInfo[1] & 0x01 != 0: .type4
        case .iso14443B: nil
        case .jewel: .type1
        case .other: nil
        }
    }
}
