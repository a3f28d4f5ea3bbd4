/// MIFARE Classic objects formatted for NDEF (MAD and NDEF sectors, NXP AN1304) behind ``TagDriver``.
/// Writing, formatting and making read-only: ``MifareClassicWriter``.
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
        try await MifareClassicWriter.status(uid: uid, size: size, over: transport)
    }

    public func write(_ message: [UInt8], options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        try await MifareClassicWriter.write(message, uid: uid, size: size, options: options, over: transport)
    }

    public func makeReadOnly(options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        try await MifareClassicWriter.makeReadOnly(uid: uid, size: size, over: transport)
    }
}
