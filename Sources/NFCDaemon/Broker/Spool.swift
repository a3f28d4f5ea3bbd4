import FoundationEssentials
import Glibc

/// What the spool holds and decides, without touching a file: which events are waiting for the
/// broker's acknowledgement, in order, the next `seq`, and which events make room when it is full
/// (the oldest: a station that was offline for days sends the newest scans rather than none).
public struct SpoolBook: Equatable, Sendable {
    public let capacity: Int
    /// Seqs of events not yet acknowledged, oldest first.
    public private(set) var pending: [UInt64]
    /// Events dropped to make room, since the station's first start.
    public private(set) var dropped: UInt64
    /// The seq of the next event; never reused, so subscribers see order across restarts.
    public private(set) var nextSeq: UInt64

    public init(capacity: Int, pending: [UInt64] = [], dropped: UInt64 = 0, nextSeq: UInt64 = 1) {
        self.capacity = max(1, capacity)
        let ordered = Array(Set(pending)).sorted()
        self.pending = ordered
        self.dropped = dropped
        // A counter file older than the events (a crash between the two writes) never reuses a seq.
        self.nextSeq = min(max(nextSeq, (ordered.last ?? 0) &+ 1, 1), SpoolCounters.maximumSeq)
        if ordered.count > self.capacity {
            self.dropped += UInt64(ordered.count - self.capacity)
            self.pending = Array(ordered.suffix(self.capacity))
        }
    }

    /// Takes the next seq for a new event; `evicted` are the oldest events dropped to make room.
    /// Nil once every seq below ``SpoolCounters/maximumSeq`` is used (the event is counted as
    /// dropped): never reached by a real station, but a crafted `counters` file must not crash it.
    public mutating func add() -> (seq: UInt64, evicted: [UInt64])? {
        guard nextSeq < SpoolCounters.maximumSeq else {
            dropped &+= 1
            return nil
        }
        let seq = nextSeq
        nextSeq += 1
        pending.append(seq)
        let excess = pending.count - capacity
        guard excess > 0 else { return (seq, []) }
        let evicted = Array(pending.prefix(excess))
        pending.removeFirst(excess)
        dropped += UInt64(excess)
        return (seq, evicted)
    }

    /// Event `seq` could not be kept (the disk is full, the spool unwritable): it counts as
    /// dropped, and its seq stays used, so subscribers see the gap.
    public mutating func lost(_ seq: UInt64) {
        if let index = pending.firstIndex(of: seq) { pending.remove(at: index) }
        dropped &+= 1
    }

    /// The broker has the event: it leaves the spool. False if it was not there (acknowledged
    /// twice, or dropped meanwhile).
    @discardableResult
    public mutating func acknowledge(_ seq: UInt64) -> Bool {
        guard let index = pending.firstIndex(of: seq) else { return false }
        pending.remove(at: index)
        return true
    }
}

/// The spool on disk, `$XDG_STATE_HOME/nfcscan/spool/` (else `~/.local/state/nfcscan/spool/`),
/// reached through a ``PrivateDirectory``: one file per event (`<seq, 20 digits>.json`, the payload
/// as published), and `counters` (``SpoolCounters``: next seq, dropped count).
///
/// The promise (Docs/fleets.md): once ``add(_:)`` returns, the event survives a crash or a power
/// cut; a seq is never used twice; an event that could not be kept counts in `dropped` and leaves
/// its seq unused, a gap subscribers see. So the seq is reserved in `counters` (updated in place:
/// it needs no new space on a full disk) before the event's file is written; the file itself is
/// written beside and renamed into place. What an earlier run (or anyone else) left that is not
/// what nfcscand writes — a `counters` it cannot read, an entry that is a link, too large or not
/// the event its name says — is set aside as `<name>.rejected` and told in ``notices``, never
/// published and never a crash.
public final class SpoolDirectory {
    /// Where a spool lives: a base directory of the person's and ours below it.
    public struct Location: Equatable, Sendable {
        public var base: String
        public var components: [String]
        public var path: String { ([base] + components).joined(separator: "/") }

