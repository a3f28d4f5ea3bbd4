import Foundation
import Glibc
@testable import NFCDaemon
import Testing

/// A private scratch directory (0700, the test's own) holding the spool's base.
private struct Scratch: ~Copyable {
    let base: String
    init() {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("spool-test-\(UUID().uuidString)").path
        mkdir(base, 0o700)
    }
    deinit { try? FileManager.default.removeItem(atPath: base) }
    var spool: String { base + "/spool" }
    var location: SpoolDirectory.Location { .init(path: spool) }
    func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: spool).sorted() }
}

/// An event as ScanEvent.json writes it (the spool checks that an entry is the event its name says).
private func event(_ seq: UInt64, _ n: Int = 0) -> String { "{\"event_id\":\"e\",\"seq\":\(seq),\"n\":\(n)}" }

@Suite("The spool: at least once, bounded")
struct SpoolTests {
    @Test func bookKeepsOrderDropsOldestAndNeverReusesASeq() throws {
        var book = SpoolBook(capacity: 3)
        let added = (book.add(), book.add(), book.add(), book.add())
        let first = try #require(added.0), second = try #require(added.1), third = try #require(added.2)
        #expect(first.seq == 1 && first.evicted.isEmpty && second.seq == 2 && third.seq == 3)
        let fourth = try #require(added.3)
        #expect(fourth.seq == 4 && fourth.evicted == [1])
        #expect(book.pending == [2, 3, 4] && book.dropped == 1)
        let acknowledged = book.acknowledge(3), twice = book.acknowledge(3), droppedOne = book.acknowledge(1)
        #expect(acknowledged && !twice && !droppedOne)
        #expect(book.pending == [2, 4])
        // An event that could not be kept: dropped, and its seq stays used (a gap).
        let fifth = book.add()
        book.lost(try #require(fifth).seq)
        let sixth = book.add()
        #expect(book.dropped == 2 && sixth?.seq == 6 && book.pending == [2, 4, 6])
        // Counters older than the events on disk (a crash between the writes): seqs go on after the newest.
        let reopened = SpoolBook(capacity: 2, pending: [9, 5, 7], dropped: 1, nextSeq: 3)
        #expect(reopened.pending == [7, 9] && reopened.dropped == 2 && reopened.nextSeq == 10)
        // At the end of the seqs an event is dropped, never a trap.
        var full = SpoolBook(capacity: 2, nextSeq: SpoolCounters.maximumSeq)
        let none = full.add()
        #expect(none == nil && full.dropped == 1)
    }

    @Test func directorySurvivesARestartAndRemovesWhatIsAcknowledged() throws {
        let scratch = Scratch()
        do {
            let spool = try SpoolDirectory(location: scratch.location, capacity: 3)
            for n in 1...4 { _ = try spool.add { event($0, n) } }
            spool.acknowledge(3)
            #expect(spool.book.pending == [2, 4] && spool.book.dropped == 1)
        }
        let again = try SpoolDirectory(location: scratch.location, capacity: 3)
        #expect(again.pendingPayloads().map(\.payload) == [event(2, 2), event(4, 4)])
        #expect(again.book.dropped == 1 && again.book.nextSeq == 5)
        #expect(try again.add { event($0) } == 5)
        #expect(try scratch.files() == ["00000000000000000002.json", "00000000000000000004.json", "00000000000000000005.json", "counters"])
        // A smaller capacity after a restart drops the oldest at once.
        let smaller = try SpoolDirectory(location: scratch.location, capacity: 1)
        #expect(smaller.book.pending == [5] && smaller.book.dropped == 3)
        #expect(try scratch.files() == ["00000000000000000005.json", "counters"])
        #expect(again.takeNotices().isEmpty && smaller.takeNotices().isEmpty)
    }

    @Test func defaultLocationFollowsXDG() {
        #expect(SpoolDirectory.defaultLocation(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]).path == "/s/nfcscan/spool")
        #expect(SpoolDirectory.defaultLocation(environment: ["HOME": "/h"]).path == "/h/.local/state/nfcscan/spool")
        #expect(SpoolDirectory.defaultLocation(environment: ["STATE_DIRECTORY": "/h/.local/state/nfcscan", "XDG_STATE_HOME": "/s"])
                == .init(base: "/h/.local/state/nfcscan", components: ["spool"]))
    }

    /// The issue's attack: links at the temporary names of earlier versions, and at the entry's own
    /// name, pointing at a file of the person's. Nothing is written through them.
    @Test func linksPlantedInTheSpoolAreNeverWrittenThrough() throws {
        let scratch = Scratch()
        let victim = scratch.base + "/victim"
        try "the person's file\n".write(toFile: victim, atomically: false, encoding: .utf8)
        _ = try SpoolDirectory(location: scratch.location, capacity: 4)
        for name in ["00000000000000000001.json.tmp", "counters.tmp", ".00000000000000000001.json.tmp", "00000000000000000002.json"] {
            symlink(victim, scratch.spool + "/" + name)
        }
        let spool = try SpoolDirectory(location: scratch.location, capacity: 4)
        // The link at entry 2's name reads as a pending event: it is set aside, never published.
        #expect(spool.pendingPayloads().isEmpty)
        #expect(spool.takeNotices().contains { $0.contains("00000000000000000002.json set aside") && $0.contains("symbolic link") })
        let seq = try spool.add { event($0) }
        #expect(seq == 3 && spool.book.dropped == 1)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "the person's file\n")
        #expect(try String(contentsOfFile: scratch.spool + "/00000000000000000003.json", encoding: .utf8) == event(3))
        #expect(try scratch.files().contains("00000000000000000002.json.rejected"))
    }

