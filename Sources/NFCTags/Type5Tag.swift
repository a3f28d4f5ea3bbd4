import NDEF

/// ISO/IEC 15693-3 commands as the ``TagTransport`` carries them: request flags, command code,
/// parameters, without SOF/EOF and CRC (the backend adds them). Requests are non-addressed at
/// high data rate (flags `02`). A response starts with its flags byte: `00` and the data, or
/// `01` and an error code.
///
/// The PC/SC backend maps READ SINGLE BLOCK to READ BINARY `FF B0 00 BB 00` on a Part 3 storage
/// card with standard `0B` (the reader answers one block), WRITE SINGLE BLOCK to UPDATE BINARY
/// and INVENTORY to GET DATA, and refuses the others (``TransportError/notSupported(_:)``), so
/// the reader there works from the capability container alone and LOCK BLOCK does not pass.
public enum Type5Command {
    public static let flags: UInt8 = 0x02
    public static let readSingleBlock: UInt8 = 0x20
    public static let readMultipleBlocks: UInt8 = 0x23
    public static let getSystemInformation: UInt8 = 0x2B
    public static let inventory: UInt8 = 0x01
    public static let writeSingleBlock: UInt8 = 0x21
    public static let lockBlock: UInt8 = 0x22
    /// Request flag: the option flag (for WRITE and LOCK, the "special frame" some chips need:
    /// the reader sends an EOF to fetch the answer once the chip has written).
    public static let optionFlag: UInt8 = 0x40
    /// Request flag: the command carries the UID (addressed mode).
    public static let addressedFlag: UInt8 = 0x20

    public static func readSingle(block: UInt8) -> [UInt8] { [flags, readSingleBlock, block] }
    /// Blocks `first` to `first + count - 1` (count 1–256).
    public static func readMultiple(first: UInt8, count: Int) -> [UInt8] { [flags, readMultipleBlocks, first, UInt8(count - 1)] }
    public static let systemInformation: [UInt8] = [flags, getSystemInformation]
    /// INVENTORY in one slot, no mask (flags 26: inventory, one slot, high data rate): the chip in
    /// the field answers `00 DSFID UID` (UID least significant byte first).
    public static let inventoryOneSlot: [UInt8] = [0x26, inventory, 0x00]
    /// WRITE SINGLE BLOCK; addressed to `uid` (most significant byte first) when given, so that
    /// only that chip acts on it.
    public static func write(block: UInt8, _ data: [UInt8], option: Bool, uid: [UInt8]? = nil) -> [UInt8] {
        request(writeSingleBlock, option: option, uid: uid) + [block] + data
    }
    /// LOCK BLOCK, addressed like ``write(block:_:option:uid:)``.
    public static func lock(block: UInt8, option: Bool, uid: [UInt8]? = nil) -> [UInt8] {
        request(lockBlock, option: option, uid: uid) + [block]
    }
    static func request(_ command: UInt8, option: Bool, uid: [UInt8]?) -> [UInt8] {
        [flags | (option ? optionFlag : 0) | (uid == nil ? 0 : addressedFlag), command] + (uid?.reversed() ?? [])
    }
}

/// What GET SYSTEM INFORMATION reported.
public struct Type5SystemInformation: Hashable, Sendable {
    public var uid: [UInt8]
    /// Number of blocks and bytes per block, when the chip reports its memory size.
    public var blockCount: Int?
    public var blockSize: Int?
    public var icReference: UInt8?

    /// Parses the response after its flags byte.
    init?(_ body: ArraySlice<UInt8>) {
        var bytes = body
        guard let infoFlags = bytes.popFirst(), bytes.count >= 8 else { return nil }
        uid = Array(bytes.prefix(8).reversed())    // sent least significant byte first
        bytes = bytes.dropFirst(8)
        if infoFlags & 0x01 != 0 { guard bytes.popFirst() != nil else { return nil } }   // DSFID
        if infoFlags & 0x02 != 0 { guard bytes.popFirst() != nil else { return nil } }   // AFI
        if infoFlags & 0x04 != 0 {
            guard bytes.count >= 2 else { return nil }
            blockCount = Int(bytes[bytes.startIndex]) + 1
            blockSize = Int(bytes[bytes.startIndex + 1] & 0x1F) + 1
            bytes = bytes.dropFirst(2)
        }
        if infoFlags & 0x08 != 0 { icReference = bytes.popFirst() }
    }
}