        public init(base: String, components: [String]) {
            self.base = base
            self.components = components
        }

        /// `path`'s last component is ours, the rest the base (tests, benchmarks, a custom place).
        public init(path: String) {
            let parts = path.split(separator: "/")
            base = (path.hasPrefix("/") ? "/" : "") + parts.dropLast().joined(separator: "/")
            components = parts.last.map { [String($0)] } ?? []
        }
    }

    public let directory: PrivateDirectory
    public var path: String { directory.path }
    public private(set) var book: SpoolBook
    /// What was set aside or could not be written, for the log; ``takeNotices()`` empties it.
    public private(set) var notices: [String] = []
    private var counters: SpoolCounters
    /// `counters` opened for updates in place; nil until it exists as this version writes it.
    private var countersFile: RecordFile?

    /// The largest event kept: an object's records as JSON stay far below it.
    public static let maximumEntryBytes = 1 << 20
    /// Names listed when opening: the capacity's entries, and room for what else lies there.
    static let maximumNames = 200_000

    /// `$STATE_DIRECTORY/spool` when systemd made the state directory (StateDirectory=nfcscan in
    /// the station drop-in, systemd/station.conf: the one place under a read-only home the service
    /// may write), else under $XDG_STATE_HOME or ~/.local/state.
    public static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> Location {
        // systemd joins several directories with ":"; the unit names one.
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !state.isEmpty {
            return Location(base: String(state), components: ["spool"])
        }
        let base = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.local/state"
        return Location(base: base, components: ["nfcscan", "spool"])
    }

    public typealias Failure = PrivateDirectory.Failure

    /// Opens (creating) the spool at `location`, reading what an earlier run left.
    public init(location: Location, capacity: Int) throws(Failure) {
        directory = try PrivateDirectory(base: location.base, components: location.components)
        book = SpoolBook(capacity: capacity)
        var seqs: [UInt64] = []
        for name in try directory.names(maximum: Self.maximumNames) {
            if let seq = Self.seq(ofFile: name) {
                seqs.append(seq)
            } else if name.hasPrefix("."), name.hasSuffix(".tmp") {
                // A temporary file of a write a crash interrupted: never renamed, so never promised.
                directory.remove(name)
            }
        }
        counters = SpoolCounters()
        var rewrite = true
        do throws(Failure) {
            if let bytes = try directory.read("counters", maximumBytes: 4096) {
                switch SpoolCounters.read(bytes) {
                case .counters(let read):
                    counters = read
                    rewrite = false
                case .legacy(let next, let dropped):
                    counters = SpoolCounters(nextSeq: next, dropped: dropped)
                case .invalid(let reason):
                    try setAside("counters", because: reason)
                }
            }
        } catch {
            try setAside("counters", because: error.description)
        }
        book = SpoolBook(capacity: capacity, pending: seqs, dropped: counters.dropped, nextSeq: counters.nextSeq)
        if rewrite {
            counters.nextSeq = book.nextSeq
            counters.dropped = book.dropped
            try writeCountersFile()
        } else {
            countersFile = try directory.openForUpdate("counters")
            try saveCounters()
        }
        // Events over the capacity (a smaller capacity than last time) leave now.
        for seq in Set(seqs).subtracting(book.pending) { directory.remove(Self.name(seq)) }
    }

    /// Empties ``notices``, returning what they held.
    public func takeNotices() -> [String] {
        defer { notices = [] }
        return notices
    }

