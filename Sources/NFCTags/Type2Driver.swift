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
    /// area's first pages), capacity, use, whether AUTH0 puts the data area behind a password
    /// (chips with configuration pages; nil where they cannot be read or do not exist), and the
    /// originality signature, asked last: a refused READ_SIG idles the chip, which would end the
    /// PWD_AUTH the memory read needed.
    public func status() async throws(TagWriteError) -> TagStatus {
        var link = CountedLink(transport)
        var (status, product) = try await memoryStatus(&link)
        do { status.originality = try await Type2Tag.readSignature(&link, product: product, uid: status.uid) } catch { throw .link(error) }
        status.roundTrips = link.roundTrips
        return status
    }

    private func memoryStatus(_ link: inout CountedLink) async throws(TagWriteError) -> (TagStatus, Type2Product?) {
        let session = try await Type2Writer.open(&link, password: password)
        let product = session.product
        let passwordProtected = session.protection.map { $0.protects(session.lastDataPage) }
        let locked = Type2StaticLock.locks(Type2Product.firstUserPage, lockBytes: session.header[10..<12])
        let memory: [UInt8]
        do { memory = try await Type2Writer.readMemory(&link, userMemory: product?.userMemory, fastRead: session.fastRead) } catch .refused(.notFormatted) {
            return (TagStatus(platform: .type2, product: product?.name, uid: uid ?? session.uid, formatted: false,
                              access: locked ? .readOnly : .readWrite,
                              capacity: TLVAreaWritePlan.largestMessage(in: product?.ccDataAreaSize ?? 0), used: 0,
                              passwordProtected: passwordProtected, roundTrips: link.roundTrips), product)
        } catch .link(.nak) where session.protection?.readProtected == true {
            await Type2Writer.wake(&link)
            throw .refused(.passwordRequired)
        }
        let layout: Type2DataLayout
        do { layout = try Type2DataLayout(memory: memory, userMemory: product?.userMemory) } catch { throw .refused(error) }
        return (TagStatus(platform: .type2, product: product?.name, uid: uid ?? session.uid, formatted: true,
                          access: layout.writable && !locked ? .readWrite : .readOnly, capacity: layout.capacity,
                          used: layout.used, passwordProtected: passwordProtected, roundTrips: link.roundTrips), product)
    }

    public func write(_ message: [UInt8], options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        try await Type2Writer.write(message, over: transport, options: options)
    }

    public func makeReadOnly(options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        try await Type2Writer.makeReadOnly(over: transport, options: options)
    }
}
