// Fuzz target `tlv`: tag memory (the data area of a Type 1, 2 or 5 tag). Walks the TLVs up to the
// first message, decodes every Lock/Memory Control value, and decodes the NDEF message of the first
// NDEF Message TLV; walks the memory as a Type 1/2 data area around the areas its control TLVs
// reserve (TLVDataArea), whole and read in part.
import NDEF

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let memory = fuzzInput(data, size)
    checkDataArea(memory)
    let blocks: [TLVBlock]
    do {
        blocks = try TLVWalker.blocks(in: memory)
    } catch {
        if case .truncated(let offset, let needed) = error, needed <= memory.count || offset >= memory.count {
            violated("\(error): a truncated TLV must need more than the \(memory.count) bytes scanned", memory)
        }
        _ = error.description
        do {
            _ = try TLVWalker.firstNDEFMessage(in: memory)
            violated("blocks(in:) throws \(error) but firstNDEFMessage(in:) does not", memory)
        } catch let again {
            if again != error { violated("blocks(in:) throws \(error), firstNDEFMessage(in:) \(again)", memory) }
        }
        return 0
    }

    var end = 0
    for (index, block) in blocks.enumerated() {
        if block.offset != end { violated("TLV \(index) at \(block.offset), previous ended at \(end)", memory) }
        if block.valueRange.lowerBound <= block.offset || block.valueRange.upperBound > memory.count {
            violated("TLV \(index) value range \(block.valueRange) outside the memory", memory)
        }
        end = block.valueRange.upperBound
        if TLVBlock.Tag(rawValue: memory[block.offset]) != block.tag || block.tag.rawValue != memory[block.offset] {
            violated("TLV \(index) tag does not match its byte", memory)
        }
        if block.tag == .terminator || block.tag == .ndefMessage, index != blocks.count - 1 {
            violated("TLVs after the terminator or the message", memory)
        }
        // The walker reads only the shortest length form, so re-encoding gives back the same bytes.
        let value = Array(memory[block.valueRange])
        guard let encoded = TLVWalker.encode(block.tag, value: value) else { violated("TLV \(index) cannot be re-encoded", memory) }
        if encoded[...] != memory[block.offset..<block.valueRange.upperBound] { violated("TLV \(index) re-encodes differently", memory) }

        switch block.tag {
        case .lockControl, .memoryControl:
            let control: MemoryControl
            do { control = try MemoryControl(value: memory[block.valueRange]) } catch {
                violated("control TLV \(index) value rejected: \(error)", memory)
            }
            // The generic initialiser must read a slice (non-zero start index) like an array.
            if (try? MemoryControl(value: value)) != control { violated("MemoryControl differs for array and slice", memory) }
            if !(1...256).contains(control.size) || control.bytesPerPage < 1 || control.bytesPerPage > 1 << 15
                || control.byteAddress < 0 || control.bytesLockedPerLockBit < 1 {
                violated("control TLV \(index) decodes to \(control)", memory)
            }
        case .null, .terminator:
            if !block.valueRange.isEmpty { violated("NULL/terminator TLV with a value", memory) }
        default:
            break
        }
    }
    if blocks.last?.tag != .terminator && blocks.last?.tag != .ndefMessage && end != memory.count {
        violated("walk stopped before the end without a terminator or a message", memory)
    }

    let message: [UInt8]?
    do { message = try TLVWalker.firstNDEFMessage(in: memory) } catch {
        violated("blocks(in:) succeeds but firstNDEFMessage(in:) throws \(error)", memory)
    }
    let first = blocks.first { $0.tag == .ndefMessage }
    if message != first.map({ Array(memory[$0.valueRange]) }) { violated("firstNDEFMessage is not the first NDEF TLV's value", memory) }
    if let message { checkMessage(message) }
    // Control values that are not 3 bytes long never decode.
    if memory.count != 3, (try? MemoryControl(value: memory)) != nil { violated("MemoryControl accepts \(memory.count) bytes", memory) }
    return 0
}

/// The memory as a data area from byte 0 (as much of it read as its last byte says), and once
/// more with bytes 4–7 fixed as reserved: addresses stay in bounds, outside every reserved area
/// and ascending; the data and TLVs stay within what was read; what to do next is consistent.
func checkDataArea(_ memory: [UInt8]) {
    let readCount = memory.isEmpty ? 0 : min(memory.count, Int(memory[memory.count - 1]) * 4)
    for fixed in [[], [4..<8]] as [[Range<Int>]] {
        for read in [memory, Array(memory.prefix(readCount))] {
            let area: TLVDataArea
            do { area = try TLVDataArea(memory: read, bounds: 0..<memory.count, fixed: fixed) } catch {
                _ = error.description
                continue
            }
            if zip(area.addresses, area.addresses.dropFirst()).contains(where: { $0 >= $1 }) { violated("addresses not ascending", memory) }
            if area.addresses.contains(where: { address in address < 0 || address >= memory.count || area.reserved.contains { $0.contains(address) } }) {
                violated("an address outside the bounds or inside a reserved area", memory)
            }
            if area.data.count > min(area.addresses.count, read.count) { violated("more data than was read", memory) }
            if area.data != area.addresses.prefix(area.data.count).map({ read[$0] }) { violated("data is not the bytes at the addresses", memory) }
            for block in area.blocks where block.valueRange.upperBound > area.data.count { violated("a TLV past the data", memory) }
            switch area.next {
            case .done(let message):
                if message.count > area.data.count { violated("a message longer than the data", memory) }
            case .read(let addresses):
                if addresses.isEmpty || !addresses.allSatisfy({ area.addresses.contains($0) }) { violated("reads \(addresses)", memory) }
            case .readOn(let address):
                if area.addresses[area.data.count] != address { violated("reads on from \(address)", memory) }
            case .pastEnd(let needed, let capacity):
                if needed <= capacity || capacity != area.capacity { violated("past the end: \(needed) of \(capacity)", memory) }
            }
        }
    }
}
