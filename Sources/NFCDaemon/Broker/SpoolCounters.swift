import NDEF
/// The spool's `counters` file: the next sequence number and the dropped count, as two slots of
/// fixed width, written alternately in place (``SpoolDirectory``): an update takes no new space,
/// so it still goes through on a full disk, and a torn write spoils only the slot being written,
/// whose check then fails, so the other slot (one generation older) counts.
///
/// A slot: `v1 <generation> <next-seq> <dropped> <check>\n`, each number 20 decimal digits, the
/// check the FNV-1a hash of what precedes it, 8 hex digits. Pure, so that it can be fuzzed:
/// whatever the file holds gives counters or a reason, never a trap.
public struct SpoolCounters: Equatable, Sendable {
    public var generation: UInt64
    public var nextSeq: UInt64
    public var dropped: UInt64

    /// Sequence numbers stay below 2^53, so every JSON reader (JavaScript's numbers, Home
    /// Assistant's templates) reads them exactly; a file claiming more is not ours.
    public static let maximumSeq: UInt64 = 1 << 53
    public static let slotLength = 75
    public static let fileLength = 2 * slotLength

    public init(generation: UInt64 = 0, nextSeq: UInt64 = 1, dropped: UInt64 = 0) {
        self.generation = generation
        self.nextSeq = nextSeq
        self.dropped = dropped
    }

    /// Which slot this generation is written to.
    public var slotIndex: Int { Int(generation % 2) }

    /// The slot's bytes.
    public var slot: [UInt8] {
        let body = "v1 \(Self.digits(generation)) \(Self.digits(nextSeq)) \(Self.digits(dropped)) "
        return Array((body + Hex.digits(Self.check(Array(body.utf8))) + "\n").utf8)
    }

    /// What a counters file holds.
    public enum Reading: Equatable, Sendable {
        case counters(SpoolCounters)
        /// The format of earlier versions (`next-seq N`, `dropped N` lines), to be rewritten.
        case legacy(nextSeq: UInt64, dropped: UInt64)
        case invalid(String)
    }

    /// The counters of the newer valid slot, or the legacy lines, or why the file is not ours.
    public static func read(_ bytes: [UInt8]) -> Reading {
        if bytes.count == fileLength {
            let slots = [parseSlot(bytes[0..<slotLength]), parseSlot(bytes[slotLength..<fileLength])].compactMap { $0 }
            guard let newest = slots.max(by: { $0.generation < $1.generation }) else {
                return .invalid("neither slot of the counters is whole")
            }
            guard newest.nextSeq >= 1, newest.nextSeq <= maximumSeq else {
                return .invalid("the counters' next sequence number \(newest.nextSeq) is out of range")
            }
            return .counters(newest)
        }
        return legacy(bytes)
    }

    private static func parseSlot(_ slot: ArraySlice<UInt8>) -> SpoolCounters? {
        let bytes = Array(slot)
        guard bytes.count == slotLength, bytes.last == UInt8(ascii: "\n"),
              bytes.starts(with: Array("v1 ".utf8)) else { return nil }
        let body = Array(bytes[0..<66])
        guard body[23] == 32, body[44] == 32, body[65] == 32,
              let generation = number(body[3..<23]), let next = number(body[24..<44]), let dropped = number(body[45..<65]),
              let check = UInt32(String(decoding: bytes[66..<74], as: UTF8.self), radix: 16),
              bytes[66..<74].allSatisfy(isHexDigit), check == Self.check(body) else { return nil }
        return SpoolCounters(generation: generation, nextSeq: next, dropped: dropped)
    }

    /// `next-seq N` and `dropped N` lines, each at most once, nothing else.
    private static func legacy(_ bytes: [UInt8]) -> Reading {
        guard bytes.count <= 256, let text = String(validating: bytes, as: UTF8.self) else {
            return .invalid("the counters are neither of this version's form nor of an earlier one's")
        }
        var next: UInt64?
        var dropped: UInt64?
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = UInt64(parts[1]) else { return .invalid("the counters hold a line \"\(line.prefix(40))\"") }
            switch parts[0] {
            case "next-seq" where next == nil: next = value
            case "dropped" where dropped == nil: dropped = value
            default: return .invalid("the counters hold a line \"\(line.prefix(40))\"")
            }
        }
        guard let next, next >= 1, next <= maximumSeq else { return .invalid("the counters' next sequence number is missing or out of range") }
        return .legacy(nextSeq: next, dropped: dropped ?? 0)
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> UInt64? {
        guard digits.count == 20, digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return UInt64(String(decoding: digits, as: UTF8.self))
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (97...102).contains(byte)
    }

    private static func digits(_ value: UInt64) -> String {
        let text = String(value)
        return String(repeating: "0", count: 20 - text.count) + text
    }

    /// FNV-1a, 32 bits: catches a torn slot, which is all it is for.
    static func check(_ bytes: [UInt8]) -> UInt32 {
        var hash: UInt32 = 0x811c_9dc5
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }
}
