import NDEF

/// Writes, formats and makes read-only MIFARE Classic NDEF objects over the transport seam; the
/// decisions are ``MifareClassicWritePlan`` and ``MifareClassicFormatPlan``.
///
/// - **Keys.** NDEF sectors are written with the public key A D3F7D3F7D3F7: the access bits
///   AN1304 gives them (`7F 07 88`) let key A or B read and write the data blocks, and only key
///   B change the trailer (as nfcpy, libnfc's examples and Android's NDEF stack do). Making
///   read-only changes the trailer, so it needs key B: the delivery key FF…FF that nfcscan's
///   format and NXP's reference stack leave; another key B is refused as `keysRefused`.
/// - **Reads first.** The MAD, then each NDEF sector's data blocks and trailer; a sector that
///   does not open with the public key, or whose access bits or GPB forbid writing, is refused
///   before anything is written.
/// - **The object written is the object read.** AUTHENTICATE carries the UID's last 4 bytes,
///   but a PC/SC reader's GENERAL AUTHENTICATE uses whatever card it selected and another card
///   may share the public keys, so before the commit the writer authenticates sector 0 with the
///   MAD key and reads block 0: a UID other than the one activation gave is `differentObject`
///   and the commit is not sent.
/// - **Verified.** The blocks written are read back and compared.
public enum MifareClassicWriter {
    /// What the reads before a write found.
    struct Survey {
        var area: MifareClassicNDEFArea
        var data: [UInt8]
        var trailers: [Int: [UInt8]]
    }

    /// Writes `message` (encoded NDEF; empty for an empty message), formatting a blank object
    /// first when `options` asks.
    @discardableResult
    public static func write(_ message: [UInt8], uid: [UInt8], size: MifareClassicSize?, options: WriteOptions,
                             over transport: some TagTransport) async throws(TagWriteError) -> TagWriteReport {
        var link = CountedLink(transport)
        var formatted = false
        let survey: Survey
        do {
            survey = try await self.survey(uid: uid, size: size, &link)
        } catch .refused(.notFormatted) where options.formatIfBlank {
            try await format(uid: uid, size: size, fitting: message, &link)
            formatted = true
            survey = try await self.survey(uid: uid, size: size, &link)
        }
        let plan: MifareClassicWritePlan
        do { plan = try MifareClassicWritePlan(area: survey.area, data: survey.data, trailers: survey.trailers, message: message) } catch {
            throw .refused(error)
        }
        let geometry = survey.area.geometry
        // A lock after the write changes the trailers with key B: every sector must open with it
        // before the first WRITE of the message (a format leaves the delivery key B it opens with).
        if options.lockAfter { try await checkKeyB(survey, uid, &link) }
        var authenticated: Int?
        for (index, write) in plan.writes.enumerated() {
            let sector = geometry.sector(ofBlock: write.block)
            if index == plan.writes.count - 1 {
                try await checkUID(uid, geometry, &link)
                authenticated = nil
            }
            if authenticated != sector {
                try await reauthenticate(sector: sector, geometry, uid, &link)
                authenticated = sector
            }
            try await send(write, &link)
        }
        // Read back what was written.
        let blocks = survey.area.blocks
        authenticated = nil
        for block in Set(plan.writes.map(\.block)).sorted() {
            let sector = geometry.sector(ofBlock: block)
            if authenticated != sector {
                try await reauthenticate(sector: sector, geometry, uid, &link)
                authenticated = sector
            }
            let index = blocks.firstIndex(of: block)! * MifareClassicSize.blockSize
            guard try await read(block: block, &link) == Array(plan.dataArea[index..<(index + MifareClassicSize.blockSize)]) else {
                throw .didNotVerify
            }
        }
        return TagWriteReport(roundTrips: link.roundTrips, formatted: formatted, changed: formatted || !plan.writes.isEmpty)
    }

    /// Makes every NDEF sector read-only (access bits 07 8F 0F, GPB 43), each authenticated with
    /// key B; sectors already read-only are left. The layout must walk first.
    public static func makeReadOnly(uid: [UInt8], size: MifareClassicSize?, over transport: some TagTransport) async throws(TagWriteError) -> TagWriteReport {
        var link = CountedLink(transport)
        let survey = try await self.survey(uid: uid, size: size, &link)
        do { _ = try TLVWalker.blocks(in: survey.data) } catch { throw .refused(.unreadableLayout(error)) }
        let geometry = survey.area.geometry
        let sectors = try await checkKeyB(survey, uid, &link)
        guard !sectors.isEmpty else { return TagWriteReport(roundTrips: link.roundTrips, changed: false) }
        try await checkUID(uid, geometry, &link)
        for sector in sectors {
            try await authenticate(sector: sector, key: MifareClassicTrailer.defaultKeyB, keyB: true, geometry, uid, &link)
            try await send(MifareClassicBlockWrite(block: geometry.trailerBlock(ofSector: sector), bytes: MifareClassicTrailer.readOnly()), &link)
        }
        for sector in sectors {
            try await authenticate(sector: sector, key: MifareClassicNDEF.ndefKeyA, geometry, uid, &link)
            guard MifareClassicTrailer.isReadOnly(try await read(block: geometry.trailerBlock(ofSector: sector), &link)) else {
                throw .didNotVerify
            }
        }
        return TagWriteReport(roundTrips: link.roundTrips)
    }

