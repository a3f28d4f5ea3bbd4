import NDEF

/// One Type 1 write command as it crosses the seam (the PN53x short form).
public enum Type1Write: Hashable, Sendable {
    /// WRITE-E of one byte of static memory (address below 128).
    case byte(address: Int, value: UInt8)
    /// WRITE-NE: `value`'s bits ORed into the byte (lock bytes).
    case orByte(address: Int, value: UInt8)
    /// WRITE-E8 of one 8-byte block of dynamic memory.
    case block(Int, [UInt8])

    public var frame: [UInt8] {
        switch self {
        case .byte(let address, let value): [Type1Command.writeE, UInt8(address), value]
        case .orByte(let address, let value): [Type1Command.writeNE, UInt8(address), value]
        case .block(let number, let bytes): [Type1Command.writeE8, UInt8(number)] + bytes
        }
    }

    /// What the chip answers (the PN53x drops the address echo; a chip on the air sends it).
    func accepts(_ response: [UInt8], in memory: [UInt8]) -> Bool {
        switch self {
        case .byte(let address, let value):
            return response == [value] || response == [UInt8(address), value]
        case .orByte(let address, _):
            return response == [memory[address]] || response == [UInt8(address), memory[address]]
        case .block(let number, let bytes):
            return response == bytes || response == [UInt8(number)] + bytes
        }
    }

    mutating func apply(to memory: inout [UInt8]) {
        switch self {
        case .byte(let address, let value): memory[address] = value
        case .orByte(let address, let value): memory[address] |= value
        case .block(let number, let bytes): memory.replaceSubrange((number * 8)..<(number * 8 + 8), with: bytes)
        }
    }
}

/// The commands that replace the NDEF message of a Type 1 object (Topaz 96, Topaz 512) in the
/// order of NFC Forum Type 1 Tag §6.4 (NDEF write): the CC's NDEF magic number (NMN, byte 8)
/// set to 00 first, then the TLV area changed in ``TLVAreaWritePlan``'s tear-safe order over the
/// data area's bytes (byte 12 on, without blocks D and E and what Lock/Memory Control TLVs
/// reserve: ``Type1Tag``'s own walk), then NMN E1 again. An object taken away in between reads as
/// "not formatted" (NMN 00), which a reader refuses, or — for a reader that ignores NMN — the old,
/// an empty or the new message. A Topaz 96 takes WRITE-E of each byte; a Topaz 512 WRITE-E8 of
/// each data block, consecutive writes to one block in one command (NMN always by WRITE-E).
///
/// Refused before anything is sent: no NMN E1 (not formatted), a CC that does not decode, write
/// access not 0 (read-only), a lock bit set over a byte the message needs, a message that does
/// not fit.
public struct Type1WritePlan: Hashable, Sendable {
    public let commands: [Type1Write]
    /// The memory once every command is done.
    public let memory: [UInt8]
    /// Bytes the NDEF TLV may use.
    public let available: Int
    /// The data area's addresses (for reading back).
    public let addresses: [Int]

    public static let nmnAddress = 8

