import NFCReaders
import NFCScanKit
import Synchronization

/// Looks for objects on every reader, all the time, and reports what happens: the reading half
/// of the daemon, with no bus in sight.
///
/// It is one long ``ScanSession``: readers that appear later are opened (PC/SC notifies; libnfc's
/// readers are those present at the start), an object left near a reader is reported once, and
/// the same object held near again after leaving is reported again.
enum BackgroundReading {
    /// Opens the readers and reports until cancelled (or until no reader is left and none can
    /// appear); every reader is released before it returns.
    /// - Parameter wanted: only the reader with this identifier or name (or part of it).
    /// - Parameter writes: an armed write takes the next object that arrives: it is written, not read.
    static func run(directory: ReaderDirectory, wanted: String?, writes: ArmedWrite = ArmedWrite(),
                    events: @escaping @Sendable (ReadingEvent) -> Void) async {
        let opened = (try? await directory.openAll(named: wanted).readers) ?? []
        let session = ScanSession(readers: opened, directory: directory, wanted: wanted,
                                  added: { events(.readerAdded(ObjectIdentifier($0), name: $0.name, backend: $0.backend)) },
                                  removed: { events(.readerRemoved(ObjectIdentifier($0), problem: $1.map { "\($0)" })) },
                                  heldElsewhere: { events(.heldElsewhere(ObjectIdentifier($0), $1)) })
        for reader in opened { events(.readerAdded(ObjectIdentifier(reader), name: reader.name, backend: reader.backend)) }
        events(.opened)
        async let following: Void = session.run()
        while !Task.isCancelled {
            do throws(ScanFailure) {
                let object = try await session.next(timeout: nil, arrived: { events(.reading) }, claim: { object in
                    guard let (id, write) = writes.take() else { return false }
                    events(.writing(session: id))
                    events(.written(session: id, await write.run(on: object)))
                    return true
                })
                events(.scanned(object))
            } catch .reader(let error) {
                events(.ended("\(error)"))
                break
            } catch .timedOut {
                // Only when cancelled: the session's stream ended.
                continue
            } catch {
                events(.failed("\(error)"))
            }
        }
        await session.close()
        await following
    }
}

/// The write an active write session armed: taken by the first object to arrive (once), dropped
/// when the session ends. The daemon's loop arms and disarms it, background reading's task takes
/// it, so it sits behind a lock.
final class ArmedWrite: Sendable {
    private let armed = Mutex<(session: Int, write: ObjectWrite)?>(nil)

    func arm(_ session: Int, _ write: ObjectWrite) { armed.withLock { $0 = (session, write) } }

    /// Drops session `session`'s write unless an object has taken it already.
    func disarm(_ session: Int) { armed.withLock { if $0?.session == session { $0 = nil } } }

    func take() -> (session: Int, write: ObjectWrite)? {
        armed.withLock { armed in
            defer { armed = nil }
            return armed
        }
    }
}
