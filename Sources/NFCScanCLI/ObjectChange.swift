import ArgumentParser
import CommandLineIO
import NDEFReport
import NFCCopy
import NFCObjects
import NFCReaders
import NFCScanKit
import NFCTags
import Systemd

/// What `nfcscan write|erase|lock|info` does to the object a person holds near a reader.
enum ObjectJob: Sendable {
    /// Write, erase or lock (``ObjectWrite``: locking only after a verified write, only when asked).
    case write(ObjectWrite)
    /// Say what the object is, changing nothing (`password`: the one that reads it, when one protects it).
    case status(password: [UInt8]?)

    /// What the prompts and endings speak of; nil: only looking.
    var action: WriteAction? {
        if case .write(let write) = self { return write.action }
        return nil
    }
}

/// One job on the objects people hold near a reader, run by `nfcscan write|erase|lock|info`: the
/// prompt, the wait, the job as one whole operation on the object's driver, and the sentence (or
/// `--json` report) and exit status. While nfcscand runs it owns the readers: a write then goes
/// through its write session (the same prompts, endings and exit statuses).
struct ObjectChange {
    var options: ObjectCommandOptions
    var job: ObjectJob
    /// Objects to handle, one after another ("Now hold another poster near the reader.").
    var count = 1

    /// What one handled object gave.
    enum Outcome: Sendable {
        case written(WriteResult)
        case status(TagStatus)
    }

    func run() async throws {
        quietLibnfc(unless: options.verbose)
        let language = ScanCopy.Language.preferred()
        let copy = ScanCopy.catalog(for: language, object: options.object)
        let writeCopy = ScanCopy.writeCatalog(for: language, object: options.object)
        // Held until the command ends: nfcscand keeps its readers released meanwhile.
        var inhibitor: DaemonInhibitor?
        defer { inhibitor?.release() }
        if options.reader == nil, let bus = try? BusConnection.session() {
            defer { bus.close() }
            if await DaemonScanSession.daemonIsRunning(on: bus) {
                guard case .write(let write) = job else {
                    // Looking only has no session of its own: nfcscand lets go of the readers
                    // while nfcscan opens them itself.
                    do {
                        inhibitor = try await DaemonInhibitor.take(who: "nfcscan info", why: "looking at the object", on: bus)
                    } catch {
                        printError(copy.readerBusy)
                        printError("nfcscan: nfcscand is running and did not let go of the readers (\(error)); name one with --reader (pcscd's readers can be shared), or stop it (systemctl --user stop nfcscand)")
                        throw ExitStatus.readerBusy
                    }
                    if options.verbose { printError("nfcscan: nfcscand is running; it lets go of the readers until nfcscan ends") }
                    return try await direct(language: language, copy: copy, writeCopy: writeCopy, busyGrace: .seconds(3))
                }
                if options.verbose { printError("nfcscan: nfcscand is running; writing through it (a write session per object)") }
                for index in 0..<count {
                    if let status = await writeThroughDaemon(bus, write: write, index: index, language: language, copy: copy) { throw status }
                }
                return
            }
        }
        try await direct(language: language, copy: copy, writeCopy: writeCopy, busyGrace: .zero)
    }

    /// The job on readers nfcscan opens itself; `busyGrace`: how long a reader another program
    /// is letting go of (nfcscand, inhibited) may stay busy.
    private func direct(language: ScanCopy.Language, copy: any ScanCopyCatalog, writeCopy: any WriteCopyCatalog,
                        busyGrace: Duration) async throws {
        let first = job.action.map(writeCopy.writePrompt) ?? copy.firstPrompt
        let prompt = PromptLine()
        let scope = ReaderScope(reader: options.reader, verbose: options.verbose, json: options.json, copy: copy, busyGrace: busyGrace)
        let status = try await scope.run(prompt: prompt, deadline: .now + options.wait, firstPrompt: first) { session in
            await handle(session, prompt: prompt, first: first, copy: copy, writeCopy: writeCopy)
        }
        if let status { throw status }
    }

