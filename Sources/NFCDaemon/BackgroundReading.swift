import NFCReaders
import NFCScanKit

/// Looks for objects on every reader, all the time, and reports what happens: the reading half
/// of the daemon, with no bus in sight.
///
/// It is one long ``ScanSession``: readers that appear later are opened (PC/SC notifies; libnfc's
/// readers are those present at the start), an object left near a reader is reported once, and
/// the same object held near again after leaving is reported again.
final class BackgroundReading: Sendable {
    enum Event: Sendable {
        case readerAdded(any Reader)
        case readerRemoved(any Reader, String?)
        /// Another program holds (true) or no longer holds (false) this reader's object exclusively.
        case heldElsewhere(any Reader, Bool)
        /// An object arrived and is being read (``scanned`` or ``failed`` follows).
        case reading
        case scanned(ScannedObject)
        case failed(ScanFailure)
        /// The readers present at the start are open (each announced before): later ones are hotplug.
        case opened
        /// No reader is left and none can appear: reading has ended.
        case ended(ReaderError)
    }

    private let task: Task<Void, Never>

    /// - Parameter wanted: only the reader with this identifier or name (or part of it).
    init(directory: ReaderDirectory, wanted: String?, events: @escaping @Sendable (Event) -> Void) {
        task = Task {
            let opened = (try? await directory.openAll(named: wanted).readers) ?? []
            let session = ScanSession(readers: opened, directory: directory, wanted: wanted,
                                      added: { events(.readerAdded($0)) },
                                      removed: { events(.readerRemoved($0, $1.map { "\($0)" })) },
                                      heldElsewhere: { events(.heldElsewhere($0, $1)) })
            for reader in opened { events(.readerAdded(reader)) }
            events(.opened)
            while !Task.isCancelled {
                do throws(ScanFailure) {
                    let object = try await session.next(timeout: nil) { events(.reading) }
                    events(.scanned(object))
                } catch .reader(let error) {
                    events(.ended(error))
                    break
                } catch .timedOut {
                    // Only when cancelled: the session's stream ended.
                    continue
                } catch {
                    events(.failed(error))
                }
            }
            await session.close()
        }
    }

    /// Stops reading and releases every reader.
    func stop() async {
        task.cancel()
        await task.value
    }
}
