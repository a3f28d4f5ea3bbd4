/// NFC Forum Type 5 objects (ISO 15693: ICODE SLIX, ST25DV, …) behind ``TagDriver``.
/// Writing is not implemented yet: it is refused before anything is sent.
public struct Type5Driver: TagDriver {
    public let transport: any TagTransport
    public let uid: [UInt8]?
    /// Whether GET SYSTEM INFORMATION reaches the object over this link.
    public let systemInformation: Bool
    public var platform: TagPlatform { .type5 }

    public init(transport: any TagTransport, uid: [UInt8]?, systemInformation: Bool) {
        self.transport = transport
        self.uid = uid
        self.systemInformation = systemInformation
    }

    public func readNDEF() async throws(TagReadError) -> TagReading {
        try await Type5Tag.readNDEF(over: transport, uid: uid, systemInformation: systemInformation)
    }

    public func status() async throws(TagWriteError) -> TagStatus {
        do { return TagStatus(reading: try await readNDEF(), access: .readWrite) } catch { throw .link(error) }
    }

    public func write(_ message: [UInt8], options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        throw .refused(.unsupported("writing Type 5 objects is not implemented yet"))
    }

    public func makeReadOnly(options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        throw .refused(.unsupported("making Type 5 objects read-only is not implemented yet"))
    }
}
