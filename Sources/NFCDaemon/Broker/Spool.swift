import Foundation
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
        self.nextSeq = max(nextSeq, (ordered.last ?? 0) + 1, 1)
        if ordered.count > self.capacity {
            self.dropped += UInt64(ordered.count - self.capacity)
            self.pending = Array(ordered.suffix(self.capacity))
        }
    }

    /// Takes the next seq for a new event; `evicted` are the oldest events dropped to make room.
    public mutating func add() -> (seq: UInt64, evicted: [UInt64]) {
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

    /// The broker has the event: it leaves the spool. False if it was not there (acknowledged
    /// twice, or dropped meanwhile).
    @discardableResult
    public mutating func acknowledge(_ seq: UInt64) -> Bool {
        guard let index = pending.firstIndex(of: seq) else { return false }
        pending.remove(at: index)
        return true
    }
}

/// The spool on disk, `$XDG_STATE_HOME/nfcscan/spool/` (else `~/.local/state/nfcscan/spool/`):
/// one file per event (`<seq, 20 digits>.json`, the payload as published), and `counters`
/// (next seq, dropped count). Each write goes to a temporary file that is fsynced, renamed into
/// place, and the directory fsynced: once `add` returns, the event survives a crash or power cut.
public final class SpoolDirectory {
    public let path: String
    public private(set) var book: SpoolBook

    /// `$STATE_DIRECTORY/spool` when systemd made the state directory (StateDirectory=nfcscan in
    /// the station drop-in, systemd/station.conf: the one place under a read-only home the service
    /// may write), else under $XDG_STATE_HOME or ~/.local/state.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        // systemd joins several directories with ":"; the unit names one.
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !state.isEmpty {
            return state + "/spool"
        }
        let base = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return base + "/nfcscan/spool"
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Opens (creating) the spool at `path`, reading what an earlier run left.
    public init(path: String, capacity: Int) throws(Failure) {
        self.path = path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw Failure(description: "cannot create the spool \(path): \(error.localizedDescription)")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let seqs = names.compactMap(Self.seq(ofFile:))
        var nextSeq: UInt64 = 1
        var dropped: UInt64 = 0
        if let text = try? String(contentsOfFile: path + "/counters", encoding: .utf8) {
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ")
                guard parts.count == 2, let value = UInt64(parts[1]) else { continue }
                if parts[0] == "next-seq" { nextSeq = value } else if parts[0] == "dropped" { dropped = value }
            }
        }
        book = SpoolBook(capacity: capacity, pending: seqs, dropped: dropped, nextSeq: nextSeq)
        // Events over the capacity (a smaller capacity than last time) leave now.
        for seq in Set(seqs).subtracting(book.pending) { unlink(file(seq)) }
    }

    /// Writes the event `payload(seq)` makes, durably, before it may be published; returns its seq.
    public func add(_ payload: (UInt64) -> String) throws(Failure) -> UInt64 {
        var next = book
        let (seq, evicted) = next.add()
        try writeDurably(Array(payload(seq).utf8), to: file(seq))
        try writeDurably(Array("next-seq \(next.nextSeq)\ndropped \(next.dropped)\n".utf8), to: path + "/counters")
        for old in evicted { unlink(file(old)) }
        book = next
        return seq
    }

    /// The broker acknowledged `seq`: its file goes.
    public func acknowledge(_ seq: UInt64) {
        if book.acknowledge(seq) { unlink(file(seq)) }
    }

    /// The payloads of the events still waiting, oldest first (to publish after a restart).
    public func pendingPayloads() -> [(seq: UInt64, payload: String)] {
        book.pending.compactMap { seq in
            (try? String(contentsOfFile: file(seq), encoding: .utf8)).map { (seq, $0) }
        }
    }

    func file(_ seq: UInt64) -> String {
        let digits = String(seq)
        return path + "/" + String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".json"
    }

    static func seq(ofFile name: String) -> UInt64? {
        guard name.hasSuffix(".json"), name.count == 25 else { return nil }
        return UInt64(name.dropLast(5))
    }

    private func writeDurably(_ bytes: [UInt8], to destination: String) throws(Failure) {
        let temporary = destination + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot write \(temporary): \(String(cString: strerror(errno)))") }
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw Failure(description: "cannot write \(temporary): \(reason)")
            }
            written += n
        }
        guard fsync(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "cannot sync \(temporary): \(reason)")
        }
        close(fd)
        guard rename(temporary, destination) == 0 else {
            throw Failure(description: "cannot rename \(temporary): \(String(cString: strerror(errno)))")
        }
        let directory = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 { fsync(directory); close(directory) }
    }
}
