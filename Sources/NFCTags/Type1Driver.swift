/// NFC Forum Type 1 objects (Topaz, Jewel) behind ``TagDriver``: reads with ``Type1Tag``, writes
/// and makes read-only with ``Type1Writer``.
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

    /// From the whole memory: the CC's write access and lock bits, the plan's room for a message.
    public func status() async throws(TagWriteError) -> TagStatus {
        var link = CountedLink(transport)
        let (_, dynamic, memory) = try await Type1Writer.readMemory(&link)
        let product = dynamic ? "Topaz 512" : "Topaz 96"
        let reading: TagReading
        do { reading = try await Type1Tag.readNDEF(over: transport, uid: uid) } catch { throw .link(error) }
        guard reading.formatted else {
            return TagStatus(platform: .type1, product: product, uid: uid, formatted: false, access: .readWrite,
                             capacity: 0, used: 0, roundTrips: link.roundTrips)
        }
        // The room for a message: what the plan would give an empty one.
        let plan = try? Type1WritePlan(memory: memory, dynamic: dynamic, message: [])
        let cc = try? Type1WritePlan.capabilityContainer(memory)
        let locked = plan.map { plan in plan.addresses.contains { Type1WritePlan.lockedBytes(memory, memorySize: memory.count).contains($0) } } ?? true
        return TagStatus(platform: .type1, product: product, uid: uid, formatted: true,
                         access: cc?.write == .granted && !locked ? .readWrite : .readOnly,
                         capacity: plan.map { TLVAreaWritePlan.largestMessage(in: $0.available) } ?? reading.capacity,
                         used: reading.ndefBytes.count, roundTrips: link.roundTrips + reading.roundTrips)
    }

    public func write(_ message: [UInt8], options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        try await Type1Writer.write(message, over: transport)
    }

    public func makeReadOnly(options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        try await Type1Writer.makeReadOnly(over: transport)
    }
}
