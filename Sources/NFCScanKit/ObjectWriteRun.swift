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
        let message = message, options = options, lock = lock
        let result: WriteResult
        do throws(TagWriteError) {
            result = try await object.perform { driver throws(TagWriteError) -> WriteResult in
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
}