    /// - Parameters:
    ///   - memory: the whole memory as read (120 bytes of a Topaz 96; a Topaz 512's 512).
    ///   - dynamic: HR0's low nibble is not 1 (WRITE-E8 reaches the dynamic blocks).
    public init(memory: [UInt8], dynamic: Bool, message: [UInt8]) throws(WriteRefusal) {
        guard memory.count >= Type1Command.staticMemorySize else {
            throw .memoryIncomplete(needed: Type1Command.staticMemorySize, available: memory.count)
        }
        let cc = try Self.capabilityContainer(memory)
        guard cc.write == .granted else { throw .readOnly }
        let memorySize = dynamic ? min((Int(memory[10]) + 1) * 8, memory.count) : Type1Command.staticMemorySize
        guard memorySize > Type1Tag.staticReserved.lowerBound else {
            throw .capabilityContainer(.invalidField("TMS", value: Int(memory[10]), offset: 2))
        }
        let addresses: [Int]
        do { addresses = try Type1Tag.dataArea(in: memory, memorySize: memorySize).addresses } catch {
            throw .unreadableLayout(error)
        }
        let tlv = try TLVAreaWritePlan(data: addresses.map { memory[$0] }, blockSize: 1, message: message)
        available = tlv.available
        self.addresses = addresses
        var image = memory
        var commands: [Type1Write] = []
        if !tlv.writes.isEmpty {
            let locked = Self.lockedBytes(memory, memorySize: memorySize)
            if tlv.writes.contains(where: { locked.contains(addresses[$0.block]) }) { throw .readOnly }
            commands.append(.byte(address: Self.nmnAddress, value: 0x00))
            image[Self.nmnAddress] = 0x00
            for write in tlv.writes {
                let address = addresses[write.block], number = address / 8
                image[address] = write.bytes[0]
                // WRITE-E8 reaches a dynamic chip's data blocks (1–C and from 10 on); a Topaz 96
                // has WRITE-E alone. Merging consecutive writes to one block only drops
                // intermediate states, each of which the TLV plan keeps readable.
                if !dynamic || !Self.takesWriteE8(block: number) {
                    commands.append(.byte(address: address, value: write.bytes[0]))
                } else if case .block(let last, _)? = commands.last, last == number {
                    commands[commands.count - 1] = .block(number, Array(image[(number * 8)..<(number * 8 + 8)]))
                } else {
                    commands.append(.block(number, Array(image[(number * 8)..<(number * 8 + 8)])))
                }
            }
            commands.append(.byte(address: Self.nmnAddress, value: Type2CapabilityContainer.magic))
            image[Self.nmnAddress] = Type2CapabilityContainer.magic
        }
        self.commands = commands
        self.memory = image
    }

    /// Blocks a Topaz 512 writes with WRITE-E8: the static data blocks 1–C and dynamic memory.
    static func takesWriteE8(block: Int) -> Bool { (1...0x0C).contains(block) || block >= 0x10 }

    /// The CC (bytes 8–11, the Type 2 layout with TMS as byte 2) as a writer takes it.
    static func capabilityContainer(_ memory: [UInt8]) throws(WriteRefusal) -> Type2CapabilityContainer {
        do { return try Type2CapabilityContainer(memory[8..<12]) } catch {
            if case .notNDEF = error { throw .notFormatted }
            throw .capabilityContainer(error)
        }
    }

    /// Bytes the lock bits protect: LOCK0/LOCK1 (bytes 112–113) for blocks 0–E, and on dynamic
    /// memory the Lock Control TLVs' bits (each for its bytes-per-bit, from byte 128 on).
    static func lockedBytes(_ memory: [UInt8], memorySize: Int) -> Set<Int> {
        var locked = Set<Int>()
        let staticLocks = Int(memory[112]) | Int(memory[113]) << 8
        for block in 0..<15 where staticLocks & (1 << block) != 0 { locked.formUnion((block * 8)..<(block * 8 + 8)) }
        for (area, perBit) in lockAreas(memory, memorySize: memorySize) {
            for bit in 0..<(area.count * 8) where memory[area.lowerBound + bit / 8] & (1 << (bit % 8)) != 0 {
                let start = Type1Command.segmentSize + bit * perBit
                locked.formUnion(start..<(start + perBit))
            }
        }
        return locked
    }

    /// The areas Lock Control TLVs name (their lock bytes, bits counted) and the bytes each bit locks.
    static func lockAreas(_ memory: [UInt8], memorySize: Int) -> [(Range<Int>, Int)] {
        let start = Type1Tag.dataAreaStart
        let data = Array(memory[start..<Type1Tag.staticReserved.lowerBound])
        let blocks: [TLVBlock]
        do { blocks = try TLVWalker.blocks(in: data) } catch .truncated(let offset, _) {
            blocks = (try? TLVWalker.blocks(in: Array(data.prefix(offset)))) ?? []
        } catch { return [] }
        return blocks.filter { $0.tag == .lockControl }.compactMap { block in
            guard let control = try? MemoryControl(value: data[block.valueRange]) else { return nil }
            let bytes = (control.size + 7) / 8
            guard control.byteAddress + bytes <= memorySize else { return nil }
            return (control.byteAddress..<(control.byteAddress + bytes), control.bytesLockedPerLockBit)
        }
    }
}
