// A test helper for PCSCReadersTests: one PC/SC check per process, since the client library
// reads PCSCLITE_CSOCK_NAME once per process (the test starts a private pcscd for each check).
// Prints `key=value` lines; every wait is bounded by the last argument (seconds).
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import NDEF
import NFCReaders
import NFCTags
import PCSC

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first, let limit = arguments.last.flatMap(Double.init) else {
    say("usage: pcsc-readers-probe list|read|late-read|cancel|exclusive|transaction|reset|write|classic-write ... SECONDS"); exit(64)
}
// The bound on the whole check.
DispatchQueue.global().asyncAfter(deadline: .now() + limit) { say("timeout"); exit(3) }

/// Reads `object`: `ndef=… uid=…` or `readError=…`.
func readOutcome(_ object: DetectedObject) async -> String {
    do {
        let reading = try await object.readNDEF()
        return "ndef=\(Hex.string(reading.ndefBytes)) uid=\(Hex.string(reading.uid ?? []))"
    } catch {
        return "readError=\(error)"
    }
}

/// pcscd's first reader and the first object it finds (with the events, which must live on:
/// ending them ends the reader's watch).
func firstObject() async throws -> (PCSCReader, DetectedObject, AsyncThrowingStream<ReaderEvent, any Error>.AsyncIterator) {
    let reader = try await PCSCReader.open()
    let (event, events) = try await firstEvent(reader)
    guard case .arrived(let object)? = event else { say("error=no object"); exit(1) }
    say("arrived uid=\(Hex.string(object.identifier))")
    return (reader, object, events)
}

func firstEvent(_ reader: PCSCReader) async throws -> (ReaderEvent?, AsyncThrowingStream<ReaderEvent, any Error>.AsyncIterator) {
    var iterator = reader.events().makeAsyncIterator()
    return (try await iterator.next(), iterator)
}

