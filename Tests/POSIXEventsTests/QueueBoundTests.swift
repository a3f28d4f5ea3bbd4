import Dispatch
import POSIXEvents
import Testing

/// A handle confined to a queue is reachable there, and reaching it anywhere else ends the process.
@Suite struct QueueBoundTests {
    @Test func theValueIsReachableOnItsQueue() {
        let queue = DispatchQueue(label: "bound")
        let bound = QueueBound(42, queue: queue)
        #expect(queue.sync { bound.value } == 42)
    }

    @Test func reachingItOffItsQueueTraps() async {
        await #expect(processExitsWith: .failure) {
            let bound = QueueBound(42, queue: DispatchQueue(label: "bound"))
            _ = bound.value
        }
    }
}
