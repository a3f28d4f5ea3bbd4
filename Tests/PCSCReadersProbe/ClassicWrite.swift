import NDEF
import NFCReaders
import NFCTags

/// `classic-write HEX`: writes the encoded message HEX to the first object (a MIFARE Classic
/// storage card: UPDATE BINARY after GENERAL AUTHENTICATE), reads it back, makes it read-only
/// and tries to write again. Prints `written=…`, `ndef=…`, `status=…`, `secondWrite=…`.
func classicWrite(_ message: [UInt8]) async throws {
    let (reader, object, events) = try await firstObject()
    do {
        let report = try await object.perform { driver throws(TagWriteError) in try await driver.write(message, options: WriteOptions()) }
        say("written changed=\(report.changed) roundTrips=\(report.roundTrips)")
    } catch {
        say("writeError=\(error)")
    }
    say(await readOutcome(object))
    do {
        _ = try await object.perform { driver throws(TagWriteError) in try await driver.makeReadOnly(options: WriteOptions()) }
        let status = try await object.perform { driver throws(TagWriteError) in try await driver.status() }
        say("status=\(status.access.rawValue) formatted=\(status.formatted) used=\(status.used)")
        _ = try await object.perform { driver throws(TagWriteError) in try await driver.write([], options: WriteOptions()) }
        say("secondWrite=written")
    } catch {
        say("secondWrite=\(error)")
    }
    say(await readOutcome(object))
    await object.release()
    await reader.close()
    withExtendedLifetime(events) {}
}