do {
    switch command {
    case "list":
        for name in try await PCSCReader.readerNames() { say("reader=\(name)") }
    case "read", "late-read":
        let reader = try await PCSCReader.open()
        say("opened=\(reader.name)")
        var events = reader.events().makeAsyncIterator()
        while let event = try await events.next() {
            switch event {
            case .arrived(let object):
                // A PC/SC card's technology is what its ATR says: the card, as the ATR names it, too.
                let card = if case .pcscCard(_, let atr) = object.technology { " card=\(PCSCCardIdentity(atr: atr))" } else { "" }
                say("arrived uid=\(Hex.string(object.identifier)) platform=\(object.platform.map { "\($0)" } ?? "none") technology=\(object.technology.name.rawValue)\(card)")
                if command == "late-read" {
                    // Hold on to the object while it leaves the field, then read.
                    try await Task.sleep(for: .seconds(Double(arguments[1])!))
                }
                do {
                    let started = ContinuousClock.now
                    let reading = try await object.readNDEF()
                    let took = ContinuousClock.now - started
                    let pcsc = object.transport as? PCSCTransport
                    say("ndef=\(Hex.string(reading.ndefBytes)) roundTrips=\(reading.roundTrips) capacity=\(reading.capacity) uid=\(Hex.string(reading.uid ?? [])) "
                        + "apdus=\(pcsc?.exchanges ?? 0) link=\(pcsc?.passThrough?.rawValue ?? "storage-card") product=\(reading.product ?? "-") "
                        + "readUs=\(took.components.seconds * 1_000_000 + took.components.attoseconds / 1_000_000_000_000) "
                        + "originality=\(originalityField(reading.originality))")
                } catch {
                    say("readError=\(error)")
                }
            case .removed(let identifier):
                say("removed uid=\(Hex.string(identifier))")
                await reader.close()
                say("closed")
                exit(0)
            case .heldElsewhere(let held):
                say("heldElsewhere=\(held)")
            }
        }
        say("ended")
    case "cancel":
        let context = try await PCSCContext.establish()
        // Wait for the card first (it stays), so nothing changes during the measured wait.
        let name = try await context.readers().first ?? ""
        var states = [PCSCReaderState(reader: name)]
        repeat {
            states = try await context.statusChange(states)
            states[0].acknowledge()
        } while !states[0].flags.contains(.present)
        let start = ContinuousClock.now
        let waiter = Task { [states] () -> String in
            do { _ = try await context.statusChange(states); return "changed" } catch { return (error as? PCSCError)?.kind == .cancelled ? "cancelled" : "\(error)" }
        }
        try await Task.sleep(for: .milliseconds(500))
        let cancelAt = ContinuousClock.now
        context.cancel()
        let outcome = await waiter.value
        let waited = cancelAt - start, after = ContinuousClock.now - cancelAt
        say("outcome=\(outcome) waitedBeforeCancelMs=\(waited.components.seconds * 1000 + waited.components.attoseconds / 1_000_000_000_000_000) returnedAfterCancelUs=\(after.components.seconds * 1_000_000 + after.components.attoseconds / 1_000_000_000_000)")
        await context.release()
    case "exclusive":
        // A second client takes the card exclusively: the reader says it is held elsewhere, and
        // announces the card once that client lets go.
        let other = try await PCSCContext.establish()
        let name = try await other.readers().first ?? ""
        var states = [PCSCReaderState(reader: name)]
        while !(states[0].flags.contains(.present)) {
            states = try await other.statusChange(states)
            states[0].acknowledge()
        }
        let held = try await other.connect(name, share: .exclusive)
        let heldATR = try await held.status().atr
        say("held=\(name) atr=\(Hex.string(heldATR))")
        let reader = try await PCSCReader.open(name)
        var events = reader.events().makeAsyncIterator()
        func describe(_ event: ReaderEvent?) -> String {
            switch event {
            case .heldElsewhere(let held)?: "heldElsewhere(\(held))"
            case .arrived(let object)?: "arrived(\(Hex.string(object.identifier)))"
            case .removed?: "removed"
            case nil: "end"
            }
        }
        do {
            say("event=\(describe(try await events.next()))")
            // The other client lets go: the reader notices by itself (pcscd sends no event for it).
            await held.disconnect()
            let released = ContinuousClock.now
            say("event=\(describe(try await events.next()))")
            say("event=\(describe(try await events.next()))")
            let waited = ContinuousClock.now - released
            say("arrivedAfterReleaseMs=\(waited.components.seconds * 1000 + waited.components.attoseconds / 1_000_000_000_000_000)")
        } catch let error as ReaderError {
            say("error=\(error)")
        }
        await reader.close()
        await other.release()
    case "transaction":
        // The reader has the card; then a second client takes a transaction on it. The read
        // must wait for that transaction to end (never interleave with it), then read the
        // right content. The test says when the read is waiting (pcscd's log shows its
        // SCardBeginTransaction refused): a line on the pipe named by the second argument.
        let (reader, object, events) = try await firstObject()
        // Open for reading and writing, so neither side blocks in open(2).
        let go = open(arguments[1], O_RDWR)
        let other = try await PCSCContext.establish()
        let held = try await other.connect(reader.name, share: .shared)
        try await held.beginTransaction()
        say("holding=\(reader.name)")
        // Detached: this code's actor blocks in read(2) below.
        let reading = Task.detached { await readOutcome(object) }
        var byte: UInt8 = 0
        _ = read(go, &byte, 1)
        close(go)
        // The holder's own multi-command read, uninterrupted.
        var answers: [String] = []
        for page: UInt8 in [3, 4, 8, 12] {
            let response = try await held.transmit([0xFF, 0xB0, 0x00, page, 0x10], maxResponse: 258)
            answers.append(Hex.string(Array(response.suffix(2))))
        }
        say("holderReads=\(answers.joined(separator: ","))")
        try await held.endTransaction()
        say("released")
        say(await reading.value)
        await object.release()
        await held.disconnect()
        await reader.close()
        await other.release()
        withExtendedLifetime(events) {}
    case "reset":
        // Another client resets the card after the reader found it: the read acknowledges the
        // reset (SCARD_W_RESET_CARD) and reads once more, instead of calling the card gone.
        let (reader, object, events) = try await firstObject()
        let other = try await PCSCContext.establish()
        let resetter = try await other.connect(reader.name, share: .shared)
        await resetter.disconnect(.reset)
        say("reset")
        say(await readOutcome(object))
        await object.release()
        await reader.close()
        await other.release()
        withExtendedLifetime(events) {}
    case "classic-write":
        guard case .success(let message) = Hex.decode(arguments[1]) else { say("error=bad hex"); exit(64) }
        try await classicWrite(message)
    case "write":
        // write HEX [format] [lock] [password=HEX] SECONDS: writes the encoded message HEX to the
        // first object through its driver, as one whole operation (formatting a blank object when
        // asked), then (when asked) makes it read-only — the write told so, as ObjectWrite tells
        // it, so a lock the link cannot do refuses before the write — then prints what a fresh
        // read and the driver's status find.
        guard case .success(let message) = Hex.decode(arguments[1]) else { say("error=bad hex"); exit(64) }
        var password: [UInt8]?
        if let given = arguments.first(where: { $0.hasPrefix("password=") }) {
            guard case .success(let bytes) = Hex.decode(String(given.dropFirst("password=".count))) else { say("error=bad password"); exit(64) }
            password = bytes
        }
        let options = WriteOptions(formatIfBlank: arguments.contains("format"), password: password)
        var writeOptions = options
        writeOptions.lockAfter = arguments.contains("lock")
        let (reader, object, events) = try await firstObject()
        do {
            let report = try await object.perform { driver throws(TagWriteError) in try await driver.write(message, options: writeOptions) }
            say("written changed=\(report.changed) formatted=\(report.formatted) roundTrips=\(report.roundTrips)")
            if arguments.contains("lock") {
                let locked = try await object.perform { driver throws(TagWriteError) in try await driver.makeReadOnly(options: options) }
                say("readOnly chipLocked=\(locked.chipLocked.map { "\($0)" } ?? "-") roundTrips=\(locked.roundTrips)")
            }
        } catch {
            say("writeError=\(error)")
        }
        say(await readOutcome(object))
        do {
            let status = try await object.perform { driver throws(TagWriteError) in try await driver.status() }
            say("status access=\(status.access.rawValue) used=\(status.used) capacity=\(status.capacity) formatted=\(status.formatted)")
        } catch {
            say("statusError=\(error)")
        }
        await object.release()
        await reader.close()
        withExtendedLifetime(events) {}
    default:
        say("unknown command \(command)"); exit(64)
    }
    exit(0)
} catch let error as ReaderError {
    say("readerError=\(error)")
    if case .pcscdNotRunning = error { say("kind=pcscdNotRunning") }
    exit(1)
} catch {
    say("error=\(error)")
    exit(1)
}


/// The originality evidence as one space-free field: `signature:FAMILY:HEX`, `missing:FAMILY`,
/// `notCarried:FAMILY` (its reason left out), or `-`.
func originalityField(_ evidence: OriginalityEvidence?) -> String {
    switch evidence {
    case .signature(let family, let bytes)?: "signature:\(family.rawValue):\(Hex.string(bytes))"
    case .missing(let family)?: "missing:\(family.rawValue)"
    case .notCarried(let family, _)?: "notCarried:\(family.rawValue)"
    case nil: "-"
    }
}
