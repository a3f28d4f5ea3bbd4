import Foundation
import Glibc
import POSIXEvents
import Synchronization
import SystemPackage
import Testing

/// Waits (briefly sleeping) until `condition` holds or about two seconds passed.
private func eventually(_ condition: () -> Bool) -> Bool {
    for _ in 0..<400 {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}

/// A descriptor with the identity of the file it was opened on: other tests in the process may
/// reuse its number once it is closed, so "still open" means the number still names that file.
private struct Opened: Sendable {
    let descriptor: FileDescriptor
    let device: UInt
    let inode: UInt
    init(_ descriptor: FileDescriptor) {
        self.descriptor = descriptor
        var info = stat()
        fstat(descriptor.rawValue, &info)
        (device, inode) = (UInt(info.st_dev), UInt(info.st_ino))
    }
}

/// Whether the descriptor is still open on the same file.
private func isOpen(_ descriptor: FileDescriptor, as opened: Opened? = nil) -> Bool {
    var info = stat()
    guard fstat(descriptor.rawValue, &info) == 0 else { return false }
    guard let opened else { return true }
    return UInt(info.st_dev) == opened.device && UInt(info.st_ino) == opened.inode
}
private func isOpen(_ opened: Opened) -> Bool { isOpen(opened.descriptor, as: opened) }

/// A value behind a lock that escaping closures can share.
private final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<R>(_ body: (inout sending Value) -> sending R) -> sending R { mutex.withLock(body) }
}

private func makePipe() throws -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
    try FileDescriptor.pipe(options: [.closeOnExec, .nonBlocking])
}

@Suite struct PollLoopTests {
    @Test func aReadableDescriptorCallsItsHandlerOnTheLoopsThread() throws {
        let loop = try PollLoop()
        let pipe = try makePipe()
        defer { try? pipe.writeEnd.close() }
        defer { loop.cancel() }
        let seen = Locked<[UInt8]>([])
        loop.add(pipe.readEnd) { events in
            #expect(events.contains(.readable))
            var buffer = [UInt8](repeating: 0, count: 16)
            let count = read(pipe.readEnd.rawValue, &buffer, buffer.count)
            if count > 0 { seen.withLock { $0 += buffer[0..<count] } }
            return .keepWatching
        }
        loop.start(name: "test-loop")
        _ = try pipe.writeEnd.writeAll([7, 8])
        #expect(eventually { seen.withLock { $0 } == [7, 8] })
    }

