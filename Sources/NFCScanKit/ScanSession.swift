import NFCReaders
import NFCTags
import Synchronization

/// One object read during a scan.
public struct ScannedObject: Sendable {
    public var readerName: String
    public var backend: ReaderBackend
    public var identifier: [UInt8]
    public var technology: DetectedObject.Technology
    public var reading: TagReading
}

/// Why a scan produced no object.
public enum ScanFailure: Error, Sendable, CustomStringConvertible {
    /// No object arrived before the time was up.
    case timedOut
    /// Every reader failed (the first failure).
    case reader(ReaderError)
    /// An object arrived, but reading it failed.
    case read(TagReadError, readerName: String, identifier: [UInt8])

    public var description: String {
        switch self {
        case .timedOut: "no object arrived in time"
        case .reader(let error): error.description
        case .read(let error, let reader, let identifier):
            "reading the object \(identifier.map { String($0, radix: 16).leftPadded(2) }.joined()) on \(reader) failed: \(error)"
        }
    }
}

/// Waits for objects on several readers at once and reads each one as it arrives.
///
/// Each reader announces an object once while it stays in the field, so an object left on the
/// reader is read once; holding it near again (after it left) reads it again.
public final class ScanSession: Sendable {
    private enum Item: Sendable {
        case event(readerIndex: Int, ReaderEvent)
        case ended(readerIndex: Int, (any Error)?)
        case deadline(Int)
    }

    public let readers: [any Reader]
    private let stream: AsyncStream<Item>
    private let continuation: AsyncStream<Item>.Continuation
    private let state = Mutex<(iterator: IteratorBox<Item>?, live: Set<Int>, firstFailure: ReaderError?, deadlines: Int, watchers: [Task<Void, Never>])>((nil, [], nil, 0, []))

    public init(readers: [any Reader]) {
        self.readers = readers
        (stream, continuation) = AsyncStream.makeStream(of: Item.self)
        let continuation = self.continuation
        var watchers: [Task<Void, Never>] = []
        for (index, reader) in readers.enumerated() {
            let events = reader.events()
            watchers.append(Task {
                do {
                    for try await event in events { continuation.yield(.event(readerIndex: index, event)) }
                    continuation.yield(.ended(readerIndex: index, nil))
                } catch {
                    continuation.yield(.ended(readerIndex: index, error))
                }
            })
        }
        let iterator = stream.makeAsyncIterator()
        state.withLock {
            $0.iterator = IteratorBox(iterator)
            $0.live = Set(readers.indices)
            $0.watchers = watchers
        }
    }

    /// Waits (at most `timeout`; nil: without limit) for the next object, reads it and returns
    /// it. `arrived` is called when an object has arrived, before it is read.
    public func next(timeout: Duration?, arrived: @Sendable () -> Void = {}) async throws(ScanFailure) -> ScannedObject {
        let deadlineID = state.withLock { state -> Int in state.deadlines += 1; return state.deadlines }
        let timer = timeout.map { timeout in
            Task { [continuation] in
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled { continuation.yield(.deadline(deadlineID)) }
            }
        }
        defer { timer?.cancel() }
        // One caller at a time: the iterator is taken out while it is used.
        guard let box = state.withLock({ state -> IteratorBox<Item>? in defer { state.iterator = nil }; return state.iterator }) else {
            throw .timedOut
        }
        defer { state.withLock { $0.iterator = box } }
        while true {
            if state.withLock({ $0.live.isEmpty }) {
                throw .reader(state.withLock { $0.firstFailure } ?? .noReaderFound(searched: "every reader closed"))
            }
            guard let item = await box.iterator.next() else { throw .timedOut }
            switch item {
            case .deadline(let id):
                if id == deadlineID { throw .timedOut }
            case .ended(let index, let error):
                state.withLock { state in
                    state.live.remove(index)
                    if state.firstFailure == nil {
                        state.firstFailure = (error as? ReaderError) ?? error.map { .readerGone(reader: readers[index].name, detail: "\($0)") }
                    }
                }
            case .event(_, .removed):
                continue
            case .event(let index, .arrived(let object)):
                arrived()
                let reader = readers[index]
                do {
                    let reading = try await object.readNDEF()
                    return ScannedObject(readerName: reader.name, backend: reader.backend, identifier: object.identifier,
                                         technology: object.technology, reading: reading)
                } catch {
                    throw .read(error, readerName: reader.name, identifier: object.identifier)
                }
            }
        }
    }

    /// Stops every reader.
    public func close() async {
        let watchers = state.withLock { $0.watchers }
        for reader in readers { await reader.close() }
        for watcher in watchers { watcher.cancel() }
        continuation.finish()
    }
}

/// Holds the merged stream's iterator; ``ScanSession/next(timeout:arrived:)`` takes it out of the
/// session's state while it waits, so no two callers share it.
private final class IteratorBox<Element>: @unchecked Sendable {
    var iterator: AsyncStream<Element>.Iterator
    init(_ iterator: AsyncStream<Element>.Iterator) { self.iterator = iterator }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
