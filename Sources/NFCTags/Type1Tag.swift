import NDEF

/// Type 1 (Innovision/Broadcom Topaz, "Jewel") commands as the ``TagTransport`` carries them:
/// the short form a PN53x takes in InDataExchange — command code, then ADD and DATA where the
/// command has them. The reader (or a backend that talks to the air directly) adds the zero
/// padding, the UID echo (UID0–3) and CRC_B.
///
/// Responses arrive without CRC. A PN53x drops the address echo of READ, READ8 and RSEG
/// (libnfc's `jewel.h` expects 1, 8 and 128 bytes); a chip on the air sends it. Protocols accept
/// both, telling them apart by length.
public enum Type1Command {
    /// RID: HR0 HR1 UID0–3.
    public static let rid: UInt8 = 0x78
    /// RALL: HR0 HR1 and the static memory (blocks 0–E, 120 bytes).
    public static let rall: UInt8 = 0x00
    /// READ one byte at ADD (block << 3 | byte).
    public static let read: UInt8 = 0x01
    /// READ8: one 8-byte block of dynamic memory.
    public static let read8: UInt8 = 0x02
    /// RSEG: one 128-byte segment of dynamic memory (ADDS = segment << 4).
    public static let rseg: UInt8 = 0x10
    /// WRITE-E: erase and write one byte at ADD (static memory, bytes 0–127). Answer: ADD DATA.
    public static let writeE: UInt8 = 0x53
    /// WRITE-NE: write one byte at ADD without erasing (its bits are ORed in: lock and OTP bytes).
    public static let writeNE: UInt8 = 0x1A
    /// WRITE-E8: erase and write the 8-byte block ADD8 (Topaz 512). Answer: ADD8 and the 8 bytes.
    public static let writeE8: UInt8 = 0x54

    /// Bytes in the static memory RALL returns, and a segment RSEG returns.
    public static let staticMemorySize = 120
    public static let segmentSize = 128
    /// The smallest RALL answer a reader may deliver: HR0 HR1 and blocks 0–C (UID block and the
    /// 96 bytes of static data); blocks D and E (reserved, lock and OTP) are not needed.
    static let minimumRALLResponse = 2 + 104
}

/// Reads the NDEF message of an NFC Forum Type 1 object (Topaz 96 / Topaz 512, Jewel).
///
/// 1. RID: the header ROM bytes (HR0 high nibble 1: a Type 1 tag; 0x11 static memory, 0x12
///    dynamic) and UID0–3.
/// 2. RALL: the static memory — UID (block 0), the capability container (block 1, bytes 8–11,
///    `E1 <version> <TMS> <RWA>`, memory size (TMS + 1) × 8) and the first 92 bytes of the
///    data area (bytes 12–103).
/// 3. Dynamic memory only (Topaz 512, HR0 0x12, TMS > 0x0E): RSEG for each further 128-byte
///    segment the TLVs reach into, only as far as they need.
///
/// The data area runs from byte 12 to the end of memory, skipping blocks D and E (bytes
/// 104–119: reserved, static lock and OTP bytes) and every area a Lock Control or Memory Control
/// TLV reserves (Topaz 512: bytes 120–127), as the Type 1 Tag specification lays it out.
///
/// Round trips: 2 for a Topaz 96, and for a Topaz 512 whose message ends within byte 103; one
/// more per further segment. Reachability: libnfc (PN53x, Jewel modulation) carries these
/// commands; PC/SC Part 3 defines no Type 1 mapping, so the PC/SC backend refuses Type 1.
public enum Type1Tag {
    public static let dataAreaStart = 12
    /// Blocks D and E: reserved, then lock and OTP bytes.
    static let staticReserved = 104..<120

