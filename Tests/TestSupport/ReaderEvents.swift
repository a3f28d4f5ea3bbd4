import NFCReaders

/// No reader event came in time: the test fails saying which one it waited for.
public struct Timeout: Error, CustomStringConvertible {
    public var what: String
    public init(what: String) { self.what = what }
    public var description: String { "no \(what) in time" }
}

/// The next event of a reader, or a ``Timeout`` after `seconds`: a reader that never reports
/// fails its test instead of hanging `swift test`.
public func nextEvent(_ iterator: inout AsyncThrowingStream<ReaderEvent, any Error>.Iterator, within seconds: Double,
                      _ what: String = "event") async throws -> ReaderEvent? {
    let box = IteratorBox(iterator)
    defer { iterator = box.iterator }
    return try await withThrowingTaskGroup(of: ReaderEvent?.self) { group in
        group.addTask { try await box.next() }
        group.addTask {
            try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            throw Timeout(what: what)
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// The iterator moved into the racing child task and back (an inout cannot be captured).
final class IteratorBox: @unchecked Sendable {
    var iterator: AsyncThrowingStream<ReaderEvent, any Error>.Iterator
    init(_ iterator: AsyncThrowingStream<ReaderEvent, any Error>.Iterator) { self.iterator = iterator }
    func next() async throws -> ReaderEvent? { try await iterator.next() }
}
