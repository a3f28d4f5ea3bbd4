/// NFC Forum Type 1 objects (Topaz, Jewel) behind ``TagDriver``.
/// Writing is not implemented yet: it is refused before anything is sent.
public struct Type1Driver: TagDriver {
    public let transport: any TagTransport
    public let uid: [UInt8]?
    public var platform: TagPlatform { .type1 }

    public init(transport: any TagTransport, uid: [UInt8]?) {
        self.transport = transport
        self.uid = uid
    }

    public func readNDEF() async throws(TagReadError) -> TagReading {
        try await Type1Tag.readNDEF(over: transport, uid: uid)
    }

    public func status() async throws(TagWriteError) -> TagStatus {
        do { return TagStatus(reading: try await readNDEF(), access: .readWrite) } catch { throw .link(error) }
    }

    public func write(_ message: [UInt8], options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        throw .refused(.unsupported("writing Type 1 objects is not implemented yet"))
    }

    public func makeReadOnly(options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        throw .refused(.unsupported("making Type 1 objects read-only is not implemented yet"))
    }
}