    public static func readNDEF(over transport: some TagTransport, uid: [UInt8]? = nil) async throws(TagReadError) -> TagReading {
        var link = CountedLink(transport)
        let rid = try await link.send([Type1Command.rid])
        guard rid.count == 6 else { throw .unexpectedResponse(command: "RID", expected: 6, received: rid.count) }
        let hr0 = rid[0]
        guard hr0 >> 4 == 0x1 else { throw .unsupported("header ROM HR0 \(Hex.code(hr0)) is not a Type 1 tag's") }

        let rall = try await link.send([Type1Command.rall])
        guard rall.count >= Type1Command.minimumRALLResponse, rall.count <= 2 + Type1Command.staticMemorySize else {
            throw .unexpectedResponse(command: "RALL", expected: 2 + Type1Command.staticMemorySize, received: rall.count)
        }
        var memory = Array(rall.dropFirst(2))
        let dynamic = hr0 & 0x0F != 0x01
        let product = dynamic ? "Topaz 512" : "Topaz 96"
        let tagUID = uid ?? Array(memory[0..<7])
        let cc: Type2CapabilityContainer   // same four fields as Type 2; byte 2 is TMS here
        do { cc = try Type2CapabilityContainer(memory[8..<12]) } catch {
            if case .notNDEF = error { return .blank(platform: .type1, product: product, uid: tagUID, roundTrips: link.roundTrips) }
            throw .capabilityContainer(error)
        }
        guard cc.read == .granted else { throw .readAccessDenied }
        let tms = Int(memory[10])
        // Static chips have 120 bytes whatever TMS says; dynamic memory is reached by RSEG, whose
        // 4-bit segment number addresses at most 2 KiB.
        let memorySize = dynamic ? min((tms + 1) * 8, 16 * Type1Command.segmentSize) : Type1Command.staticMemorySize
        guard memorySize > staticReserved.lowerBound else {
            throw .capabilityContainer(.invalidField("TMS", value: tms, offset: 2))
        }
        if dynamic, transport.capabilities.maxResponseLength < Type1Command.segmentSize {
            throw .unsupported("RSEG needs \(Type1Command.segmentSize)-byte answers; the link carries \(transport.capabilities.maxResponseLength)")
        }

        while true {
            let area: TLVDataArea
            do { area = try TLVDataArea(memory: memory, bounds: dataAreaStart..<memorySize, fixed: [staticReserved]) } catch {
                throw .memory(error)
            }
            switch area.next {
            case .done(let message):
                return TagReading(platform: .type1, product: product, uid: tagUID, capacity: TLVAreaWritePlan.largestMessage(in: area.available),
                                  ndefBytes: message, roundTrips: link.roundTrips)
            case .pastEnd(let needed, let capacity):
                throw .messagePastEndOfMemory(needed: needed, capacity: capacity)
            case .read(let addresses):
                try await read(addresses, into: &memory, &link)
            case .readOn(let address):
                // The TLVs so far end exactly where the memory read ends: the next data byte's segment.
                try await read([address], into: &memory, &link)
            }
        }
    }

    /// The data area of `memory` read in full (`memorySize` bytes): byte 12 on, without blocks D
    /// and E and the areas control TLVs reserve. A walk that does not end inside the memory
    /// leaves the area as the control TLVs found so far make it (the write plan then refuses the
    /// layout).
    static func dataArea(in memory: [UInt8], memorySize: Int) throws(TLVError) -> TLVDataArea {
        let end = max(dataAreaStart, min(memorySize, memory.count))
        return try TLVDataArea(memory: Array(memory.prefix(end)), bounds: dataAreaStart..<end, fixed: [staticReserved])
    }

    /// RSEG for the segments holding `needed` (ascending physical addresses). RALL stops at byte
    /// 120 of segment 0: RSEG 0 reads the rest only when one of its last 8 bytes is data.
    static func read(_ needed: some Sequence<Int>, into memory: inout [UInt8], _ link: inout CountedLink) async throws(TagReadError) {
        let size = Type1Command.segmentSize
        for address in needed {
            while memory.count <= address {
                let number = memory.count / size
                if memory.count % size != 0, address >= (number + 1) * size {
                    memory += [UInt8](repeating: 0, count: (number + 1) * size - memory.count)   // not data
                } else {
                    memory = Array(memory.prefix(number * size)) + (try await segment(number, &link))
                }
            }
        }
    }

    /// RSEG of one 128-byte segment, with or without the ADDS echo.
    static func segment(_ number: Int, _ link: inout CountedLink) async throws(TagReadError) -> [UInt8] {
        guard number < 16 else { throw .unsupported("RSEG segment \(number) (4-bit segment numbers)") }
        let response = try await link.send([Type1Command.rseg, UInt8(number << 4)])
        switch response.count {
        case Type1Command.segmentSize: return response
        case Type1Command.segmentSize + 1 where response[0] == UInt8(number << 4): return Array(response.dropFirst())
        default: throw .unexpectedResponse(command: "RSEG \(number)", expected: Type1Command.segmentSize, received: response.count)
        }
    }
}
