import NDEF

/// Writes, formats and makes read-only Type 5 objects (ISO 15693) over the transport seam.
///
/// - Write: INVENTORY for the UID, the CC and whole data area read, the WRITE SINGLE BLOCKs
///   ``Type5WritePlan`` orders, INVENTORY again before the last one (another UID:
///   ``TagWriteError/differentObject``, the commit is not sent), then the data area read back
///   and compared. Every WRITE and LOCK is addressed to the UID (ISO 15693 addressed mode), so
///   another chip brought in mid-write never acts on one: it stays silent, which reads as the
///   object gone. The option flag is set on WRITE and LOCK when the CC asks for the special
///   frame or the chip is a Texas Instruments one (manufacturer 07), whose Tag-it chips answer
///   writes only that way.
/// - Format (only when asked, only a chip whose block 0 is not a CC): the empty NDEF message at
///   the start of the data area first, then the CC `E1 40 MLEN features`, so a chip taken away
///   mid-format is blank or holds an empty message. Needs the chip's size from GET SYSTEM
///   INFORMATION.
/// - Make read-only: the CC's write access set to 11 (never), read back, then LOCK BLOCK on the
///   CC and data-area blocks where the link passes it (a PC/SC Part 3 reader has no mapping for
///   it: the report says the chip itself is not locked).
public enum Type5Writer {
    /// Writes `message` (encoded NDEF; empty for an empty message), formatting a blank chip first
    /// when `format`.
    @discardableResult
    public static func write(_ message: [UInt8], over transport: some TagTransport, systemInformation: Bool,
                             format: Bool = false) async throws(TagWriteError) -> TagWriteReport {
        var link = CountedLink(transport)
        let uid = try await identify(&link, systemInformation: systemInformation)
        var (memory, cc) = try await open(&link, systemInformation: systemInformation)
        var formatted = false
        if cc == nil {
            guard format else { throw .refused(.notFormatted) }
            try await formatBlank(memory, uid: uid, &link, systemInformation: systemInformation)
            formatted = true
            (memory, cc) = try await open(&link, systemInformation: systemInformation)
        }
        guard let cc else { throw .didNotVerify }
        let option = cc.requiresSpecialFrame || uid.count > 1 && uid[1] == Self.texasInstruments
        do { try await memory.read(through: cc.length + memory.dataAreaSize(cc), multiple: systemInformation && cc.supportsReadMultipleBlocks, &link) } catch { throw .link(error) }
        let plan: Type5WritePlan
        do {
            plan = try Type5WritePlan(memory: memory.bytes, blockSize: memory.blockSize, blockCount: memory.info?.blockCount,
                                      message: message)
        } catch { throw .refused(error) }
        for (index, write) in plan.writes.enumerated() {
            if index == plan.writes.count - 1 { try await checkIdentity(uid, &link, systemInformation: systemInformation) }
            try await send(Type5Command.write(block: UInt8(write.block), write.bytes, option: option, uid: uid), block: write.block, &link)
        }
        let after = try await readBack(&link, systemInformation: systemInformation, count: plan.memory.count)
        guard after.starts(with: plan.memory) else { throw .didNotVerify }
        return TagWriteReport(roundTrips: link.roundTrips, formatted: formatted, changed: formatted || !plan.writes.isEmpty)
    }

    /// Sets the CC's write access to "never", then locks the CC and data-area blocks where the
    /// link passes LOCK BLOCK.
    public static func makeReadOnly(over transport: some TagTransport, systemInformation: Bool) async throws(TagWriteError) -> TagWriteReport {
        var link = CountedLink(transport)
        let uid = try await identify(&link, systemInformation: systemInformation)
        var (memory, found) = try await open(&link, systemInformation: systemInformation)
        guard let cc = found else { throw .refused(.notFormatted) }
        let end = cc.length + memory.dataAreaSize(cc)
        do { try await memory.read(through: end, multiple: false, &link) } catch { throw .link(error) }
        do { _ = try TLVWalker.blocks(in: Array(memory.bytes[cc.length..<end])) } catch { throw .refused(.unreadableLayout(error)) }
        let option = cc.requiresSpecialFrame || uid.count > 1 && uid[1] == Self.texasInstruments
        let changed = cc.write != .denied
        if changed {
            var block0 = Array(memory.bytes.prefix(memory.blockSize))
            block0[1] |= 0x03
            try await checkIdentity(uid, &link, systemInformation: systemInformation)
            try await send(Type5Command.write(block: 0, block0, option: option, uid: uid), block: 0, &link)
        }
        let after = try await readBack(&link, systemInformation: systemInformation, count: 4)
        guard (try? Type5CapabilityContainer(after.prefix(4)))?.write == .denied else { throw .didNotVerify }

        var chipLocked = true
        let lastBlock = min(memory.lastBlock, (end - 1) / memory.blockSize)
        for block in 0...lastBlock {
            let response: [UInt8]
            do { response = try await link.exchange(Type5Command.lock(block: UInt8(block), option: option, uid: uid)) } catch {
                if case .notSupported = error, block == 0 {
                    chipLocked = false
                    break
                }
                throw .link(link.mapped(error))
            }
            // 01 11: already locked.
            guard response.first == 0x00 || response == [0x01, Self.alreadyLocked] else {
                throw .writeRefused(address: block, response: response)
            }
        }
        return TagWriteReport(roundTrips: link.roundTrips, changed: changed || chipLocked, chipLocked: chipLocked)
    }

