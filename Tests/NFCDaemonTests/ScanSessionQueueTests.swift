@testable import NFCDaemon
import Testing

/// One session at a time, the rest in order, a bounded queue.
@Suite struct ScanSessionQueueTests {
    @Test func oneActiveTheRestWaitInOrderUpToTheBound() {
        var queue = ScanSessionQueue()
        let first = queue.start(owner: ":1.1", options: .init(), alertMessage: "Hold the item near the reader.")
        #expect(first?.activated == true)
        var waiting: [Int] = []
        for index in 0..<ScanSessionQueue.maximumWaiting {
            let started = queue.start(owner: ":1.\(index + 2)", options: .init(), alertMessage: "Hold the item near the reader.")
            #expect(started?.activated == false)
            if let started { waiting.append(started.session.id) }
        }
        #expect(queue.start(owner: ":1.99", options: .init(), alertMessage: "Hold the item near the reader.") == nil)
        // Ending the active one activates the first that waited; a waiting one can leave.
        let ended = queue.end(first!.session.id)
        #expect(ended?.next?.id == waiting[0])
        #expect(queue.end(waiting[3])?.next == nil)
        #expect(queue.waiting.map(\.id) == Array(waiting[1...2]) + Array(waiting[4...]))
        #expect(queue.sessions(of: ":1.3").map(\.id) == [waiting[1]])
    }

    /// The one-app-holds-everyone: one connection has at most two sessions, so every
    /// other app still finds a place in the queue.
    @Test func oneConnectionCannotFillTheQueue() {
        var queue = ScanSessionQueue()
        let started = (0..<ScanSessionQueue.maximumWaiting + 1).map { _ in
            queue.start(owner: ":1.5", options: .init(), alertMessage: "Hold the item near the reader.")
        }
        #expect(started.compactMap { $0 }.count == ScanSessionQueue.maximumPerOwner)
        #expect(queue.refusal(for: ":1.5") == .ownerFull && queue.refusal(for: ":1.6") == nil)
        #expect(queue.start(owner: ":1.6", options: .init(), alertMessage: "Hold the item near the reader.")?.activated == false)
    }
}
