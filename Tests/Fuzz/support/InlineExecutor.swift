// Runs a fuzz target's async code to its very end on the fuzzer's own thread.
//
// A detached task that signals a semaphore hands its result back before it has finished: its
// frame, and the values it still holds, are freed afterwards on one of Swift's threads. Under
// libFuzzer's leak check, which compares mallocs and frees per input, that race was reported once
// as a leak (tagread, 2026-11-27, not reproducible). Here every job of the task runs on the
// calling thread, so when `run` returns nothing of it is left anywhere.
import Synchronization

final class InlineExecutor: TaskExecutor {
    private let jobs = Mutex<[UnownedJob]>([])

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
    }

    /// `operation`'s result, once the task running it has ended. The code under test never waits
    /// for anything outside it (no actors of their own, no sleeps), so when no job is left the
    /// task is over; one that is not would be a hang, and traps.
    static func run<T: Sendable>(_ operation: @escaping @Sendable () async -> T) -> T {
        let executor = InlineExecutor()
        let result = Mutex<T?>(nil)
        _ = Task(executorPreference: executor) {
            let value = await operation()
            result.withLock { $0 = value }
        }
        while let job = executor.jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            job.runSynchronously(on: executor.asUnownedTaskExecutor())
        }
        guard let value = result.withLock({ $0 }) else { fatalError("the fuzz target's async code waited for something that never came") }
        return value
    }
}
