import ArgumentParser
import NFCCopy
import NFCScanKit
import Systemd

extension ScanCommand {
    /// The language of every sentence nfcscan (and nfcscand for it) prints: LANGUAGE, LC_ALL,
    /// LC_MESSAGES, LANG; English otherwise.
    var language: ScanCopy.Language { .preferred() }

    /// The scan as a client of nfcscand (an in-app scan session): the daemon owns the readers,
    /// so nfcscan asks it for the objects instead of opening them. The prompts come from the
    /// session (the same catalog); the exit statuses are those of a direct scan.
    func scanThroughDaemon(_ bus: BusConnection, copy: any ScanCopyCatalog) async -> ExitCode? {
        let wanted = continuous ? Int.max : count
        // A session lasts at most an hour; --continuous without --timeout starts the next one.
        let seconds = timeout.map { max(1, min(3600, Int($0.rounded(.up)))) } ?? (continuous ? 3600 : 60)
        let prompt = PromptLine()
        let secondsLeft: @Sendable (Int) -> String = { [copy] in copy.secondsLeft($0) }
        var read = 0
        while read < wanted {
            let session: DaemonScanSession
            do {
                session = try await DaemonScanSession.start(
                    .init(object: object, multiple: wanted > 1, timeout: seconds, language: language, password: password.bytes), on: bus)
            } catch .remote(name: "org.nfcscan.Error.RadioDisabled", let message) {
                fail(copy.radioDisabled, ending: .failed, detail: "nfcscand refused the scan session: \(message)")
                return ExitStatus.noReader
            } catch {
                fail(copy.readerBusy, ending: .failed, detail: "nfcscand refused the scan session: \(error)")
                return ExitStatus.readerBusy
            }
            let deadline = ContinuousClock.now + .seconds(seconds)
            var alert: String?
            // The session's looking again (a read failed) shows its prompt again; its first
            // "active" (right after the first prompt) would only repeat it on a plain line.
            var reading = false
            for await event in session {
                switch event {
                case .alertMessage(let text) where text == copy.passwordRequired || text == copy.wrongPassword:
                    // The object needs its password (or refused the one given): said as a direct scan says it.
                    prompt.clear()
                    let ending: WriteEnding = text == copy.passwordRequired ? .passwordRequired : .wrongPassword
                    fail(ObjectChange.hinted(text, ending, copy: copy), ending: ending,
                         detail: "nfcscand could not read the object without its password")
                    guard wanted > 1 else {
                        session.invalidate()
                        return ExitStatus.password
                    }
                case .alertMessage(let text):
                    alert = text
                    prompt.show(text, deadline: deadline, secondsLeft: secondsLeft)
                case .reading(true):
                    reading = true
                    prompt.show(copy.reading, deadline: nil, secondsLeft: secondsLeft)
                case .reading(false):
                    if reading, let alert { prompt.show(alert, deadline: deadline, secondsLeft: secondsLeft) }
                    reading = false
                case .detected(let scanned):
                    prompt.clear()
                    read += 1
                    print(scanned, copy: copy)
                    if read >= wanted { session.invalidate() }
                case .ended(let reason, let message):
                    prompt.clear()
                    switch reason {
                    case "first-read":
                        break
                    case "user-canceled" where read >= wanted:
                        break
                    case "timeout" where continuous && timeout == nil:
                        break
                    case "timeout":
                        fail(message.isEmpty ? copy.timedOut : message, ending: .timedOut, detail: "the scan session timed out")
                        return ExitStatus.timedOut
                    case "radio-disabled":
                        fail(message.isEmpty ? copy.radioDisabled : message, ending: .failed, detail: "airplane mode ended the scan session")
                        return ExitStatus.noReader
                    case "unavailable":
                        fail(message.isEmpty ? copy.noReader : message, ending: .failed, detail: "nfcscand has no reader")
                        printError(copy.noReaderHelp)
                        return ExitStatus.noReader
                    default:
                        fail(message.isEmpty ? copy.readerFailed : message, ending: .failed, detail: "nfcscand ended the scan session: \(reason)")
                        return ExitStatus.readFailed
                    }
                }
            }
        }
        return nil
    }
}
