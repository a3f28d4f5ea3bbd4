import NDEF
import NFCReaders
import NFCSim
import NFCTags
import Synchronization

/// A reader in the test's own process holding NFCSim's virtual objects: what the real backends
/// report (arrival with a transport, removal), with the real tag protocol reading the virtual
/// chip through `InProcessTransport`. For rigs that need thousands of objects, where a PN532
/// on a pseudo-terminal would measure the emulator instead of the daemon.
public final class SimulatedReader: Reader, Sendable {
    public let name: String
    public let identifier: String
    public let backend = ReaderBackend.pcsc
    private let stream: AsyncThrowingStream<ReaderEvent, any Error>
    private let continuation: AsyncThrowingStream<ReaderEvent, any Error>.Continuation
    private let state = Mutex<(taken: Bool, status: ReaderStatus)>((false, .searching))

    /// `identifier`: what its provider lists it as, when not its name (libnfc's readers: the
    /// connstring, in a longer name).
    public init(name: String = "Simulated Reader 00 00", identifier: String? = nil) {
        self.name = name
        self.identifier = identifier ?? name
        (stream, continuation) = AsyncThrowingStream.makeStream(of: ReaderEvent.self)
    }

    public var status: ReaderStatus { state.withLock { $0.status } }

    public func events() -> AsyncThrowingStream<ReaderEvent, any Error> {
        let first = state.withLock { state -> Bool in
            defer { state.taken = true }
            return !state.taken
        }
        if first { return stream }
        return AsyncThrowingStream { $0.finish() }
    }

    public func close() async {
        state.withLock { $0.status = .closed }
        continuation.finish()
    }

    /// An NTAG215 holding a URI record comes near (`uid`: its identity, 7 bytes).
    public func present(uri: String, uid: [UInt8]) throws {
        let tag = try VirtualType2Tag(product: .ntag215, uid: uid, message: NDEFMessage(URIRecord(uri: uri).record()))
        continuation.yield(.arrived(DetectedObject(identifier: uid, technology: .iso14443A(atqa: [0x00, 0x44], sak: 0x00, ats: []),
                                                   platform: .type2, transport: InProcessTransport(tag))))
    }

    /// The object with `uid` leaves the field.
    public func remove(uid: [UInt8]) {
        continuation.yield(.removed(identifier: uid))
    }

    /// The reader is unplugged: its events end with the failure a backend reports.
    public func unplug() {
        state.withLock { $0.status = .failed(.readerGone(reader: name, detail: "unplugged")) }
        continuation.finish(throwing: ReaderError.readerGone(reader: name, detail: "unplugged"))
    }
}

/// A backend listing one ``SimulatedReader``.
public struct SimulatedReaderProvider: ReaderProvider {
    public let reader: SimulatedReader
    public var backend: ReaderBackend { reader.backend }

    public init(reader: SimulatedReader = SimulatedReader()) { self.reader = reader }

    public func identifiers() async throws(ReaderError) -> [String] { [reader.name] }
    public func open(_ identifier: String?) async throws(ReaderError) -> any Reader { reader }
    public func recognises(_ identifier: String) -> Bool { identifier == reader.name }
}
