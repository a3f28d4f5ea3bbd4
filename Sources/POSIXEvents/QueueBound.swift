import Dispatch

/// A value that may be used only on one serial queue, as swift-nio's `NIOLoopBound` may only on its
/// event loop: the wrapper travels anywhere (it is Sendable), but reaching the value off that
/// queue traps, in every build (`dispatchPrecondition`), naming the queue. The C libraries' handles
/// that are not thread-safe (a libnfc device and context) are held this way, so their confinement
/// is checked, not only described.
public struct QueueBound<Value>: @unchecked Sendable {
    // @unchecked: the value is only reachable through `value`, which checks the caller is on
    // `queue` (serial: one user at a time), or through `valueForConcurrentUse`, which the C
    // library's own documentation allows (see its callers).
    public let queue: DispatchQueue
    private let stored: Value

    public init(_ value: Value, queue: DispatchQueue) {
        self.stored = value
        self.queue = queue
    }

    /// The value; traps unless the caller runs on `queue`.
    public var value: Value {
        dispatchPrecondition(condition: .onQueue(queue))
        return stored
    }

    /// The value, off its queue: only for the calls the library allows beside a running one (a
    /// libnfc abort), and for a deinit that nothing else can run alongside. Each use says why.
    public var valueForConcurrentUse: Value { stored }
}
