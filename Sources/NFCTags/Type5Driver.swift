import NDEF

/// NFC Forum Type 5 objects (ISO 15693: ICODE SLIX, ST25DV, …) behind ``TagDriver``: writes,
/// formats (when asked) and makes read-only through ``Type5Writer``.
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

    /// Access from the CC; a blank chip's capacity is what formatting would give, when the chip
    /// reports its size.
    public func status() async throws(TagWriteError) -> TagStatus {
        var link = CountedLink(transport)
        var (memory, found) = try await Type5Writer.open(&link, systemInformation: systemInformation)
        let chipUID = uid ?? memory.info?.uid
        guard let cc = found else {
            let total = memory.info?.blockCount.map { $0 * memory.blockSize } ?? 0
            let mlen = total > 0 ? Int(Type5WritePlan.blankLayout(totalBytes: total, blockSize: memory.blockSize, features: 0).capabilityContainer[2]) : 0
            let originality = await originality(&link, uid: chipUID)
            return TagStatus(platform: .type5, product: nil, uid: chipUID, formatted: false, access: .readWrite,
                             capacity: TLVAreaWritePlan.largestMessage(in: mlen * 8), used: 0, roundTrips: link.roundTrips,
                             originality: originality)
        }
        let end = cc.length + memory.dataAreaSize(cc)
        do { try await memory.read(through: end, multiple: systemInformation && cc.supportsReadMultipleBlocks, &link) } catch { throw .link(error) }
        let data = Array(memory.bytes[cc.length..<end])
        let plan = try? TLVAreaWritePlan(data: data, blockSize: 1, message: [])
        let used = (try? TLVWalker.blocks(in: data))?.first { $0.tag == .ndefMessage }?.valueRange.count ?? 0
        let originality = await originality(&link, uid: chipUID)
        return TagStatus(platform: .type5, product: nil, uid: chipUID, formatted: true,
                         access: cc.write == .granted ? .readWrite : .readOnly,
                         capacity: TLVAreaWritePlan.largestMessage(in: plan?.available ?? 0), used: used, roundTrips: link.roundTrips,
                         originality: originality)
    }

    /// The originality signature, for `nfcscan info`; a failure now leaves it unchecked: the
    /// status is already whole.
    private func originality(_ link: inout CountedLink, uid: [UInt8]?) async -> OriginalityEvidence? {
        try? await Type5Tag.readSignature(&link, uid: uid, rawCommands: systemInformation)
    }

    public func write(_ message: [UInt8], options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        try await Type5Writer.write(message, over: transport, systemInformation: systemInformation, format: options.formatIfBlank)
    }

    public func makeReadOnly(options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        try await Type5Writer.makeReadOnly(over: transport, systemInformation: systemInformation)
    }
}