    /// Descriptors added and removed from other threads while the loop sleeps are seen at once,
    /// and a removed one's handler is not called again; owned ones are closed on removal.
    @Test func descriptorsComeAndGoFromOtherThreads() async throws {
        let loop = try PollLoop()
        loop.start(name: "test-loop")
        let calls = Locked<[Int: Int]>([:])
        let pipes = try (0..<8).map { _ in try makePipe() }
        let identities = pipes.map { Opened($0.readEnd) }
        defer { for pipe in pipes { try? pipe.writeEnd.close() } }
        defer { loop.cancel() }
        let watches = await withTaskGroup(of: (Int, PollWatch).self) { group in
            for (index, pipe) in pipes.enumerated() {
                group.addTask {
                    let watch = loop.add(pipe.readEnd) { _ in
                        var buffer = [UInt8](repeating: 0, count: 16)
                        _ = read(pipe.readEnd.rawValue, &buffer, buffer.count)
                        calls.withLock { $0[index, default: 0] += 1 }
                        return .keepWatching
                    }
                    return (index, watch)
                }
            }
            var result: [Int: PollWatch] = [:]
            for await (index, watch) in group { result[index] = watch }
            return result
        }
        for pipe in pipes { _ = try pipe.writeEnd.writeAll([1]) }
        #expect(eventually { calls.withLock { $0.count } == pipes.count })
        // Remove the even ones from another thread, then write to every pipe again.
        let evens = (0..<pipes.count).filter { $0 % 2 == 0 }
        await Task.detached { for index in evens { loop.remove(watches[index]!) } }.value
        for index in evens { #expect(eventually { !isOpen(identities[index]) }, "owned: closed once removed") }
        for (index, pipe) in pipes.enumerated() where index % 2 == 1 { _ = try pipe.writeEnd.writeAll([2]) }
        #expect(eventually { calls.withLock { state in (0..<pipes.count).allSatisfy { state[$0] == ($0 % 2 == 0 ? 1 : 2) } } })
        for index in evens { #expect(calls.withLock { $0[index] } == 1, "a removed watch's handler is not called again") }
    }

    /// A hang-up (every write end closed) is reported; the handler ends the watch.
    @Test func aHangUpIsReported() throws {
        let loop = try PollLoop()
        defer { loop.cancel() }
        let pipe = try makePipe()
        let identity = Opened(pipe.readEnd)
        let reported = Locked<PollEvents?>(nil)
        loop.add(pipe.readEnd) { events in
            reported.withLock { $0 = events }
            return events.contains(.hangUp) ? .stopWatching : .keepWatching
        }
        loop.start(name: "test-loop")
        try pipe.writeEnd.close()
        #expect(eventually { reported.withLock { $0 }?.contains(.hangUp) == true })
        #expect(eventually { !isOpen(identity) })
        let turnsAfter = loop.turns
        usleep(100_000)
        #expect(loop.turns - turnsAfter <= 1, "once removed, the hang-up does not keep the loop turning")
    }

    /// Idle, the loop sleeps: no turns at all while nothing happens.
    @Test func anIdleLoopDoesNotTurn() throws {
        let loop = try PollLoop()
        let pipe = try makePipe()
        defer { try? pipe.writeEnd.close() }
        defer { loop.cancel() }
        loop.add(pipe.readEnd) { _ in .keepWatching }
        loop.start(name: "test-loop")
        // The first turn comes at once (the add asked for one), then the loop sleeps.
        #expect(eventually { loop.turns >= 1 })
        usleep(50_000)
        let before = loop.turns
        usleep(300_000)
        #expect(loop.turns == before, "no wake-ups while idle")
        loop.wake()
        #expect(eventually { loop.turns > before })
        let after = loop.turns
        usleep(100_000)
        #expect(loop.turns == after, "one wake is one turn, not a busy loop")
    }

    /// Cancelling while the thread sleeps in poll ends it and closes every owned descriptor
    /// (a borrowed one stays open).
    @Test func cancelEndsTheBlockedThreadAndClosesWhatItOwns() throws {
        let loop = try PollLoop()
        let owned = try makePipe(), borrowed = try makePipe()
        let ownedIdentity = Opened(owned.readEnd), borrowedIdentity = Opened(borrowed.readEnd)
        defer { try? owned.writeEnd.close(); try? borrowed.readEnd.close(); try? borrowed.writeEnd.close() }
        let called = Atomic<Int>(0)
        loop.add(owned.readEnd) { _ in called.add(1, ordering: .relaxed); return .keepWatching }
        loop.add(borrowed.readEnd, ownership: .borrowed) { _ in called.add(1, ordering: .relaxed); return .keepWatching }
        loop.start(name: "test-loop")
        usleep(50_000)
        loop.cancel()
        #expect(eventually { loop.hasEnded })
        #expect(!isOpen(ownedIdentity))
        #expect(isOpen(borrowedIdentity))
        _ = try borrowed.writeEnd.writeAll([1])
        usleep(50_000)
        let count = called.load(ordering: .relaxed)
        #expect(count == 0, "no handler after cancel")
        // Adding to a cancelled loop closes an owned descriptor at once and never calls it.
        let late = try makePipe()
        let lateIdentity = Opened(late.readEnd)
        defer { try? late.writeEnd.close() }
        loop.add(late.readEnd) { _ in called.add(1, ordering: .relaxed); return .keepWatching }
        #expect(!isOpen(lateIdentity))
    }

    /// A loop driven on the caller's thread: a deadline ends a turn; cancel ends the next one.
    @Test func turnsOnTheCallersThreadHonourADeadline() throws {
        let loop = try PollLoop()
        let start = ContinuousClock.now
        #expect(loop.turn(until: start + .milliseconds(60)))
        #expect(ContinuousClock.now - start >= .milliseconds(60))
        let pipe = try makePipe()
        let identity = Opened(pipe.readEnd)
        defer { try? pipe.writeEnd.close() }
        let fired = Atomic<Bool>(false)
        loop.add(pipe.readEnd) { _ in fired.store(true, ordering: .relaxed); return .keepWatching }
        _ = try pipe.writeEnd.writeAll([1])
        #expect(loop.turn(until: nil))
        let didFire = fired.load(ordering: .relaxed)
        #expect(didFire)
        loop.cancel()
        #expect(!loop.turn(until: nil))
        #expect(!isOpen(identity))
    }

    /// A wake from another thread ends a turn that sleeps without a deadline.
    @Test func wakeEndsASleepingTurn() async throws {
        let loop = try PollLoop()
        defer { loop.cancel() }
        let waker = Task.detached {
            try? await Task.sleep(for: .milliseconds(50))
            loop.wake()
        }
        #expect(loop.turn(until: nil))
        await waker.value
    }
}
