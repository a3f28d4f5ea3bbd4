/// MIFARE Classic objects formatted for NDEF (MAD and NDEF sectors, NXP AN1304) behind ``TagDriver``.
/// Writing is not implemented yet: it is refused before anything is sent.
public struct MifareClassicDriver: TagDriver {
    public let transport: any TagTransport
    public let uid: [UInt8]
    /// The geometry activation gave; nil: the largest (4K) is assumed.
    public let size: MifareClassicSize?
    public var platform: TagPlatform { .mifareClassic }

    public init(transport: any TagTransport, uid: [UInt8], size: MifareClassicSize?) {
        self.transport = transport
        self.uid = uid
        self.size = size
    }

    public func readNDEF() async throws(TagReadError) -> TagReading {
        try await MifareClassicTag.readNDEF(over: transport, uid: uid, size: size)
    }

    public func status() async throws(TagWriteError) -> TagStatus {
        do { return TagStatus(reading: try await readNDEF(), access: .readWrite) } catch { throw .link(error) }
    }

    public func write(_ message: [UInt8], options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        throw .refused(.unsupported("writing MIFARE Classic objects is not implemented yet"))
    }

    public func makeReadOnly(options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        throw .refused(.unsupported("making MIFARE Classic objects read-only is not implemented yet"))
    }
}
