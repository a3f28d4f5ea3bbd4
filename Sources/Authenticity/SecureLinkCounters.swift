import NDEF
import Synchronization

/// Where the last read counter of each chip whose link verified is kept, to refuse a replay (the
/// same link read a second time): NFCScanKit's file under $XDG_STATE_HOME in the product, one per
/// user (nfcscan's and nfcscand's are each their user's).
public protocol SecureLinkCounters: Sendable {
    /// Records that the chip `uid` was read at `counter` and says whether that is a replay,
    /// deciding with ``SecureLinkCounterTable/remember(uid:counter:)`` atomically.
    func remember(uid: [UInt8], counter: Int) -> Bool
}

/// The last counter seen for each chip, the most recently seen last, at most ``capacity`` chips
/// (the one seen longest ago is forgotten first); its text form is the counter file's. Pure.
public struct SecureLinkCounterTable: Hashable, Sendable {
    public static let capacity = 4096
    /// Longest file read back: twice what a full table writes (a 7-byte UID's line is 14 + 1 +
    /// up to 8 + 1 bytes).
    public static let maximumFileBytes = capacity * 48

    /// Each chip's last counter, and when it was seen (a sequence number: larger is later).
    private var counters: [[UInt8]: (counter: Int, seen: Int)] = [:]
    private var clock = 0

    public init() {}

    public static func == (a: Self, b: Self) -> Bool { a.entries.elementsEqual(b.entries) { $0 == $1 } }
    public func hash(into hasher: inout Hasher) { for entry in entries { hasher.combine(entry.uid); hasher.combine(entry.counter) } }

    /// The chips and their counters, the one seen longest ago first.
    var entries: [(uid: [UInt8], counter: Int)] {
        counters.sorted { $0.value.seen < $1.value.seen }.map { ($0.key, $0.value.counter) }
    }

    /// The decision: a counter not above the last one seen for `uid` is a replay, and the last
    /// stays; otherwise the new counter is the last. Returns whether it was a replay.
    public mutating func remember(uid: [UInt8], counter: Int) -> Bool {
        if let last = counters[uid], last.counter >= counter { return true }
        clock += 1
        counters[uid] = (counter, clock)
        if counters.count > Self.capacity, let oldest = counters.min(by: { $0.value.seen < $1.value.seen }) {
            counters[oldest.key] = nil
        }
        return false
    }

    /// The last counter seen for `uid`.
    public func last(for uid: [UInt8]) -> Int? {
        counters[uid]?.counter
    }

    /// Lines `UID COUNTER` (hex UID, decimal counter); lines that are not are skipped, so a
    /// damaged file loses only its damaged lines.
    public init(text: [UInt8]) {
        for line in text.prefix(Self.maximumFileBytes).split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "))
            guard fields.count == 2, fields[0].count <= 32, fields[1].count <= 8,
                  case .success(let uid) = Hex.decode(String(decoding: fields[0], as: UTF8.self)), !uid.isEmpty,
                  let counter = Int(String(decoding: fields[1], as: UTF8.self)), (0..<(1 << 24)).contains(counter) else { continue }
            _ = remember(uid: uid, counter: counter)
        }
    }

    public var text: [UInt8] {
        Array(entries.map { "\(Hex.string($0.uid)) \($0.counter)\n" }.joined().utf8)
    }
}

/// Counters kept in memory only, for as long as the process runs.
public final class SecureLinkCounterMemory: SecureLinkCounters {
    private let table = Mutex(SecureLinkCounterTable())

    public init() {}

    public func remember(uid: [UInt8], counter: Int) -> Bool {
        table.withLock { $0.remember(uid: uid, counter: counter) }
    }
}
