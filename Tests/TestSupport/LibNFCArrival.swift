import LibNFC
import NFCReaders
import Testing

/// A libnfc reader opened on a connstring (an ``EmulatedPN532``'s) and the first object it
/// announced: how every test of an object through the real libnfc begins, written once. The
/// reader's events stay here, alive, for the test to wait on a removal: ending them ends the
/// reader's watch, and with it the object's link.
public struct LibNFCArrival {
    public let reader: LibNFCReader
    public let object: DetectedObject
    public var events: AsyncThrowingStream<ReaderEvent, any Error>.Iterator

    /// Opens the reader and waits up to `seconds` for an object. Nil, with an issue recorded and
    /// the reader closed, when something else or nothing comes.
    public static func first(at connstring: String, context: LibNFCContext? = nil, within seconds: Double = 10) async throws -> LibNFCArrival? {
        let reader = try await LibNFCReader.open(connstring, context: try context ?? LibNFCContext())
        var events = reader.events().makeAsyncIterator()
        let event: ReaderEvent?
        do { event = try await nextEvent(&events, within: seconds, "arrival") } catch {
            await reader.close()
            throw error
        }
        guard case .arrived(let object)? = event else {
            Issue.record("expected an arrival, got \(String(describing: event))")
            await reader.close()
            return nil
        }
        return LibNFCArrival(reader: reader, object: object, events: events)
    }

    public func close() async { await reader.close() }
}
