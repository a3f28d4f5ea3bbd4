import Synchronization

/// The life every ``Reader`` shares: searching until closed (or failed), one events stream whose
/// watch task is started on the first ``events(watch:onTermination:)`` and ended by ``close()``
/// or by the stream's end. Each backend adds only its watch (libnfc's poll, pcscd's status
/// changes) and what its close must interrupt.
final class ReaderRun: Sendable {
    private let state = Mutex<(status: ReaderStatus, started: Bool, task: Task<Void, Never>?)>((.searching, false, nil))

    var status: ReaderStatus { state.withLock { $0.status } }

    /// Sets the status unless the reader was closed (a watch ending after close stays closed).
    func set(_ status: ReaderStatus) {
        state.withLock { if $0.status != .closed { $0.status = status } }
    }

    /// The reader's events: `watch` runs in a task of its own, once; a second call, or a call on a
    /// closed or failed reader, gets a finished stream. The stream's end cancels the task and then
    /// calls `onTermination` (what a backend must also interrupt).
    func events(watch: @escaping @Sendable (AsyncThrowingStream<ReaderEvent, any Error>.Continuation) async -> Void,
                onTermination: @escaping @Sendable () -> Void = {}) -> AsyncThrowingStream<ReaderEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ReaderEvent.self, throwing: (any Error).self)
        let start = state.withLock { state -> Bool in
            guard !state.started, state.status == .searching else { return false }
            state.started = true
            return true
        }
        guard start else { continuation.finish(); return stream }
        let task = Task { await watch(continuation) }
        state.withLock { $0.task = task }
        continuation.onTermination = { _ in task.cancel(); onTermination() }
        return stream
    }

    /// Marks the reader closed (a failure stays the status) so no watch starts any more, and gives
    /// the running watch's task for the backend to cancel and await.
    func close() -> Task<Void, Never>? {
        state.withLock { state -> Task<Void, Never>? in
            if case .failed = state.status {} else { state.status = .closed }
            state.started = true
            return state.task
        }
    }
}