    @Test func aSpoolThatIsALinkOrOpenToOthersIsRefusedAndLeftAsItIs() throws {
        let scratch = Scratch()
        let elsewhere = scratch.base + "/elsewhere"
        mkdir(elsewhere, 0o700)
        symlink(elsewhere, scratch.spool)
        #expect(throws: SpoolDirectory.Failure.self) { try SpoolDirectory(location: scratch.location, capacity: 4) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
        unlink(scratch.spool)
        mkdir(scratch.spool, 0o700)
        chmod(scratch.spool, 0o777)
        do {
            _ = try SpoolDirectory(location: scratch.location, capacity: 4)
            Issue.record("a spool open to everyone was used")
        } catch {
            #expect(error.description.contains("chmod 700"))
        }
        var status = stat()
        stat(scratch.spool, &status)
        #expect(status.st_mode & 0o777 == 0o777)
        #expect(try scratch.files().isEmpty)
    }

    /// The issue's crash loop: counters whose next seq is the largest 64-bit value.
    @Test func hostileCountersAreSetAsideNotACrash() throws {
        let scratch = Scratch()
        do { _ = try SpoolDirectory(location: scratch.location, capacity: 4).add { event($0) } }
        for hostile in ["next-seq 18446744073709551615\ndropped 0\n", "next-seq 18446744073709551614\n", "\u{0}\u{1}garbage", ""] {
            try hostile.write(toFile: scratch.spool + "/counters", atomically: false, encoding: .utf8)
            let spool = try SpoolDirectory(location: scratch.location, capacity: 4)
            #expect(spool.takeNotices().contains { $0.contains("counters set aside") })
            // Seqs go on after the event that is still there.
            #expect(spool.book.nextSeq == 2)
            try FileManager.default.removeItem(atPath: scratch.spool + "/counters.rejected")
        }
        // The format of earlier versions is read and rewritten.
        try "next-seq 40\ndropped 3\n".write(toFile: scratch.spool + "/counters", atomically: false, encoding: .utf8)
        let spool = try SpoolDirectory(location: scratch.location, capacity: 4)
        #expect(spool.book.nextSeq == 40 && spool.book.dropped == 3 && spool.takeNotices().isEmpty)
        #expect(try spool.add { event($0) } == 40)
        let reread = try SpoolDirectory(location: scratch.location, capacity: 4)
        #expect(reread.book.nextSeq == 41 && reread.book.dropped == 3)
    }

    /// An event that cannot be kept counts as dropped and leaves a gap: its seq is never reused,
    /// also after a restart (reserved in counters before the entry is written).
    @Test func anEventThatCannotBeKeptLeavesACountedGap() throws {
        let scratch = Scratch()
        let spool = try SpoolDirectory(location: scratch.location, capacity: 4)
        #expect(try spool.add { event($0) } == 1)
        #expect(throws: SpoolDirectory.Failure.self) {
            try spool.add { _ in String(repeating: "x", count: SpoolDirectory.maximumEntryBytes + 1) }
        }
        #expect(spool.book.dropped == 1 && spool.book.pending == [1])
        #expect(try spool.add { event($0) } == 3)
        let reopened = try SpoolDirectory(location: scratch.location, capacity: 4)
        #expect(reopened.book.nextSeq == 4 && reopened.book.dropped == 1)
    }

    @Test func countersSurviveATornSlot() {
        let older = SpoolCounters(generation: 6, nextSeq: 10, dropped: 1)
        let newer = SpoolCounters(generation: 7, nextSeq: 11, dropped: 2)
        #expect(older.slot.count == SpoolCounters.slotLength && newer.slotIndex == 1)
        #expect(SpoolCounters.read(older.slot + newer.slot) == .counters(newer))
        var torn = newer.slot
        torn[30] = UInt8(ascii: "9")
        #expect(SpoolCounters.read(older.slot + torn) == .counters(older))
        #expect(SpoolCounters.read(torn + torn) == .invalid("neither slot of the counters is whole"))
        let huge = SpoolCounters(generation: 1, nextSeq: UInt64.max, dropped: 0)
        #expect(SpoolCounters.read(huge.slot + older.slot) != .counters(huge))
    }
}

@Suite struct UnlockMarkerTests {
    @Test func theMarkerHoldsThisBootsIdAndOneFromAnotherBootDoesNotCount() throws {
        let scratch = Scratch()
        let marker = try #require(UnlockMarker(runtimeDirectory: scratch.base))
        #expect(!marker.isPresent)
        try marker.record()
        #expect(marker.isPresent)
        try "an-earlier-boot\n".write(toFile: marker.path, atomically: true, encoding: .utf8)
        #expect(!marker.isPresent)
        #expect(UnlockMarker(runtimeDirectory: nil) == nil && UnlockMarker(runtimeDirectory: "") == nil)
    }

    /// The issue's attack: $XDG_RUNTIME_DIR/nfcscan as a link gets nothing written into its target.
    @Test func aLinkedRuntimeDirectoryIsNotWrittenThrough() throws {
        let scratch = Scratch()
        let target = scratch.base + "/target"
        mkdir(target, 0o700)
        symlink(target, scratch.base + "/nfcscan")
        let marker = try #require(UnlockMarker(runtimeDirectory: scratch.base))
        #expect(throws: PrivateDirectory.Failure.self) { try marker.record() }
        #expect(!marker.isPresent)
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
    }
}