    /// The NDEF sectors making read-only changes (those not read-only yet), once each has opened
    /// with key B: one that does not is `keysRefused` before any sector is locked (or, for a
    /// write to be locked after it, before the write).
    @discardableResult
    static func checkKeyB(_ survey: Survey, _ uid: [UInt8], _ link: inout CountedLink) async throws(TagWriteError) -> [Int] {
        let sectors = survey.area.sectors.filter { !MifareClassicTrailer.isReadOnly(survey.trailers[$0] ?? []) }
        for sector in sectors {
            try await authenticate(sector: sector, key: MifareClassicTrailer.defaultKeyB, keyB: true, survey.area.geometry, uid, &link)
        }
        return sectors
    }

    /// What the object is: formatted (and writable with the public keys) or blank.
    public static func status(uid: [UInt8], size: MifareClassicSize?, over transport: some TagTransport) async throws(TagWriteError) -> TagStatus {
        var link = CountedLink(transport)
        let survey: Survey
        do {
            survey = try await self.survey(uid: uid, size: size, &link)
        } catch .refused(.notFormatted) {
            // Blank when sector 0 opens with the transport key.
            guard let size else { throw .refused(.notFormatted) }
            guard try await tryAuthenticate(sector: 0, key: MifareClassicTrailer.transportKey, size, uid, &link) else {
                throw .refused(.notFormatted)
            }
            return TagStatus(platform: .mifareClassic, product: size.name, uid: uid, formatted: false, access: .readWrite,
                             capacity: MifareClassicFormatPlan.capacity(of: size), used: 0, roundTrips: link.roundTrips)
        }
        let plan = try? MifareClassicWritePlan(area: survey.area, data: survey.data, trailers: survey.trailers, message: [])
        let used = (try? TLVWalker.blocks(in: survey.data))?.first { $0.tag == .ndefMessage }?.valueRange.count ?? 0
        let available = plan?.available
            ?? (try? TLVAreaWritePlan(data: survey.data, blockSize: MifareClassicSize.blockSize, message: []))?.available ?? 0
        return TagStatus(platform: .mifareClassic, product: size?.name, uid: uid, formatted: true, access: plan == nil ? .readOnly : .readWrite,
                         capacity: TLVAreaWritePlan.largestMessage(in: available), used: used, roundTrips: link.roundTrips)
    }

    /// The MAD, then every NDEF sector's data blocks and trailer.
    static func survey(uid: [UInt8], size: MifareClassicSize?, _ link: inout CountedLink) async throws(TagWriteError) -> Survey {
        let area: MifareClassicNDEFArea
        do { area = try await MifareClassicTag.readDirectory(uid: uid, size: size, &link) } catch {
            if case .mifareClassic(.authenticationFailed) = error { try await reselect(&link) }
            if case .mifareClassic(.readRefused) = error { try await reselect(&link) }
            switch error {
            case .mifareClassic(.authenticationFailed(sector: 0, _)), .mifareClassic(.noDirectory), .noNDEFApplication:
                throw .refused(.notFormatted)
            default: throw .link(error)
            }
        }
        var data: [UInt8] = [], trailers: [Int: [UInt8]] = [:]
        for sector in area.sectors {
            try await authenticate(sector: sector, key: MifareClassicNDEF.ndefKeyA, area.geometry, uid, &link)
            let first = area.geometry.firstBlock(ofSector: sector), trailer = area.geometry.trailerBlock(ofSector: sector)
            for block in first..<trailer { data += try await read(block: block, &link) }
            trailers[sector] = try await read(block: trailer, &link)
        }
        return Survey(area: area, data: data, trailers: trailers)
    }