    private func handle(_ session: ScanSession, prompt: PromptLine, first: String, copy: any ScanCopyCatalog,
                        writeCopy: any WriteCopyCatalog) async -> ExitCode? {
        let secondsLeft: @Sendable (Int) -> String = { copy.secondsLeft($0) }
        var worst: ExitCode?
        for index in 0..<count {
            let ask = session.readers.isEmpty ? copy.connectReader : index == 0 ? first : copy.laterPrompt
            prompt.show(count > 1 ? writeCopy.progress(ask, index: index + 1, total: count) : ask,
                        deadline: .now + options.wait, secondsLeft: secondsLeft)
            let object: DetectedObject, reader: any Reader
            do { (object, reader) = try await session.nextArrival(timeout: options.wait) } catch {
                prompt.clear()
                let (message, status, _, ending) = ScanCommand.explain(error, copy: copy)
                fail(message, ending: ending, detail: error.description, place: nil)
                return status
            }
            prompt.show(job.action.map(writeCopy.busy) ?? copy.reading, deadline: nil, secondsLeft: secondsLeft)
            var place = ObjectIdentity(object: object, reader: reader)
            let result = await perform(on: object)
            prompt.clear()
            switch result {
            case .success(let outcome):
                if options.verbose { printError("nfcscan: \(place.summary) on \(reader.name)") }
                if case .status(let status) = outcome {
                    // Checked as a scan checks what it reads (the session's checks).
                    let originality = session.checks.originality(of: status.originality, uid: status.uid ?? object.identifier)
                    place.genuine = originality.verdict
                    if options.verbose { printError("nfcscan: \(originality.explanation)") }
                }
                report(outcome, place: place, writeCopy: writeCopy)
            case .failure(let error):
                let ending = WriteEnding(error)
                let said = error == .link(.passwordNotPassed)
                    ? Self.readerCannotSendPassword(copy: copy) : sentence(for: ending, copy: copy, writeCopy: writeCopy)
                fail(said, ending: ending, detail: error.description, place: place, reader: reader.name)
                if let hint = hint(for: ending, error: error, writeCopy: writeCopy) { printError(hint) }
                worst = Self.status(for: ending)
                if count == 1 { return worst }
            }
        }
        return worst
    }

    /// The job on one object, which is let go of afterwards.
    private func perform(on object: DetectedObject) async -> Result<Outcome, TagWriteError> {
        switch job {
        case .write(let write):
            let result = await write.run(on: object)
            if let error = result.error { return .failure(error) }
            return .success(.written(result))
        case .status(let password):
            do throws(TagWriteError) {
                let status = try await object.perform(password: password) { driver throws(TagWriteError) in try await driver.status() }
                await object.release()
                return .success(.status(status))
            } catch {
                await object.release()
                return .failure(error)
            }
        }
    }

    /// The sentence (standard output), or the `--json` report, for a handled object.
    private func report(_ outcome: Outcome, place: ObjectIdentity, writeCopy: any WriteCopyCatalog) {
        switch outcome {
        case .written(let result):
            if options.json {
                var fields: [ReportValue.Field] = [.init("written", .bool(result.written)), .init("locked", .bool(result.locked))]
                if let report = result.report {
                    fields += [.init("changed", .bool(report.changed)), .init("formatted", .bool(report.formatted)),
                               .init("round_trips", .int(report.roundTrips))]
                }
                writeLine(JSONWriter.string(EndingReport.report(.done, fields: fields, object: place)))
            } else if let action = job.action {
                writeLine(writeCopy.writeEnded(.done, action))
            }
        case .status(let status):
            InfoCommand.print(status, place: place, options: options)
        }
    }

    /// The write as a client of nfcscand's write session: its prompts, its ending's sentence and
    /// the exit status a direct write would give.
    private func writeThroughDaemon(_ bus: BusConnection, write: ObjectWrite, index: Int, language: ScanCopy.Language,
                                    copy: any ScanCopyCatalog) async -> ExitCode? {
        let seconds = max(1, min(3600, Int(((options.timeout ?? 60)).rounded(.up))))
        let session: DaemonWriteSession
        do {
            session = try await DaemonWriteSession.start(.init(write, object: options.object, timeout: seconds, language: language), on: bus)
        } catch .remote(name: "org.nfcscan.Error.RadioDisabled", let message) {
            fail(copy.radioDisabled, ending: .failed, detail: "nfcscand refused the write session: \(message)", place: nil)
            return ExitStatus.noReader
        } catch {
            fail(copy.readerBusy, ending: .failed, detail: "nfcscand refused the write session: \(error)", place: nil)
            return ExitStatus.readerBusy
        }
        let prompt = PromptLine()
        let deadline = ContinuousClock.now + .seconds(seconds)
        let secondsLeft: @Sendable (Int) -> String = { copy.secondsLeft($0) }
        for await event in session {
            switch event {
            case .alertMessage(let text):
                let writeCopy = ScanCopy.writeCatalog(for: language, object: options.object)
                prompt.show(count > 1 ? writeCopy.progress(text, index: index + 1, total: count) : text, deadline: deadline,
                            secondsLeft: secondsLeft)
            case .writing:
                prompt.show(ScanCopy.writeCatalog(for: language, object: options.object).busy(write.action), deadline: nil,
                            secondsLeft: secondsLeft)
            case .ended(let ending):
                prompt.clear()
                guard let known = ending.writeEnding else {
                    fail(ending.message.isEmpty ? copy.readerFailed : ending.message, ending: .failed,
                         detail: "the write session ended \(ending.code)", place: nil)
                    return ending.code == "radio-disabled" ? ExitStatus.noReader : ExitStatus.readFailed
                }
                guard known == .done else {
                    fail(Self.hinted(ending.message, known, copy: copy), ending: known, detail: ending.error ?? ending.code, place: nil)
                    if let hint = hint(for: known, error: nil, writeCopy: ScanCopy.writeCatalog(for: language, object: options.object)) {
                        printError(hint)
                    }
                    return Self.status(for: known)
                }
                if options.json {
                    writeLine(JSONWriter.string(EndingReport.report(known, fields: [.init("written", .bool(ending.written)),
                                                                                    .init("locked", .bool(ending.locked))])))
                } else {
                    writeLine(ending.message)
                }
                return nil
            }
        }
        prompt.clear()
        fail(copy.readerFailed, ending: .failed, detail: "nfcscand left the bus during the write session", place: nil)
        return ExitStatus.readFailed
    }

