import NFCTags

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
    /// What its provider lists it as (``ReaderProvider/identifiers()``: libnfc's connstring,
    /// pcscd's reader name), so a reader already open is not opened again.
    var identifier: String { get }
    var backend: ReaderBackend { get }
    var status: ReaderStatus { get }
    /// Arrivals and removals, in order; the stream ends when the reader is closed, and throws a
    /// ``ReaderError`` when the reader fails. One stream per reader: the first call starts the
    /// search, later calls get a stream that finishes at once.
    func events() -> AsyncThrowingStream<ReaderEvent, any Error>
    /// Stops searching and releases the reader.
    func close() async
}

extension Reader {
    public var identifier: String { name }
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
    /// How the object was found (``ObjectTechnology``, in NFCTags so that pure code can hold it).
    public typealias Technology = ObjectTechnology

    /// UID, IDm, PUPI or Jewel ID.
    public var identifier: [UInt8]
    public var technology: Technology
    /// The tag platform activation points to, when there is one this project reads: Type 2 for a
    /// type A object with SAK 00 (NTAG, Ultralight), Type 4 for ISO-DEP (SAK bit 0x20), Type 3
    /// for FeliCa, Type 1 for Jewel/Topaz, MIFARE Classic for SAK 08/18/09; nil for other objects.
    public var platform: TagPlatform?
    /// The link to the object, with what its backend adds around a whole operation.
    public let link: any ObjectLink
    /// Raw command frames to the object (Type 2 commands, or APDUs for ISO-DEP).
    public var transport: any TagTransport { link }

    public init(identifier: [UInt8], technology: Technology, platform: TagPlatform?, link: any ObjectLink) {
        self.identifier = identifier
        self.technology = technology
        self.platform = platform
        self.link = link
    }

    /// An object reached over a plain transport (a simulated one): see ``DirectLink``.
    public init(identifier: [UInt8], technology: Technology, platform: TagPlatform?, transport: any TagTransport,
                refusing refused: [TagPlatform: TagReadError] = [:]) {
        self.init(identifier: identifier, technology: technology, platform: platform, link: DirectLink(transport, refusing: refused))
    }

    /// Lets go of the object once it has been read: a PC/SC card is disconnected, so another
    /// program (a wallet or smart-card app) can use it, even exclusively, while it stays near
    /// the reader; its removal is still noticed. A libnfc target needs nothing (no other program
    /// can reach a device nfcscan holds). Exchanges after this fail as ``TransportError/objectRemoved``.
    public func release() async {
        await link.release()
    }

    /// The driver for the object's platform, or why the object cannot be handled over this link.
    /// Call it inside ``ObjectLink/exclusive(_:)``: some links learn what they reach there (a PC/SC
    /// reader's pass-through is probed once the section begins).
    /// `password`: what the person gave for reading and ``TagDriver/status()`` (an NTAG21x's).
    public func driver(password: [UInt8]? = nil) throws(TagReadError) -> any TagDriver {
        guard let platform else {
            throw .unsupported("reading this kind of object is not implemented")
        }
        if let refusal = link.unreachable(platform) { throw refusal }
        var context = link.driverContext(uid: identifier, technology: technology)
        context.password = password
        return platform.driver(over: link, context: context)
    }

    /// Runs `operation` on the object's driver as one whole operation (see ``ObjectLink/exclusive(_:)``).
    public func perform<T: Sendable>(password: [UInt8]? = nil,
                                     _ operation: (any TagDriver) async throws(TagWriteError) -> T) async throws(TagWriteError) -> T {
        let result: Result<T, TagWriteError>
        do {
            result = try await link.exclusive { () async -> Result<T, TagWriteError> in
                do throws(TagWriteError) {
                    let driver: any TagDriver
                    do throws(TagReadError) { driver = try self.driver(password: password) } catch { throw .link(error) }
                    return .success(try await operation(driver))
                } catch { return .failure(error) }
            }
        } catch { throw .link(Self.readError(error)) }
        return try result.get()
    }

    /// Reads the NDEF message with the driver of ``platform``, as one whole operation
    /// (`password`: see ``driver(password:)``).
    public func readNDEF(password: [UInt8]? = nil) async throws(TagReadError) -> TagReading {
        let result: Result<TagReading, TagReadError>
        do {
            result = try await link.exclusive { () async -> Result<TagReading, TagReadError> in
                do throws(TagReadError) { return .success(try await self.driver(password: password).readNDEF()) } catch { return .failure(error) }
            }
        } catch { throw Self.readError(error) }
        return try result.get()
    }

    /// A section that could not begin, as a read error.
    static func readError(_ error: TransportError) -> TagReadError {
        error == .objectRemoved ? .objectRemoved(roundTrips: 0) : .transport(error)
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
        // A PC/SC reader's transport places its card itself (from the ATR).
        case .pcscCard, .other: nil
        }
    }
}
