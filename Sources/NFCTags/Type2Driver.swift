/// NFC Forum Type 2 objects (NTAG 21x, MIFARE Ultralight family) behind ``TagDriver``.
public struct Type2Driver: TagDriver {
    public let transport: any TagTransport
    public let uid: [UInt8]?
    public var platform: TagPlatform { .type2 }

    public init(transport: any TagTransport, uid: [UInt8]?) {
        self.transport = transport
        self.uid = uid
    }

    public func readNDEF() async throws(TagReadError) -> TagReading {
        try await Type2Tag.readNDEF(over: transport, uid: uid)
    }

    public func status() async throws(TagWriteError) -> TagStatus {
        var link = CountedLink(transport)
        let product: Type2Product?
        do { product = try await Type2Tag.identify(&link) } catch { throw .link(error) }
        let fastRead = product?.supportsFastRead == true && transport.capabilities.passesType2Extensions
        let memory: [UInt8]
        do { memory = try await Type2Writer.readMemory(&link, userMemory: product?.userMemory, fastRead: fastRead) } catch .refused(.notFormatted) {
            return TagStatus(platform: .type2, product: product?.name, uid: uid, formatted: false, access: .readWrite,
                             capacity: TLVAreaWritePlan.largestMessage(in: product?.userMemory ?? 0), used: 0,
                             roundTrips: link.roundTrips)
        }
        let layout: Type2DataLayout
        do { layout = try Type2DataLayout(memory: memory, userMemory: product?.userMemory) } catch { throw .refused(error) }
        return TagStatus(platform: .type2, product: product?.name, uid: uid, formatted: true,
                         access: layout.writable ? .readWrite : .readOnly, capacity: layout.capacity,
                         used: layout.used, roundTrips: link.roundTrips)
    }

    public func write(_ message: [UInt8], options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        TagWriteReport(roundTrips: try await Type2Writer.write(message, over: transport))
    }

    public func makeReadOnly(options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        throw .refused(.unsupported("making Type 2 objects read-only is not implemented yet"))
    }
}