/// Reads the NDEF message of an NFC Forum Type 5 object (ISO 15693: ICODE SLIX, ST25DV, …).
///
/// 1. GET SYSTEM INFORMATION, where the link passes it (`systemInformation`): block size and
///    count bound the data area.
/// 2. READ SINGLE BLOCK 0 (and 1 when the blocks are too short for the capability container):
///    the CC (``Type5CapabilityContainer``: `E1|E2`, version and access, MLEN, features). The
///    block size is the length of the answer when the chip did not report it.
/// 3. The data area, from the end of the CC, as far as ``TLVWalker`` says: READ MULTIPLE BLOCKS
///    when the CC announces it and the link carries it, else one READ SINGLE BLOCK per block.
///
/// Between 1 and 2, an ICODE SLIX2 or DNA is asked its originality signature (READ SIGNATURE,
/// ``readSignature(_:uid:rawCommands:)``).
///
/// Limits: blocks past 255 (the extended commands of large chips) are not read.
/// Reachability: PC/SC readers that offer ISO 15693 (standard `0B` in the Part 3 ATR) carry the
/// block reads; libnfc cannot: PN53x chips have no ISO 15693 radio.
public enum Type5Tag {
    public static func readNDEF(over transport: some TagTransport, uid: [UInt8]? = nil,
                                systemInformation: Bool = true) async throws(TagReadError) -> TagReading {
        var link = CountedLink(transport)
        var memory = try await Type5Memory.open(&link, systemInformation: systemInformation)
        let originality = try await readSignature(&link, uid: uid ?? memory.info?.uid, rawCommands: systemInformation)
        var reading = try await readMessage(&link, memory: &memory, uid: uid, systemInformation: systemInformation)
        reading.originality = originality
        return reading
    }

    /// Steps 2 and 3, on the memory as opened.
    static func readMessage(_ link: inout CountedLink, memory: inout Type5Memory, uid: [UInt8]?,
                            systemInformation: Bool) async throws(TagReadError) -> TagReading {
        let cc: Type5CapabilityContainer
        do { cc = try await memory.capabilityContainer(&link) } catch .capabilityContainer(.notNDEF) {
            return .blank(platform: .type5, product: nil, uid: uid ?? memory.info?.uid, roundTrips: link.roundTrips)
        }
        guard cc.read == .granted else { throw .readAccessDenied }
        let info = memory.info
        let capacity = memory.dataAreaSize(cc)
        let multiple = systemInformation && cc.supportsReadMultipleBlocks
        let start = cc.length
        let product: String? = info?.uid.first == 0xE0 ? "ISO 15693 (manufacturer \(Hex.code(info!.uid[1])))" : nil

        while true {
            let data = Array(memory.bytes.dropFirst(start).prefix(capacity))
            do {
                let found = try TLVWalker.blocks(in: data)
                if let ndef = found.first(where: { $0.tag == .ndefMessage }) {
                    return TagReading(platform: .type5, product: product, uid: uid ?? info?.uid, capacity: TLVAreaWritePlan.largestMessage(in: capacity - TLVDataArea.messageStart(in: found)),
                                      ndefBytes: Array(data[ndef.valueRange]), roundTrips: link.roundTrips)
                }
                if found.last?.tag == .terminator || data.count >= capacity {
                    return TagReading(platform: .type5, product: product, uid: uid ?? info?.uid, capacity: TLVAreaWritePlan.largestMessage(in: capacity - TLVDataArea.messageStart(in: found)),
                                      ndefBytes: [], roundTrips: link.roundTrips)
                }
                try await memory.read(through: min(start + capacity, start + data.count + (multiple ? 48 : 1)), multiple: multiple, &link)
            } catch let error as TLVError {
                switch error {
                case .truncated(_, let needed):
                    guard needed <= capacity else { throw .messagePastEndOfMemory(needed: needed, capacity: capacity) }
                    try await memory.read(through: start + needed, multiple: multiple, &link)
                default:
                    throw .memory(error)
                }
            } catch let error as TagReadError {
                throw error
            } catch {
                throw .unsupported("\(error)")
            }
        }
    }

    /// The data of a response, or the error it reports.
    static func body(of response: [UInt8], command: String) throws(TagReadError) -> ArraySlice<UInt8>? {
        guard let flags = response.first else { return nil }
        if flags & 0x01 != 0 { throw .iso15693Error(command: command, code: response.count > 1 ? response[1] : 0) }
        return response.dropFirst()
    }

