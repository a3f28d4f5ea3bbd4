import ArgumentParser
import CommandLineIO
import NDEFReport
import NFCReaders
import NFCScanKit
import NFCTags
import Systemd

/// One operation on the object a person holds near a reader (write, erase, lock, or a look at its
/// status), run by `nfcscan write|erase|lock|info`: the prompt, the wait, the operation as one
/// whole operation on the object's driver, and the sentence (or `--json` report) and exit status.
struct ObjectChange<Outcome: Sendable> {
    var options: ObjectCommandOptions
    /// What the prompts and endings speak of; nil: only looking (`info`).
    var action: WriteAction?
    /// Objects to handle, one after another ("Now hold another poster near the reader.").
    var count = 1
    var operation: @Sendable (any TagDriver) async throws(TagWriteError) -> Outcome
    /// Prints what one handled object gave.
    var success: (Outcome, ObjectPlace) -> Void

    func run() async throws {
        quietLibnfc(unless: options.verbose)
        let language = ScanCopy.Language.preferred()
        let copy = ScanCopy.catalog(for: language, object: options.object)
        let writeCopy = ScanCopy.writeCatalog(for: language, object: options.object)
        if options.reader == nil, let bus = try? BusConnection.session() {
            defer { bus.close() }
            if await DaemonScanSession.daemonIsRunning(on: bus) {
                printError(copy.readerBusy)
                printError("nfcscan: nfcscand is running and uses the readers; name one with --reader (pcscd's readers can be shared), or stop it (systemctl --user stop nfcscand)")
                throw ExitStatus.readerBusy
            }
        }
        let first = action.map(writeCopy.writePrompt) ?? copy.firstPrompt
        let prompt = PromptLine()
        let wait = options.wait
        let scope = ReaderScope(reader: options.reader, verbose: options.verbose, copy: copy)
        let status = try await scope.run(prompt: prompt, deadline: .now + wait, firstPrompt: first) { session in
            await handle(session, prompt: prompt, first: first, copy: copy, writeCopy: writeCopy)
        }
        if let status { throw status }
    }

    private func handle(_ session: ScanSession, prompt: PromptLine, first: String, copy: any ScanCopyCatalog,
                        writeCopy: any WriteCopyCatalog) async -> ExitCode? {
        let secondsLeft: @Sendable (Int) -> String = { copy.secondsLeft($0) }
        var worst: ExitCode?
        for index in 0..<count {
            prompt.show(session.readers.isEmpty ? copy.connectReader : index == 0 ? first : copy.laterPrompt,
                        deadline: .now + options.wait, secondsLeft: secondsLeft)
            let object: DetectedObject, reader: any Reader
            do { (object, reader) = try await session.nextArrival(timeout: options.wait) } catch {
                prompt.clear()
                let (message, status, _) = ScanCommand.explain(error, copy: copy)
                fail(message, ending: .timedOut, detail: error.description, place: nil)
                return status
            }
            prompt.show(action.map(writeCopy.busy) ?? copy.reading, deadline: nil, secondsLeft: secondsLeft)
            let place = ObjectPlace(object: object, reader: reader)
            let result: Result<Outcome, TagWriteError>
            do { result = .success(try await object.perform(operation)) } catch { result = .failure(error) }
            await object.release()
            prompt.clear()
            switch result {
            case .success(let outcome):
                if options.verbose { printError("nfcscan: \(place.summary) on \(reader.name)") }
                success(outcome, place)
            case .failure(let error):
                let ending = WriteEnding(error)
                fail(sentence(for: ending, copy: copy, writeCopy: writeCopy), ending: ending, detail: error.description, place: place)
                worst = Self.status(for: ending)
                if count == 1 { return worst }
            }
        }
        return worst
    }

    /// The person's sentence for an ending: a write's own, or the reading copy's when only looking.
    private func sentence(for ending: WriteEnding, copy: any ScanCopyCatalog, writeCopy: any WriteCopyCatalog) -> String {
        if let action { return writeCopy.writeEnded(ending, action) }
        switch ending {
        case .movedAwayTooSoon: return copy.movedAwayTooSoon
        case .unsupported: return copy.unsupportedObject
        default: return copy.readFailed
        }
    }

    /// The sentence on standard error (with --verbose, the cause); with --json, a report on
    /// standard output too.
    private func fail(_ message: String, ending: WriteEnding, detail: String, place: ObjectPlace?) {
        printError(message)
        if options.verbose { printError("nfcscan: \(detail)") }
        if options.json {
            var fields: [ReportValue.Field] = [.init("ending", .string(ending.rawValue)), .init("error", .string(detail))]
            if let place { fields.append(.init("object", place.identity)) }
            writeLine(JSONWriter.string(.object(fields)))
        }
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
        case .unsupported: ExitStatus.cannotWrite
        }
    }
}

/// Which object was handled, on which reader (for reports).
struct ObjectPlace: Sendable {
    var identifier: [UInt8]
    var platform: TagPlatform?
    var readerName: String
    var backend: ReaderBackend

    init(object: DetectedObject, reader: any Reader) {
        identifier = object.identifier
        platform = object.platform
        readerName = reader.name
        backend = reader.backend
    }

    /// Developer-facing identity for `--json` (technical names are fine there).
    var identity: ReportValue {
        var fields: [ReportValue.Field] = [.init("uid", .string(ScannedObject.hex(identifier)))]
        if let platform { fields.append(.init("platform", .string(platform.rawValue))) }
        fields += [.init("reader", .string(readerName)), .init("backend", .string(backend.rawValue))]
        return .object(fields)
    }

    var summary: String { "\(platform?.rawValue ?? "object") \(ScannedObject.hex(identifier))" }
}