    /// What to do about an ending, on the command line: --format for a blank object (only `write`
    /// has it), how much fits when the message does not (when the object said).
    private func hint(for ending: WriteEnding, error: TagWriteError?, writeCopy: any WriteCopyCatalog) -> String? {
        switch (ending, error) {
        case (.blank, _) where job.action.map({ if case .save = $0 { true } else { false } }) == true:
            return writeCopy.formatHint
        case (.tooLarge, .refused(.doesNotFit(let needed, let available))?):
            return writeCopy.sizeHint(needed: needed, available: available)
        default:
            return nil
        }
    }

    /// The person's sentence for an ending: a write's own, or the reading copy's when only looking.
    private func sentence(for ending: WriteEnding, copy: any ScanCopyCatalog, writeCopy: any WriteCopyCatalog) -> String {
        if let action = job.action { return Self.hinted(writeCopy.writeEnded(ending, action), ending, copy: copy) }
        switch ending {
        case .movedAwayTooSoon: return copy.movedAwayTooSoon
        case .unsupported: return copy.unsupportedObject
        case .passwordRequired: return Self.hinted(copy.passwordRequired, ending, copy: copy)
        case .wrongPassword: return Self.hinted(copy.wrongPassword, ending, copy: copy)
        default: return copy.readFailed
        }
    }

    /// A password protects the object and this reader cannot send one (a PC/SC storage-card
    /// reader): --password can't help, another reader can.
    static func readerCannotSendPassword(copy: any ScanCopyCatalog) -> String {
        copy.passwordRequired + "\n" + copy.passwordReaderHint
    }

    /// `sentence`, followed for a password ending by how to give the password (a line of its own).
    static func hinted(_ sentence: String, _ ending: WriteEnding, copy: any ScanCopyCatalog) -> String {
        ending == .passwordRequired || ending == .wrongPassword ? sentence + "\n" + copy.passwordHint : sentence
    }

    /// The sentence on standard error (with --verbose, the object and reader, and the cause);
    /// with --json, a report on standard output too.
    private func fail(_ message: String, ending: WriteEnding, detail: String, place: ObjectIdentity?, reader: String? = nil) {
        printError(message)
        if options.verbose {
            if let place, let reader { printError("nfcscan: \(place.summary) on \(reader)") }
            printError("nfcscan: \(detail)")
        }
        if options.json { writeLine(JSONWriter.string(EndingReport.report(ending, error: detail, object: place))) }
    }

    /// The documented exit status of an ending.
    static func status(for ending: WriteEnding) -> ExitCode {
        switch ending {
        case .done: .success
        case .timedOut: ExitStatus.timedOut
        case .tooLarge: ExitStatus.doesNotFit
        case .readOnly: ExitStatus.readOnly
        case .blank: ExitStatus.blank
        case .passwordRequired, .wrongPassword: ExitStatus.password
        case .movedAwayTooSoon, .failed, .canceled: ExitStatus.readFailed
        case .differentObject: ExitStatus.differentObject
        case .didNotVerify: ExitStatus.didNotVerify
        // nfcscan write always overwrites; a not-empty ending comes only from a session that asked not to.
        case .unsupported, .notEmpty: ExitStatus.cannotWrite
        }
    }
}

