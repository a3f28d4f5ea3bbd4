import ArgumentParser
import CommandLineIO
import NDEF
import NDEFReport
import NFCCopy
import NFCObjects
import NFCReaders
import NFCScanKit
import NFCTags
import Systemd

/// `nfcscan` / `nfcscan scan`: wait for an object near any reader, read it, say what it holds.
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Wait for an object to be held near a reader and show what it holds.",
        discussion: """
            nfcscan opens every reader it finds (libnfc devices: LIBNFC_DEVICE, \
            /etc/nfc/libnfc.conf and devices.d, USB readers; and every reader pcscd lists, when \
            pcscd runs), asks for the object, reads it when it comes near, and prints what it \
            holds in plain words: a link in full, with its scheme (https://), and one without \
            any as an incomplete link; on a terminal known to show them (GNOME Terminal and other \
            VTE terminals, kitty, foot, WezTerm, iTerm2, Windows Terminal; not when \
            NO_HYPERLINKS is set) a web link is also clickable. Text from the object is shown \
            with control characters, terminal escape sequences and bidirectional overrides made \
            visible; nothing from the object is ever opened or run.

            The prompt goes to standard error: in a terminal it is one line with a spinner and \
            the seconds left (no colour when NO_COLOR is set; a plain line when TERM=dumb); \
            otherwise a plain line. What the object holds goes to standard output.

            An object left near the reader is read once; take it away and hold it near again to \
            read it again.

            While nfcscand (the background service) runs, it owns the readers: nfcscan then \
            scans through it, as an in-app scan session, with the same prompts, output and exit \
            statuses (--reader always opens the reader directly).

            Examples:
              nfcscan --object poster
              nfcscan --json | jq -r '.records[].uri'
              nfcscan --count 3 --object badge --json > badges.jsonl
              LIBNFC_DEVICE=pn532_uart:/dev/ttyUSB0 nfcscan --timeout 10
              nfcscan --reader pn532_uart:/tmp/nfcsim-pn532 --verbose
              nfcscan --object badge --password 1a2b3c4d

            --json prints the fields of Docs/json-schema.md plus "object" (uid, technology, \
            platform, product, capacity, reader, backend, round_trips); with several objects, one JSON \
            document per line (JSON Lines). A wait or read that fails prints an ending instead, as \
            `nfcscan write --json` does: {"ending": "timeout", "error": "..."}. The schema: \
            Docs/schemas/scan.schema.json.

            Exit status: \(ExitStatus.scanSummary)
            """
    )

    @OptionGroup var choice: ObjectChoice
    var object: String? { choice.object }
    var reader: String? { choice.reader }

    @Flag(help: "Print JSON (one document per object) instead of a description.")
    var json = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Read this many objects, then exit.", valueName: "n"))
    var count: Int = 1

    @Flag(help: "Keep reading objects until interrupted (Ctrl-C).")
    var continuous = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Give up when no object comes within this many seconds (default 60; with --continuous: no limit unless given).", valueName: "seconds"))
    var timeout: Double?

    @Flag(help: "Also print the technical cause of failures, and details of each read, on standard error.")
    var verbose = false

    @OptionGroup var password: PasswordOption

    func validate() throws {
        if count < 1 { throw ValidationError("--count needs 1 or more") }
        if continuous && count != 1 { throw ValidationError("--continuous and --count exclude each other") }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout needs a positive number of seconds") }
    }

    func run() async throws {
        quietLibnfc(unless: verbose)
        let copy = ScanCopy.catalog(for: language, object: object)
        // While nfcscand runs it owns the readers: scan through it (an in-app scan session).
        if reader == nil, let bus = try? BusConnection.session() {
            defer { bus.close() }
            if await DaemonScanSession.daemonIsRunning(on: bus) {
                if verbose { printError("nfcscan: nfcscand is running; scanning through it (a scan session)") }
                if let status = await scanThroughDaemon(bus, copy: copy) { throw status }
                return
            }
        }
        let prompt = PromptLine()
        let deadline = scanWait.map { ContinuousClock.now + $0 }
        let scope = ReaderScope(reader: reader, verbose: verbose, json: json, copy: copy)
        let status = try await scope.run(prompt: prompt, deadline: deadline, firstPrompt: copy.firstPrompt) { session in
            await scan(session, copy: copy, prompt: prompt)
        }
        if let status { throw status }
    }

    /// Reads objects until done; the exit status when something failed.
    /// How long one scan waits: `--timeout`, else 60 s, else forever with `--continuous`.
    var scanWait: Duration? { (timeout ?? (continuous ? nil : 60)).map { .milliseconds(Int64($0 * 1000)) } }

    private func scan(_ session: ScanSession, copy: any ScanCopyCatalog, prompt: PromptLine) async -> ExitCode? {
        let wait = scanWait
        var read = 0
        var worst: ExitCode?
        while continuous || read < count {
            // While no reader is open yet (one may still appear) there is nothing to hold the
            // object near: ask for a reader; the prompt follows when one appears.
            prompt.show(session.readers.isEmpty ? copy.connectReader : read == 0 ? copy.firstPrompt : copy.laterPrompt,
                        deadline: wait.map { ContinuousClock.now + $0 }, secondsLeft: { copy.secondsLeft($0) })
            let scanned: ScannedObject
            do {
                let bytes = password.bytes
                scanned = try await session.next(timeout: wait, arrived: {
                    prompt.show(copy.reading, deadline: nil, secondsLeft: { copy.secondsLeft($0) })
                }, password: { bytes })
            } catch {
                prompt.clear()
                let (message, status, fatal, ending) = Self.explain(error, copy: copy)
                fail(message, ending: ending, detail: error.description)
                if fatal || !(continuous || count > 1) { return status }
                continue
            }
            prompt.clear()
            read += 1
            if let status = show(scanned, copy: copy) {
                if !(continuous || count > 1) { return status }
                worst = status
            }
        }
        return worst
    }

    /// Prints one object; a status when its content cannot be shown.
    private func show(_ scanned: ScannedObject, copy: any ScanCopyCatalog) -> ExitCode? {
        let reading = scanned.reading
        if verbose {
            let product = reading.product ?? reading.platform.rawValue
            printError("nfcscan: read \(product) \(Hex.string(scanned.identifier)) on \(scanned.readerName): \(reading.ndefBytes.count) bytes in \(reading.roundTrips) round trips")
            printError("nfcscan: \(scanned.authenticity.originality.explanation)")
            for signature in scanned.authenticity.signatures { printError("nfcscan: \(signature.explanation)") }
        }
        let report: ReportValue
        do {
            report = try scanned.report()
        } catch {
            fail(copy.unreadableContent, ending: .failed, detail: error.description)
            return ExitStatus.dataError
        }
        print(report, copy: copy)
        return nil
    }

    /// Prints what an object holds: JSON, or plain words.
    func print(_ report: ReportValue, copy: any ScanCopyCatalog) {
        if json {
            writeLine(JSONWriter.string(report))
        } else {
            writeLine(ContentDescription.lines(for: report, copy: copy, hyperlinks: TerminalHyperlinks.enabled).joined(separator: "\n"))
        }
    }

    /// The person's sentence on standard error; with --verbose the technical cause after it;
    /// with --json the ending on standard output too, as `nfcscan write` prints it.
    func fail(_ message: String, ending: WriteEnding, detail: String) {
        printError(message)
        if verbose { printError("nfcscan: \(detail)") }
        if json { writeLine(JSONWriter.string(EndingReport.report(ending, error: detail))) }
    }

    /// The person-facing sentence and exit status for a reader problem.
    static func explain(_ error: ReaderError, copy: any ScanCopyCatalog) -> (String, ExitCode) {
        switch error {
        case .noReaderFound, .openFailed, .pcscdNotRunning: (copy.noReader + "\n" + copy.noReaderHelp, ExitStatus.noReader)
        case .busy, .claimedByKernelDriver, .heldExclusively: (copy.readerBusy, ExitStatus.readerBusy)
        case .permissionDenied, .pcscAccessDenied: (copy.readerNotPermitted, ExitStatus.noPermission)
        case .readerGone, .backend, .pcsc: (copy.readerFailed, ExitStatus.readFailed)
        }
    }

    /// The sentence, status, whether scanning must stop, and the `--json` ending (in the write's
    /// codes), for a failed wait or read.
    static func explain(_ failure: ScanFailure, copy: any ScanCopyCatalog) -> (String, ExitCode, Bool, WriteEnding) {
        switch failure {
        case .timedOut:
            return (copy.timedOut, ExitStatus.timedOut, true, .timedOut)
        case .reader(let error):
            let (message, status) = explain(error, copy: copy)
            return (message, status, true, .failed)
        case .read(let error, _, _):
            // "Try again" (74) only where trying again can help: the object left or the link
            // failed. What the object holds does not change by scanning it again (65).
            switch error {
            case .objectRemoved: return (copy.movedAwayTooSoon, ExitStatus.readFailed, false, .movedAwayTooSoon)
            case .writeInProgress: return (copy.halfWritten, ExitStatus.dataError, false, .failed)
            case .passwordRequired:
                return (ObjectChange.hinted(copy.passwordRequired, .passwordRequired, copy: copy), ExitStatus.password, false, .passwordRequired)
            case .wrongPassword:
                return (ObjectChange.hinted(copy.wrongPassword, .wrongPassword, copy: copy), ExitStatus.password, false, .wrongPassword)
            case .passwordNotPassed: return (ObjectChange.readerCannotSendPassword(copy: copy), ExitStatus.password, false, .passwordRequired)
            case .capabilityContainer(.unsupportedVersion): return (copy.newerForm, ExitStatus.dataError, false, .failed)
            case .capabilityContainer, .readAccessDenied, .attributeChecksum, .nak, .messagePastEndOfMemory,
                 .invalidNDEFLength, .memory, .mifareClassic:
                return (copy.unreadableContent, ExitStatus.dataError, false, .failed)
            case .unsupported: return (copy.unsupportedObject, ExitStatus.dataError, false, .unsupported)
            default: return (copy.readFailed, ExitStatus.readFailed, false, .failed)
            }
        }
    }

}
