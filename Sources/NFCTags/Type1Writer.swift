import NDEF

/// Writes an NDEF message to a Type 1 object (Topaz 96 / Topaz 512) over the transport seam:
/// RID (header ROM and UID0–3), RALL and, on dynamic memory, RSEG of every segment; the commands
/// ``Type1WritePlan`` orders; RID again before the last one (NMN E1, the commit: another UID is
/// ``TagWriteError/differentObject`` and it is not sent); then the memory read back and compared.
public enum Type1Writer {
    @discardableResult
    public static func write(_ message: [UInt8], over transport: some TagTransport) async throws(TagWriteError) -> TagWriteReport {
        var link = CountedLink(transport)
        let (uid, dynamic, memory) = try await readMemory(&link)
        let plan: Type1WritePlan
        do { plan = try Type1WritePlan(memory: memory, dynamic: dynamic, message: message) } catch { throw .refused(error) }
        guard !plan.commands.isEmpty else { return TagWriteReport(roundTrips: link.roundTrips, changed: false) }
        try await send(plan.commands, uid: uid, memory: memory, &link)
        let (_, _, written) = try await readMemory(&link)
        let compared = [Int](8..<12) + plan.addresses
        guard written.count == plan.memory.count, compared.allSatisfy({ written[$0] == plan.memory[$0] }) else { throw .didNotVerify }
        return TagWriteReport(roundTrips: link.roundTrips)
    }

    /// Makes the object read-only as Type 1 Tag §6.5 does: CC write access 0F (WRITE-E), then
    /// the static lock bytes (and, on dynamic memory, the Lock Control TLVs' lock bytes) set with
    /// WRITE-NE. Irreversible. Only over a layout that decodes.
    @discardableResult
    public static func makeReadOnly(over transport: some TagTransport) async throws(TagWriteError) -> TagWriteReport {
        var link = CountedLink(transport)
        let (uid, dynamic, memory) = try await readMemory(&link)
        let cc: Type2CapabilityContainer
        do { cc = try Type1WritePlan.capabilityContainer(memory) } catch { throw .refused(error) }
        let memorySize = dynamic ? min((Int(memory[10]) + 1) * 8, memory.count) : Type1Command.staticMemorySize
        do { _ = try Type1Tag.dataArea(in: memory, memorySize: memorySize) } catch { throw .link(.memory(error)) }
        var commands: [Type1Write] = cc.write == .granted ? [.byte(address: 11, value: 0x0F)] : []
        for address in [112, 113] where memory[address] != 0xFF { commands.append(.orByte(address: address, value: 0xFF)) }
        if dynamic {
            for (area, _) in Type1WritePlan.lockAreas(memory, memorySize: memorySize) {
                for address in area where memory[address] != 0xFF && address < Type1Command.segmentSize {
                    commands.append(.orByte(address: address, value: 0xFF))
                }
            }
        }
        guard !commands.isEmpty else { return TagWriteReport(roundTrips: link.roundTrips, changed: false) }
        try await send(commands, uid: uid, memory: memory, &link)
        let (_, _, written) = try await readMemory(&link)
        guard written[11] == 0x0F else { throw .didNotVerify }
        return TagWriteReport(roundTrips: link.roundTrips)
    }

    /// The commands in order, each answer checked; RID before the last.
    static func send(_ commands: [Type1Write], uid: [UInt8], memory: [UInt8], _ link: inout CountedLink) async throws(TagWriteError) {
        var image = memory
        for (index, var command) in commands.enumerated() {
            if index == commands.count - 1 {
                let now: [UInt8]
                do { now = try await rid(&link).uid } catch { throw .link(error) }
                guard now == uid else { throw .differentObject }
            }
            let response: [UInt8]
            do { response = try await link.send(command.frame) } catch { throw .link(error) }
            command.apply(to: &image)
            guard command.accepts(response, in: image) else {
                let address = switch command { case .byte(let a, _), .orByte(let a, _): a; case .block(let n, _): n * 8 }
                throw .writeRefused(address: address, response: response)
            }
        }
    }

    static func rid(_ link: inout CountedLink) async throws(TagReadError) -> (hr0: UInt8, uid: [UInt8]) {
        let rid = try await link.send([Type1Command.rid])
        guard rid.count == 6 else { throw .unexpectedResponse(command: "RID", expected: 6, received: rid.count) }
        guard rid[0] >> 4 == 0x1 else { throw .unsupported("header ROM HR0 \(Hex.code(rid[0])) is not a Type 1 tag's") }
        return (rid[0], Array(rid[2..<6]))
    }

    /// RID, RALL, and on dynamic memory (HR0 low nibble not 1) RSEG of each segment TMS covers.
    static func readMemory(_ link: inout CountedLink) async throws(TagWriteError) -> (uid: [UInt8], dynamic: Bool, memory: [UInt8]) {
        do throws(TagReadError) {
            let (hr0, uid) = try await rid(&link)
            let rall = try await link.send([Type1Command.rall])
            guard rall.count == 2 + Type1Command.staticMemorySize else {
                throw TagReadError.unexpectedResponse(command: "RALL", expected: 2 + Type1Command.staticMemorySize, received: rall.count)
            }
            var memory = Array(rall.dropFirst(2))
            let dynamic = hr0 & 0x0F != 0x01
            guard dynamic else { return (uid, false, memory) }
            guard link.transport.capabilities.maxResponseLength >= Type1Command.segmentSize else {
                throw TagReadError.unsupported("RSEG needs \(Type1Command.segmentSize)-byte answers; the link carries \(link.transport.capabilities.maxResponseLength)")
            }
            let size = min((Int(memory[10]) + 1) * 8, 16 * Type1Command.segmentSize)
            memory = []
            for segment in 0..<((size + Type1Command.segmentSize - 1) / Type1Command.segmentSize) {
                memory += try await Type1Tag.segment(segment, &link)
            }
            return (uid, true, memory)
        } catch { throw .link(error) }
    }
}
