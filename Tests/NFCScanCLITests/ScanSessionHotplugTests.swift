import NFCReaders
import NFCScanKit
import NFCTags
import Synchronization
import Testing
import TestSupport

/// ScanSession's side of hotplug (issue 23), with a backend whose reader the test plugs in and
/// unplugs: a reader that appears is opened once however many changes follow, one unplugged is
/// dropped, and it is opened again when it returns.
@Suite struct ScanSessionHotplugTests {
    /// One reader that comes and goes; each open makes a new one, named unlike its identifier
    /// as libnfc's readers are ("device name (connstring)"). The test says when readers changed.
    final class ComingAndGoing: ReaderProvider {
        let backend = ReaderBackend.pcsc   // SimulatedReader's
        let plugged = Mutex(false)
        let opened = Mutex<[SimulatedReader]>([])
        let listed = Atomic(0)
        let changes: AsyncStream<Void>
        let changed: AsyncStream<Void>.Continuation

        init() { (changes, changed) = AsyncStream.makeStream(of: Void.self) }

        func identifiers() async throws(ReaderError) -> [String] {
            listed.add(1, ordering: .relaxed)
            return plugged.withLock { $0 } ? ["sim_uart:/dev/ttySIM0"] : []
        }
        func open(_ identifier: String?) async throws(ReaderError) -> any Reader {
            guard plugged.withLock({ $0 }) else { throw .noReaderFound(searched: "no simulated reader") }
            let reader = SimulatedReader(name: "Simulated PN532 (sim_uart:/dev/ttySIM0)", identifier: "sim_uart:/dev/ttySIM0")
            opened.withLock { $0.append(reader) }
            return reader
        }
        func recognises(_ identifier: String) -> Bool { false }
        func readerChanges() -> AsyncStream<Void>? { changes }
        var notifiesReaderChanges: Bool { true }

        var openCount: Int { opened.withLock { $0.count } }
        /// Says the readers changed and returns once the session has handled it: it handles
        /// changes one at a time, so a later listing means this one's opens are done.
        func change() async {
            let before = listed.load(ordering: .relaxed)
            changed.yield()
            changed.yield()
            while listed.load(ordering: .relaxed) < before + 2 { try? await Task.sleep(for: .milliseconds(2)) }
        }
    }

    @Test func aReaderIsOpenedOnceDroppedWhenUnpluggedAndOpenedAgainWhenItReturns() async throws {
        let provider = ComingAndGoing()
        let removed = Atomic(0)
        let session = ScanSession(readers: [], directory: ReaderDirectory(providers: [provider]),
                                  noneYet: .noReaderFound(searched: "no simulated reader"),
                                  removed: { _, _ in removed.add(1, ordering: .relaxed) })
        async let following: Void = session.run()
        let scan = Task { try await session.next(timeout: .seconds(20)) }

        provider.plugged.withLock { $0 = true }
        await provider.change()
        #expect(provider.openCount == 1, "the reader that appeared is opened")
        await provider.change()
        await provider.change()
        #expect(provider.openCount == 1, "and known by its identifier afterwards: not opened again")

        provider.plugged.withLock { $0 = false }
        provider.opened.withLock { $0[0] }.unplug()
        for _ in 0..<1000 where removed.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(2)) }
        #expect(removed.load(ordering: .relaxed) == 1, "the unplugged reader is dropped")
        #expect(session.readers.isEmpty)

        provider.plugged.withLock { $0 = true }
        await provider.change()
        #expect(provider.openCount == 2, "it is opened again when it returns")
        try provider.opened.withLock { $0[1] }.present(uri: "https://example.com/back", uid: [0x04, 1, 2, 3, 4, 5, 6])
        let object = try await scan.value
        #expect(object.readerName == "Simulated PN532 (sim_uart:/dev/ttySIM0)")
        await session.close()
        await following
    }
}
