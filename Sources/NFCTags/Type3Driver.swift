/// NFC Forum Type 3 objects (FeliCa Lite-S and FeliCa with an NDEF system) behind ``TagDriver``.
/// Writing is not implemented yet: it is refused before anything is sent.
public struct Type3Driver: TagDriver {
    public let transport: any TagTransport
    public let idm: [UInt8]
    public var platform: TagPlatform { .type3 }

    public init(transport: any TagTransport, idm: [UInt8]) {
        self.transport = transport
        self.idm = idm
    }

    public func readNDEF() async throws(TagReadError) -> TagReading {
        try await Type3Tag.readNDEF(over: transport, idm: idm)
    }

    public func status() async throws(TagWriteError) -> TagStatus {
        do { return TagStatus(reading: try await readNDEF(), access: .readWrite) } catch { throw .link(error) }
    }

    public func write(_ message: [UInt8], options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        throw .refused(.unsupported("writing Type 3 objects is not implemented yet"))
    }

    public func makeReadOnly(options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        throw .refused(.unsupported("making Type 3 objects read-only is not implemented yet"))
    }
}
