#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A POSIX mutex and condition variable for a thread of its own (``NamedThread``) that sleeps
/// until another thread changes what it guards, or a time passes; timed waits run on the
/// monotonic clock, so a change of the wall clock neither cuts them short nor stretches them.
/// Swift concurrency code never waits on it.
public final class ThreadCondition<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is read and written only with `mutex` held (every method below takes
    // it), and the two pthread objects are allocated once, never moved, and destroyed in deinit.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the value, then wakes every waiter (it may have changed).
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }

    /// Waits until `done` holds for the value, or `timeout` (nil: no limit) has passed; returns
    /// whether it holds.
    @discardableResult
    public func wait(timeout: Duration? = nil, until done: (Value) -> Bool) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard let timeout else {
            while !done(value) { pthread_cond_wait(condition, mutex) }
            return true
        }
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
        deadline.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        while !done(value) {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { return done(value) }
        }
        return true
    }
}
