/// NFC Forum Type 3 objects (FeliCa Lite-S and FeliCa with an NDEF system) behind ``TagDriver``:
/// reads with ``Type3Tag``, writes and makes read-only with ``Type3Writer``.
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

    /// From the attribute block: RWFlag, Nmaxb × 16, Ln. A write left unfinished (WriteF 0F)
    /// is formatted and writable, holding nothing readable.
    public func status() async throws(TagWriteError) -> TagStatus {
        var link = CountedLink(transport)
        let block = try await Type3Writer.attributeBlock(idm: idm, &link)
        let attribute: Type3AttributeBlock
        do { attribute = try Type3WritePlan.decode(block) } catch .notFormatted {
            return TagStatus(platform: .type3, product: nil, uid: idm, formatted: false, access: .readWrite, capacity: 0, used: 0,
                             roundTrips: link.roundTrips)
        } catch { throw .refused(error) }
        return TagStatus(platform: .type3, product: nil, uid: idm, formatted: true,
                         access: attribute.readWriteFlag == 0x01 ? .readWrite : .readOnly, capacity: attribute.maxBlocks * 16,
                         used: attribute.writeFlag == 0x00 ? attribute.ndefLength : 0, roundTrips: link.roundTrips)
    }

    public func write(_ message: [UInt8], options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        try await Type3Writer.write(message, idm: idm, over: transport)
    }

    public func makeReadOnly(options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        try await Type3Writer.makeReadOnly(idm: idm, over: transport)
    }
}
