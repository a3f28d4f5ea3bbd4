/// The data area of Type 1 and Type 2 memory as its TLVs lay it out: the bytes from the data
/// area's start to its end, less the areas that are not data — a chip's fixed reserved blocks and
/// what Lock Control and Memory Control TLVs announce (lock bits, reserved memory). NFC Forum Type 1
/// Tag §2.3 and Type 2 Tag §2.3.1–2.3.2: a reader skips those bytes wherever they fall, between
/// TLVs and inside a TLV's value alike, and a writer never writes them.
///
/// One walk serves both types' readers and writers: it maps the data bytes, in order, to their
/// byte addresses, and walks again each time a control TLV it meets takes bytes out (a control TLV
/// is only known once the bytes before it are walked, and the area it announces changes which
/// bytes follow it).
public struct TLVDataArea: Hashable, Sendable {
    /// No chip announces more areas than this; a walk that finds more gives up (bounding how often
    /// it walks again).
    public static let maximumReservedAreas = 16

    /// Byte addresses of the data area, in order: the bounds less every reserved area.
    public let addresses: [Int]
    /// The areas that are not data (byte addresses): the fixed ones and those control TLVs announce.
    public let reserved: [Range<Int>]
    /// The data bytes read so far: those at `addresses` up to the first one not yet read.
    public let data: [UInt8]
    /// The complete TLVs in ``data``, up to the NDEF Message TLV or the Terminator; offsets and
    /// value ranges index ``data``.
    public let blocks: [TLVBlock]
    /// When ``data`` ends inside a TLV: how many data bytes the walk needs to get past it.
    public let needed: Int?

    /// Walks the memory read so far.
    /// - Parameters:
    ///   - memory: the bytes read, `memory[0]` at byte address `base`, in one stretch.
    ///   - bounds: byte addresses of the whole data area (the capability container's size).
    ///   - fixed: areas inside the bounds that are never data (Type 1's blocks D and E).
    public init(memory: [UInt8], base: Int = 0, bounds: Range<Int>, fixed: [Range<Int>] = []) throws(TLVError) {
        var reserved = fixed
        let readEnd = base + memory.count
        while true {
            let addresses = bounds.filter { address in !reserved.contains { $0.contains(address) } }
            let data = addresses.prefix { $0 < readEnd }.map { memory[$0 - base] }
            var blocks: [TLVBlock]
            var needed: Int?, failure: TLVError?
            do { blocks = try TLVWalker.blocks(in: data) } catch {
                // The TLVs before the one that stops the walk may still reserve the bytes that
                // stopped it (lock bytes read as a TLV tag).
                blocks = (try? TLVWalker.blocks(in: Array(data.prefix(error.offset ?? 0)))) ?? []
                if case .truncated(_, let count) = error { needed = count } else { failure = error }
            }
            var found = reserved
            for block in blocks where block.tag == .lockControl || block.tag == .memoryControl {
                let area = try Self.area(of: block, in: data)
                guard !area.isEmpty, !found.contains(area) else { continue }
                // An area over bytes already walked would move the TLVs under their own feet.
                if addresses[..<block.valueRange.upperBound].contains(where: area.contains) {
                    throw .reservedAreaOverTLVs(byteAddress: area.lowerBound)
                }
                found.append(area)
            }
            guard found.count - fixed.count <= Self.maximumReservedAreas else { throw .tooManyReservedAreas(found.count - fixed.count) }
            if found == reserved {
                if let failure { throw failure }
                (self.addresses, self.reserved, self.data, self.blocks, self.needed) = (addresses, reserved, data, blocks, needed)
                return
            }
            reserved = found
        }
    }

    /// The byte addresses a Lock or Memory Control TLV in `data` takes out: lock bits round up to
    /// whole bytes.
    static func area(of block: TLVBlock, in data: [UInt8]) throws(TLVError) -> Range<Int> {
        let control = try MemoryControl(value: data[block.valueRange])
        let bytes = block.tag == .lockControl ? (control.size + 7) / 8 : control.size
        return control.byteAddress..<(control.byteAddress + bytes)
    }

    /// Bytes the data area holds: its capacity.
    public var capacity: Int { addresses.count }

    /// Bytes an NDEF Message TLV may take, from where a writer puts it to the end: what a scan
    /// reports as the object's room, the same figure a write plan finds (``messageStart(in:)``).
    public var available: Int { max(0, capacity - Self.messageStart(in: blocks)) }

    /// Where the message goes among `blocks` (data-byte offsets): where the NDEF Message TLV is, or
    /// the Terminator, or after the last TLV that is not NULL. Lock and Memory Control TLVs and
    /// anything else before the message stay where they are.
    public static func messageStart(in blocks: [TLVBlock]) -> Int {
        blocks.first { $0.tag == .ndefMessage || $0.tag == .terminator }?.offset
            ?? blocks.last { $0.tag != .null }?.valueRange.upperBound ?? 0
    }

    /// The NDEF Message TLV's value, when the walk reached one.
    public var message: [UInt8]? {
        blocks.first { $0.tag == .ndefMessage }.map { Array(data[$0.valueRange]) }
    }

    /// What a reader does next.
    public enum Next: Hashable, Sendable {
        /// The walk is over: the message (empty when the area holds none).
        case done([UInt8])
        /// Read these byte addresses (ascending), then walk again: a TLV needs them.
        case read([Int])
        /// The TLVs so far end where the read ends: read on from this byte address.
        case readOn(Int)
        /// A TLV claims `needed` data bytes; the data area holds `capacity`.
        case pastEnd(needed: Int, capacity: Int)
    }

    public var next: Next {
        // The walk stops at the message: whatever follows it does not matter.
        if let message { return .done(message) }
        if let needed {
            return needed > capacity ? .pastEnd(needed: needed, capacity: capacity) : .read(Array(addresses[data.count..<needed]))
        }
        if blocks.last?.tag == .terminator || data.count == capacity { return .done([]) }
        return .readOn(addresses[data.count])
    }
}
