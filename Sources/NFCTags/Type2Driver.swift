/// NFC Forum Type 2 objects (NTAG 21x, MIFARE Ultralight family) behind ``TagDriver``.
public struct Type2Driver: TagDriver {
    public let transport: any TagTransport
    public let uid: [UInt8]?
    /// The NTAG21x password for reading (sent only to a chip that refuses to be read without it)
    /// and for ``status()`` (sent first, as writes send theirs from ``WriteOptions``).
    public let password: [UInt8]?
    public var platform: TagPlatform { .type2 }

    public init(transport: any TagTransport, uid: [UInt8]?, password: [UInt8]? = nil) {
        self.transport = transport
        self.uid = uid
        self.password = password
    }

    public func readNDEF() async throws(TagReadError) -> TagReading {
        try await Type2Tag.readNDEF(over: transport, uid: uid, password: password)
    }

    /// Formatted or blank, read-only (CC write access or the static lock bits locking the data
    /// area's first pages), capacity, use, and whether AUTH0 puts the data area behind a password
    /// (chips with configuration pages; nil where they cannot be read or do not exist).
    public func status() async throws(TagWriteError) -> TagStatus {
        var link = CountedLink(transport)
        let session = try await Type2Writer.open(&link, password: password)
        let product = session.product
        let passwordProtected = session.protection.map { $0.protects(session.lastDataPage) }
        let locked = Type2StaticLock.locks(Type2Product.firstUserPage, lockBytes: session.header[10..<12])
        let memory: [UInt8]
        do { memory = try await Type2Writer.readMemory(&link, userMemory: product?.userMemory, fastRead: session.fastRead) } catch .refused(.notFormatted) {
            let originality = await Self.originality(&link, product: product, uid: uid ?? session.uid)
            return TagStatus(platform: .type2, product: product?.name, uid: uid ?? session.uid, formatted: false,
                             access: locked ? .readOnly : .readWrite,
                             capacity: TLVAreaWritePlan.largestMessage(in: product?.ccDataAreaSize ?? 0), used: 0,
                             passwordProtected: passwordProtected, roundTrips: link.roundTrips, originality: originality)
        } catch .link(.nak) where session.protection?.readProtected == true {
            await Type2Writer.wake(&link)
            throw .refused(.passwordRequired)
        }
        let layout: Type2DataLayout
        do { layout = try Type2DataLayout(memory: memory, userMemory: product?.userMemory) } catch { throw .refused(error) }
        let originality = await Self.originality(&link, product: product, uid: uid ?? session.uid)
        return TagStatus(platform: .type2, product: product?.name, uid: uid ?? session.uid, formatted: true,
                         access: layout.writable && !locked ? .readWrite : .readOnly, capacity: layout.capacity,
                         used: layout.used, passwordProtected: passwordProtected, roundTrips: link.roundTrips, originality: originality)
    }

    /// The originality signature, for `nfcscan info`: asked last, since a chip that refuses
    /// READ_SIG is re-activated, which would drop the PWD_AUTH the status's reads may need. A
    /// failure now leaves it unchecked: the status is already whole.
    private static func originality(_ link: inout CountedLink, product: Type2Product?, uid: [UInt8]?) async -> OriginalityEvidence? {
        try? await Type2Tag.readSignature(&link, product: product, uid: uid)
    }

    public func write(_ message: [UInt8], options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        try await Type2Writer.write(message, over: transport, options: options)
    }

    public func makeReadOnly(options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        try await Type2Writer.makeReadOnly(over: transport, options: options)
    }
}
