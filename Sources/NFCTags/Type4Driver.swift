import NDEF

/// NFC Forum Type 4 objects (ISO-DEP with the NDEF application) behind ``TagDriver``: writes
/// through ``Type4Writer``. Formatting a blank ISO-DEP card and making one read-only are not
/// standard (creating the NDEF application and changing the CC file's write access take each
/// card family's own commands and keys), so both are refused before anything is sent.
public struct Type4Driver: TagDriver {
    public let transport: any TagTransport
    public let uid: [UInt8]?
    public var platform: TagPlatform { .type4 }

    public init(transport: any TagTransport, uid: [UInt8]?) {
        self.transport = transport
        self.uid = uid
    }

    public func readNDEF() async throws(TagReadError) -> TagReading {
        try await Type4Tag.readNDEF(over: transport, uid: uid)
    }

    /// Access from the CC's NDEF File Control TLV; capacity from the file size it gives.
    public func status() async throws(TagWriteError) -> TagStatus {
        var link = CountedLink(transport)
        let cc: Type4CapabilityContainer, version1: Bool
        do { (cc, version1) = try await Type4Tag.open(&link) } catch .noNDEFApplication {
            let originality = await Type4Tag.readSignature(&link, uid: uid, cc: nil)
            return TagStatus(platform: .type4, product: nil, uid: uid, formatted: false, access: .readWrite, capacity: 0,
                             used: 0, roundTrips: link.roundTrips, originality: originality)
        } catch { throw .link(error) }
        var used = 0
        if cc.read == .granted {
            do {
                try await Type4Tag.select(file: cc.ndefFileID, version1: version1, &link, "SELECT NDEF file")
                used = try await Type4Writer.readCurrent(&link, cc: cc)?.count ?? 0
            } catch { throw .link(error) }
        }
        // Read_Sig after the NDEF file's read, with the NDEF application selected, as a read sends it.
        let originality = await Type4Tag.readSignature(&link, uid: uid, cc: cc)
        return TagStatus(platform: .type4, product: nil, uid: uid, formatted: true,
                         access: cc.write == .granted ? .readWrite : .readOnly,
                         capacity: max(0, cc.maxNDEFSize - cc.lengthFieldSize), used: used, roundTrips: link.roundTrips,
                         originality: originality)
    }

    /// A write to be locked after it is refused before anything is sent: no Type 4 object can be.
    public func write(_ message: [UInt8], options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        if options.lockAfter { throw .refused(.unsupported(Self.noStandardLock)) }
        do { return try await Type4Writer.write(message, over: transport) } catch .refused(.notFormatted) where options.formatIfBlank {
            throw .refused(.cannotFormat(Self.noStandardFormat))
        }
    }

    public func makeReadOnly(options: WriteOptions) async throws(TagWriteError) -> TagWriteReport {
        throw .refused(.unsupported(Self.noStandardLock))
    }

    public static let noStandardLock = "making a Type 4 object read-only: the standard has no command that changes the NDEF file's write access; each card family (DESFire, NTAG 424, …) needs its own commands and keys"

    public static let noStandardFormat = "a Type 4 object gets its NDEF application from its card family's own commands and keys (DESFire, NTAG 424, …); the standard has no command to create it"
}