    static let texasInstruments: UInt8 = 0x07
    /// ISO 15693 error: the block is already locked.
    static let alreadyLocked: UInt8 = 0x11

    /// The chip's memory from block 0 and its CC, or nil for the CC when block 0 holds none (blank).
    static func open(_ link: inout CountedLink, systemInformation: Bool) async throws(TagWriteError) -> (Type5Memory, Type5CapabilityContainer?) {
        var memory: Type5Memory
        do { memory = try await Type5Memory.open(&link, systemInformation: systemInformation) } catch { throw .link(error) }
        do { return (memory, try await memory.capabilityContainer(&link)) } catch .capabilityContainer(.notNDEF) {
            return (memory, nil)
        } catch .capabilityContainer(let error) {
            throw .refused(.capabilityContainer(error))
        } catch { throw .link(error) }
    }

    /// The UID, most significant byte (E0) first: INVENTORY in one slot, or GET SYSTEM
    /// INFORMATION on a link that does not pass INVENTORY.
    static func identify(_ link: inout CountedLink, systemInformation: Bool) async throws(TagWriteError) -> [UInt8] {
        do {
            let response = try await link.exchange(Type5Command.inventoryOneSlot)
            guard response.count == 10, response[0] == 0x00 else {
                throw TagReadError.unexpectedResponse(command: "INVENTORY", expected: 10, received: response.count)
            }
            return Array(response[2...].reversed())
        } catch let error as TransportError {
            guard case .notSupported = error, systemInformation else {
                if case .notSupported = error {
                    throw .refused(.unsupported("checking which object is near: this reader passes neither INVENTORY nor GET SYSTEM INFORMATION"))
                }
                throw .link(link.mapped(error))
            }
            do { return try await Type5Memory.open(&link, systemInformation: true).info?.uid ?? [] } catch { throw .link(error) }
        } catch let error as TagReadError {
            throw .link(error)
        } catch {
            throw .link(.unsupported("\(error)"))
        }
    }

    static func checkIdentity(_ uid: [UInt8], _ link: inout CountedLink, systemInformation: Bool) async throws(TagWriteError) {
        guard try await identify(&link, systemInformation: systemInformation) == uid else { throw .differentObject }
    }

    static func send(_ command: [UInt8], block: Int, _ link: inout CountedLink) async throws(TagWriteError) {
        let response: [UInt8]
        do { response = try await link.send(command) } catch { throw .link(error) }
        guard response.first == 0x00 else { throw .writeRefused(address: block, response: response) }
    }

    /// The first `count` bytes of memory, read afresh.
    static func readBack(_ link: inout CountedLink, systemInformation: Bool, count: Int) async throws(TagWriteError) -> [UInt8] {
        do {
            var memory = try await Type5Memory.open(&link, systemInformation: systemInformation)
            try await memory.read(through: count, multiple: false, &link)
            return memory.bytes
        } catch { throw .link(error) }
    }

    /// Writes the empty message's block(s), then the CC: blank until the CC lands, empty after.
    static func formatBlank(_ memory: Type5Memory, uid: [UInt8], _ link: inout CountedLink, systemInformation: Bool) async throws(TagWriteError) {
        guard let info = memory.info, let blockCount = info.blockCount else {
            throw .refused(.cannotFormat("the chip's memory size is unknown: this reader does not pass GET SYSTEM INFORMATION"))
        }
        let blockSize = memory.blockSize
        var features: UInt8 = 0
        if (try? await link.send(Type5Command.readMultiple(first: 0, count: 2)))?.first == 0x00 { features |= 0x01 }
        let option = uid.count > 1 && uid[1] == Self.texasInstruments
        if option { features |= 0x10 }
        let layout = Type5WritePlan.blankLayout(totalBytes: blockCount * blockSize, blockSize: blockSize, features: features)
        var image = layout.capabilityContainer + layout.dataArea
        image += [UInt8](repeating: 0, count: (blockSize - image.count % blockSize) % blockSize)
        let blocks = image.count / blockSize
        for block in (0..<blocks).reversed() {
            if block == 0 { try await checkIdentity(uid, &link, systemInformation: systemInformation) }
            let bytes = Array(image[(block * blockSize)..<((block + 1) * blockSize)])
            try await send(Type5Command.write(block: UInt8(block), bytes, option: option, uid: uid), block: block, &link)
        }
    }
}
