import NFCCopy
import NFCObjects
import NFCReaders
import NFCTags

extension ObjectWrite {
    /// Writes (then locks, when asked) the object, as one whole operation on its link, and lets
    /// go of it. Never throws: every way it can end is a ``WriteResult``. A write to be locked
    /// tells the driver so (``WriteOptions/lockAfter``): a lock the object or the link cannot do
    /// refuses before the first command that changes the object, which then reads back unchanged.
    public func run(on object: DetectedObject) async -> WriteResult {
        let message = message, options = options, lock = lock, overwrite = overwrite
        let result: WriteResult
        do throws(TagWriteError) {
            // The write's password also reads what a write that must not overwrite checks first.
            result = try await object.perform(password: options.password) { driver throws(TagWriteError) -> WriteResult in
                if !overwrite, let ending = try await Self.heldMessage(driver) { return WriteResult(ending: ending) }
                var report = TagWriteReport(roundTrips: 0, changed: false)
                if let message {
                    var writeOptions = options
                    writeOptions.lockAfter = lock
                    report = try await driver.write(message, options: writeOptions)
                }
                guard lock else { return WriteResult(ending: .done, report: report, written: message != nil) }
                do throws(TagWriteError) {
                    let locked = try await driver.makeReadOnly(options: options)
                    report.roundTrips += locked.roundTrips
                    report.changed = report.changed || locked.changed
                    return WriteResult(ending: .done, report: report, written: message != nil, locked: true)
                } catch {
                    // Written and verified, not locked (the object left, a lock write was
                    // refused or did not read back): the ending says why.
                    return WriteResult(ending: WriteEnding(error), error: error, report: report, written: message != nil)
                }
            }
        } catch {
            result = WriteResult(ending: WriteEnding(error), error: error)
        }
        await object.release()
        return result
    }

    /// Whether the object already holds something, read first for a write that must not
    /// overwrite: ``WriteEnding/notEmpty`` when it holds records (or bytes that are no message),
    /// nil when it holds none (an empty message, only empty records) or is not formatted (the
    /// write then formats it or ends blank as usual).
    private static func heldMessage(_ driver: any TagDriver) async throws(TagWriteError) -> WriteEnding? {
        do throws(TagReadError) {
            switch try await driver.readNDEF().content {
            case .empty: return nil
            case .message(let held): return held.records.allSatisfy { $0.tnf == .empty } ? nil : .notEmpty
            case .undecodable: return .notEmpty
            }
        } catch {
            switch error {
            // Not formatted for messages: nothing to keep.
            case .capabilityContainer, .noNDEFApplication: return nil
            // Anything else (the object left, its content unreadable) would leave unknown what
            // the write replaces: it fails as a read does.
            default: throw .link(error)
            }
        }
    }
}