    /// Formats a blank object (sector 0 did not open with the MAD key) for `message`, which must
    /// fit once formatted (checked first: a message too large leaves the object blank).
    static func format(uid: [UInt8], size: MifareClassicSize?, fitting message: [UInt8], _ link: inout CountedLink) async throws(TagWriteError) {
        guard let size else { throw .refused(.cannotFormat("the reader did not tell which MIFARE Classic this is")) }
        let capacity = MifareClassicNDEFArea(geometry: size, sectors: MifareClassicNDEF.ndefSectors(formatting: size)).capacity
        let needed = TLVWalker.encode(.ndefMessage, value: message)?.count ?? message.count + 4
        guard needed <= capacity else { throw .refused(.doesNotFit(needed: needed, available: capacity)) }
        // Which sectors open with the transport key A and let it write everything, and which a
        // format interrupted earlier already finished.
        var done: Set<Int> = []
        for sector in 0..<size.sectorCount {
            let trailerBlock = size.trailerBlock(ofSector: sector)
            if try await tryAuthenticate(sector: sector, key: MifareClassicTrailer.transportKey, size, uid, &link) {
                let access = MifareClassicAccess(trailer: try await read(block: trailerBlock, &link))
                let trailer = access.trailerWrites(withKeyB: false)
                guard trailer == (true, true, true), (0..<3).allSatisfy({ access.mayWrite(group: $0, withKeyB: false) }) else {
                    throw .refused(.keysRefused(sector: sector))
                }
                continue
            }
            let target = MifareClassicFormatPlan.target(sector: sector, size: size)
            if sector == 0 {
                // Sector 0 opens with the MAD key but holds no NDEF directory: other applications.
                if try await tryAuthenticate(sector: 0, key: MifareClassicNDEF.madKeyA, size, uid, &link) {
                    throw .refused(.cannotFormat("it holds other applications (a MIFARE application directory without NDEF)"))
                }
                throw .refused(.keysRefused(sector: 0))
            }
            guard try await tryAuthenticate(sector: sector, key: target.keyA, size, uid, &link),
                  Array(try await read(block: trailerBlock, &link)[6..<9]) == target.accessBits else {
                throw .refused(.keysRefused(sector: sector))
            }
            done.insert(sector)
        }
        let plan = MifareClassicFormatPlan(size: size, done: done)
        for step in plan.steps {
            try await authenticate(sector: step.sector, key: MifareClassicTrailer.transportKey, size, uid, &link)
            for write in step.writes {
                if step.sector == 0, write.block == 3 {
                    // The commit: sector 0 is authenticated, block 0 reads with the transport key.
                    guard uidMatches(try await read(block: 0, &link), uid) else { throw .differentObject }
                }
                try await send(write, &link)
            }
        }
    }

    /// Authenticates sector 0 with the MAD key and compares block 0 with the UID.
    static func checkUID(_ uid: [UInt8], _ geometry: MifareClassicSize, _ link: inout CountedLink) async throws(TagWriteError) {
        do {
            try await MifareClassicTag.authenticate(sector: 0, key: MifareClassicNDEF.madKeyA, keyName: "MAD key A", geometry, uid, &link)
        } catch .mifareClassic(.authenticationFailed) {
            throw .differentObject
        } catch { throw .link(error) }
        let block0: [UInt8]
        do { block0 = try await MifareClassicTag.read(block: 0, &link) } catch .mifareClassic(.readRefused) {
            throw .differentObject
        } catch { throw .link(error) }
        guard uidMatches(block0, uid) else { throw .differentObject }
    }

    /// Block 0 starts with the UID (a 7-byte UID's last 4 bytes on some emulations).
    static func uidMatches(_ block0: [UInt8], _ uid: [UInt8]) -> Bool {
        Array(block0.prefix(uid.count)) == uid || Array(block0.prefix(4)) == Array(uid.suffix(4))
    }

    static func authenticate(sector: Int, key: [UInt8], keyB: Bool = false, _ geometry: MifareClassicSize, _ uid: [UInt8],
                             _ link: inout CountedLink) async throws(TagWriteError) {
        guard try await tryAuthenticate(sector: sector, key: key, keyB: keyB, geometry, uid, &link) else {
            throw .refused(.keysRefused(sector: sector))
        }
    }

    /// A sector that opened with the NDEF key during the reads and no longer does: another
    /// object answers.
    static func reauthenticate(sector: Int, _ geometry: MifareClassicSize, _ uid: [UInt8], _ link: inout CountedLink) async throws(TagWriteError) {
        guard try await tryAuthenticate(sector: sector, key: MifareClassicNDEF.ndefKeyA, geometry, uid, &link) else { throw .differentObject }
    }

    /// False when the chip refuses the key (it is then idle until reactivated).
    static func tryAuthenticate(sector: Int, key: [UInt8], keyB: Bool = false, _ geometry: MifareClassicSize, _ uid: [UInt8],
                                _ link: inout CountedLink) async throws(TagWriteError) -> Bool {
        let frame = MifareClassicCommand.authenticate(block: UInt8(geometry.trailerBlock(ofSector: sector)), key: key, keyB: keyB, uid: uid)
        let response: [UInt8]
        do { response = try await link.send(frame) } catch { throw .link(error) }
        if response.count == 1 {
            try await reselect(&link)
            return false
        }
        guard response.isEmpty else {
            throw .link(.unexpectedResponse(command: "AUTHENTICATE sector \(sector)", expected: 0, received: response.count))
        }
        return true
    }

    static func read(block: Int, _ link: inout CountedLink) async throws(TagWriteError) -> [UInt8] {
        do { return try await MifareClassicTag.read(block: block, &link) } catch {
            if case .mifareClassic = error { try await reselect(&link) }
            throw .link(error)
        }
    }

    /// A refused AUTHENTICATE or READ sends the chip to IDLE: it is selected again at once, so
    /// the next step (or the next operation on the object) finds it answering.
    static func reselect(_ link: inout CountedLink) async throws(TagWriteError) {
        do { try await link.reactivate() } catch { throw .link(error) }
    }

    static func send(_ write: MifareClassicBlockWrite, _ link: inout CountedLink) async throws(TagWriteError) {
        let response: [UInt8]
        do { response = try await link.send(write.frame) } catch { throw .link(error) }
        guard response.isEmpty else { throw .writeRefused(address: write.block, response: response) }
    }
}