    static func readBlock(_ block: Int, _ link: inout CountedLink) async throws(TagReadError) -> [UInt8] {
        let command = "READ SINGLE BLOCK \(block)"
        let response = try await link.send(Type5Command.readSingle(block: UInt8(block)))
        guard let data = try body(of: response, command: command), !data.isEmpty else {
            throw .unexpectedResponse(command: command, expected: 5, received: response.count)
        }
        return Array(data)
    }
}

/// A Type 5 object's memory as read so far from block 0: what the reader and the writer both
/// start from (GET SYSTEM INFORMATION where the link passes it, block 0 giving the block size
/// when the chip did not, the CC, then as many blocks as asked).
struct Type5Memory {
    var info: Type5SystemInformation?
    let blockSize: Int
    /// The last block the single-byte-address commands reach, bounded by the chip's size.
    let lastBlock: Int
    private(set) var bytes: [UInt8]

    /// GET SYSTEM INFORMATION (when `systemInformation`) and block 0.
    static func open(_ link: inout CountedLink, systemInformation: Bool) async throws(TagReadError) -> Type5Memory {
        var info: Type5SystemInformation?
        if systemInformation {
            let response = try await link.send(Type5Command.systemInformation)
            info = try Type5Tag.body(of: response, command: "GET SYSTEM INFORMATION").flatMap { Type5SystemInformation($0) }
            guard info != nil else { throw .unexpectedResponse(command: "GET SYSTEM INFORMATION", expected: 10, received: response.count) }
        }
        let first = try await Type5Tag.readBlock(0, &link)
        let blockSize = info?.blockSize ?? first.count
        guard (1...32).contains(blockSize), first.count == blockSize else {
            throw .unexpectedResponse(command: "READ SINGLE BLOCK 0", expected: info?.blockSize ?? 4, received: first.count)
        }
        return Type5Memory(info: info, blockSize: blockSize, lastBlock: min(255, (info?.blockCount ?? 256) - 1), bytes: first)
    }

    /// Reads whole blocks until at least `byteCount` bytes are held: READ MULTIPLE BLOCKS when
    /// `multiple` (as many as the link's frame holds), else READ SINGLE BLOCK.
    mutating func read(through byteCount: Int, multiple: Bool, _ link: inout CountedLink) async throws(TagReadError) {
        while bytes.count < byteCount {
            let next = bytes.count / blockSize
            guard next <= lastBlock else {
                throw .unsupported("Type 5 blocks past \(lastBlock) (the extended read commands of large chips)")
            }
            let wantedBlocks = (byteCount - bytes.count + blockSize - 1) / blockSize
            let perFrame = max(1, (link.transport.capabilities.maxResponseLength - 1) / blockSize)
            let count = min(wantedBlocks, perFrame, lastBlock - next + 1, 256)
            if multiple && count > 1 {
                let response = try await link.send(Type5Command.readMultiple(first: UInt8(next), count: count))
                guard let data = try Type5Tag.body(of: response, command: "READ MULTIPLE BLOCKS \(next)"), data.count == count * blockSize else {
                    throw .unexpectedResponse(command: "READ MULTIPLE BLOCKS \(next)", expected: 1 + count * blockSize, received: response.count)
                }
                bytes += data
            } else {
                let data = try await Type5Tag.readBlock(next, &link)
                guard data.count == blockSize else {
                    throw .unexpectedResponse(command: "READ SINGLE BLOCK \(next)", expected: 1 + blockSize, received: data.count + 1)
                }
                bytes += data
            }
        }
    }

    /// The CC: 4 bytes, or 8 when MLEN (byte 2) is 0.
    mutating func capabilityContainer(_ link: inout CountedLink) async throws(TagReadError) -> Type5CapabilityContainer {
        try await read(through: 4, multiple: false, &link)
        if bytes[2] == 0 { try await read(through: 8, multiple: false, &link) }
        do { return try Type5CapabilityContainer(bytes.prefix(bytes[2] == 0 ? 8 : 4)) } catch { throw .capabilityContainer(error) }
    }

    /// The data area's size: MLEN × 8, bounded by the chip's memory when it reports it.
    func dataAreaSize(_ cc: Type5CapabilityContainer) -> Int {
        var capacity = cc.dataAreaSize
        if let count = info?.blockCount { capacity = min(capacity, count * blockSize - cc.length) }
        return max(0, capacity)
    }
}
