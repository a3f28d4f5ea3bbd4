import Foundation
import NFCObjects
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
    /// - Parameter password: what objects are read with (the active scan session's password).
    /// - Parameter problem: a sentence for the journal (the daemon user's secure-link keys file
    ///   refused).
    static func run(directory: ReaderDirectory, wanted: String?, writes: ArmedWrite = ArmedWrite(),
                    password: ReadPassword = ReadPassword(), problem: (String) -> Void = { _ in },
                    events: @escaping @Sendable (ReadingEvent) -> Void) async {
        let opened = (try? await directory.openAll(named: wanted).readers) ?? []
        let session = ScanSession(readers: opened, directory: directory, wanted: wanted,
                                  added: { events(.readerAdded(ObjectIdentifier($0), name: $0.name, backend: $0.backend)) },
                                  removed: { events(.readerRemoved(ObjectIdentifier($0), problem: $1.map { "\($0)" })) },
                                  heldElsewhere: { events(.heldElsewhere(ObjectIdentifier($0), $1)) },
                                  departed: { events(.departed(ObjectIdentifier($0))) },
                                  checks: .forUser(environment: ProcessInfo.processInfo.environment, problem: problem))
        for reader in opened { events(.readerAdded(ObjectIdentifier(reader), name: reader.name, backend: reader.backend)) }
        events(.opened)
        async let following: Void = session.run()
        while !Task.isCancelled {
            do throws(ScanFailure) {
                let object = try await session.next(timeout: nil, arrived: { events(.reading) }, claim: { object in
                    guard let (id, write) = writes.take() else { return false }
                    events(.writing(session: id))
                    // The loop decides: its session may have ended since (then the object is read).
                    guard await writes.confirmation(for: id) else { return false }
                    events(.written(session: id, await write.run(on: object)))
                    return true
                }, password: { password.take() })
                if let session = password.takenBy { events(.readWithPassword(object, session: session)) } else { events(.scanned(object)) }
            } catch .reader(let error) {
                events(.ended("\(error)"))
                break
            } catch .timedOut {
                // Only when cancelled: the session's stream ended.
                continue
            } catch .read(.passwordRequired, _, _) {
                events(.needsPassword(wrong: false))
            } catch .read(.wrongPassword, _, _) {
                events(.needsPassword(wrong: true))
            } catch {
                events(.failed("\(error)"))
            }
        }
        await session.close()
        await following
    }
}

/// The password objects are read with: the active scan session's, set and dropped by the daemon's
/// loop (``DaemonEffect/readPassword(session:_:)``) and taken by background reading's task as each
/// object is read, which then says whose it was, so it sits behind a lock.
final class ReadPassword: Sendable {
    private struct State {
        var current: (session: Int, password: SessionPassword)?
        var takenBy: Int?
    }

    private let state = Mutex(State())

    func set(_ session: Int, _ password: SessionPassword) { state.withLock { $0.current = (session, password) } }

    /// Drops session `session`'s password (not a later session's).
    func drop(_ session: Int) { state.withLock { if $0.current?.session == session { $0.current = nil } } }

    /// The password to read the arriving object with, noting whose it is (``takenBy``).
    func take() -> [UInt8]? {
        state.withLock { state in
            state.takenBy = state.current?.session
            return state.current?.password.bytes
        }
    }

    /// The session whose password the last object was read with; nil: none.
    var takenBy: Int? { state.withLock { $0.takenBy } }
}

/// The write an active write session armed: taken by the first object to arrive (once), dropped
/// when the session ends; then the taker waits for the loop's go-ahead (``DaemonEffect/confirmWrite(session:go:)``),
/// since the session may have ended between the take and the loop hearing of it. The daemon's
/// loop arms, disarms and answers, background reading's task takes and waits, so it sits behind a lock.
final class ArmedWrite: Sendable {
    private struct State {
        var armed: (session: Int, write: ObjectWrite)?
        /// Takers waiting for the loop's answer, and answers that came before their taker waited.
        var waiting: [Int: CheckedContinuation<Bool, Never>] = [:]
        var answers: [Int: Bool] = [:]
        /// The loop has ended: nobody will answer (every write is refused).
        var closed = false
    }

    private let state = Mutex(State())

    func arm(_ session: Int, _ write: ObjectWrite) { state.withLock { $0.armed = (session, write) } }

    /// Drops session `session`'s write unless an object has taken it already.
    func disarm(_ session: Int) { state.withLock { if $0.armed?.session == session { $0.armed = nil } } }

    func take() -> (session: Int, write: ObjectWrite)? {
        state.withLock { state in
            defer { state.armed = nil }
            return state.closed ? nil : state.armed
        }
    }

    /// Waits for the loop's answer about session `session`'s write.
    func confirmation(for session: Int) async -> Bool {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool? in
                if state.closed { return false }
                if let answer = state.answers.removeValue(forKey: session) { return answer }
                state.waiting[session] = continuation
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    func confirm(_ session: Int, _ go: Bool) {
        let waiter = state.withLock { state in
            guard let waiter = state.waiting.removeValue(forKey: session) else {
                state.answers[session] = go
                return nil as CheckedContinuation<Bool, Never>?
            }
            return waiter
        }
        waiter?.resume(returning: go)
    }

    /// The loop ended: whoever waits is refused.
    func close() {
        let waiters = state.withLock { state in
            state.closed = true
            state.armed = nil
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for waiter in waiters { waiter.resume(returning: false) }
    }
}