    /// Writes the event `payload(seq)` makes, durably, before it may be published; returns its
    /// seq. When it cannot be kept it throws, and it counts as dropped with its seq left unused.
    public func add(_ payload: (UInt64) -> String) throws(Failure) -> UInt64 {
        guard let (seq, evicted) = book.add() else {
            try? saveCounters()
            throw Failure(description: "every sequence number up to \(SpoolCounters.maximumSeq) is used")
        }
        do {
            // Reserved first: even if the event's file is lost, its seq is never handed out again.
            try saveCounters()
        } catch {
            // The event's own file, should it be written, reserves its seq as well.
            notices.append("cannot reserve sequence number \(seq): \(error)")
        }
        let bytes = Array(payload(seq).utf8)
        do throws(Failure) {
            guard bytes.count <= Self.maximumEntryBytes else {
                throw Failure(description: "event \(seq) takes \(bytes.count) bytes, more than the \(Self.maximumEntryBytes) a spooled event may")
            }
            try directory.replace(Self.name(seq), with: bytes)
        } catch {
            book.lost(seq)
            try? saveCounters()
            throw error
        }
        for old in evicted { directory.remove(Self.name(old)) }
        try? saveCounters()
        return seq
    }

    /// The broker acknowledged `seq`: its file goes.
    public func acknowledge(_ seq: UInt64) {
        if book.acknowledge(seq) { directory.remove(Self.name(seq)) }
    }

    /// The payloads of the events still waiting, oldest first (to publish after a restart). An
    /// entry that is not what nfcscand wrote is set aside and counted as dropped.
    public func pendingPayloads() -> [(seq: UInt64, payload: String)] {
        var payloads: [(UInt64, String)] = []
        for seq in book.pending {
            let name = Self.name(seq)
            let problem: String
            do {
                if let bytes = try directory.read(name, maximumBytes: Self.maximumEntryBytes) {
                    if let payload = Self.payload(bytes, seq: seq) {
                        payloads.append((seq, payload))
                        continue
                    }
                    problem = "it is not the event its name says"
                } else {
                    problem = "it went away"
                }
            } catch {
                problem = error.description
            }
            book.lost(seq)
            if problem != "it went away" { try? setAside(name, because: problem) }
        }
        try? saveCounters()
        return payloads
    }

    /// The payload in `bytes` when it is an event as ``ScanEvent/json`` writes it, numbered `seq`.
    static func payload(_ bytes: [UInt8], seq: UInt64) -> String? {
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}"),
              let text = String(validating: bytes, as: UTF8.self),
              text.contains("\"seq\":\(seq),") else { return nil }
        return text
    }

    static func name(_ seq: UInt64) -> String {
        let digits = String(seq)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".json"
    }

    static func seq(ofFile name: String) -> UInt64? {
        guard name.hasSuffix(".json"), name.utf8.count == 25, name.utf8.prefix(20).allSatisfy({ (48...57).contains($0) }),
              let seq = UInt64(name.dropLast(5)), seq >= 1, seq < SpoolCounters.maximumSeq else { return nil }
        return seq
    }

    private func setAside(_ name: String, because reason: String) throws(Failure) {
        try directory.setAside(name)
        notices.append("\(directory.path)/\(name) set aside as \(name).rejected: \(reason)")
    }

    /// The book's counters into the next slot of `counters`, in place.
    private func saveCounters() throws(Failure) {
        guard counters.nextSeq != book.nextSeq || counters.dropped != book.dropped else { return }
        var next = counters
        next.generation &+= 1
        next.nextSeq = book.nextSeq
        next.dropped = book.dropped
        guard let countersFile else {
            counters = next
            return try writeCountersFile()
        }
        try countersFile.overwrite(next.slot, at: next.slotIndex * SpoolCounters.slotLength)
        counters = next
    }

    /// A whole new `counters` (both slots), renamed into place, then opened for updates.
    private func writeCountersFile() throws(Failure) {
        counters.generation = max(counters.generation, 1)
        var older = counters
        older.generation = counters.generation &- 1
        let slots = counters.slotIndex == 0 ? counters.slot + older.slot : older.slot + counters.slot
        try directory.replace("counters", with: slots)
        countersFile = nil
        countersFile = try directory.openForUpdate("counters")
    }
}
