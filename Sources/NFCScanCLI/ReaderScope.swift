import ArgumentParser
import Foundation
import CommandLineIO
import NDEFReport
import NFCObjects
import NFCCopy
import NFCReaders
import NFCScanKit

/// The readers a command works with, opened the way every nfcscan command opens them: every
/// reader found (or the one `--reader` names), following hotplug, and — when none is there yet —
/// asking for one and waiting until the time is up. A problem that names a cause (permissions, a
/// busy reader) ends the command at once.
struct ReaderScope {
    var reader: String?
    var verbose: Bool
    /// A failure also prints its `--json` ending on standard output.
    var json = false
    var copy: any ScanCopyCatalog
    /// How long a busy reader is tried again (one nfcscand is letting go of); zero: not at all.
    var busyGrace: Duration = .zero

    /// Opens the readers and runs `body` with a session over them beside the session's own work;
    /// closes everything after. `firstPrompt` is shown once a reader appears when there was none.
    func run<T: Sendable>(prompt: PromptLine, deadline: ContinuousClock.Instant?, firstPrompt: String,
                          _ body: (ScanSession) async -> T) async throws -> T {
        let directory = ReaderDirectory.standard()
        let readers: [any Reader], problems: [ReaderError]
        var noneYet: ReaderError?
        let retryUntil = ContinuousClock.now + busyGrace
        do {
            (readers, problems) = try await Self.open(directory, named: reader, retryingBusyUntil: retryUntil)
        } catch {
            guard ReaderDirectory.absence(error) != nil else {
                let (message, status) = ScanCommand.explain(error, copy: copy)
                printError(message)
                if verbose { printError("nfcscan: \(error.description)") }
                if json { writeLine(JSONWriter.string(EndingReport.report(.failed, error: error.description))) }
                throw status
            }
            (readers, problems, noneYet) = ([], [], error)
            if verbose { printError("nfcscan: \(error.description); waiting for a reader to appear") }
        }
        let verbose = verbose, copy = copy
        let askedForReader = noneYet != nil
        let secondsLeft: @Sendable (Int) -> String = { copy.secondsLeft($0) }
        let session = ScanSession(readers: readers, directory: directory, wanted: reader, noneYet: noneYet, added: { added in
            if verbose { printError("nfcscan: using \(added.backend.rawValue) reader \(added.name) (it appeared)") }
            // The person was asked to connect a reader: now ask for the object.
            if askedForReader { prompt.show(firstPrompt, deadline: deadline, secondsLeft: secondsLeft) }
        }, checks: .forUser(environment: ProcessInfo.processInfo.environment, problem: { printError("nfcscan: " + $0) }))
        if verbose {
            noteProblems(problems)
            for reader in readers { printError("nfcscan: using \(reader.backend.rawValue) reader \(reader.name)") }
        }
        async let following: Void = session.run()
        let result = await body(session)
        await session.close()
        await following
        return result
    }

    /// Opens the readers, trying again while one is busy until `until`.
    private static func open(_ directory: ReaderDirectory, named reader: String?,
                             retryingBusyUntil until: ContinuousClock.Instant) async throws(ReaderError) -> ([any Reader], [ReaderError]) {
        while true {
            do {
                let (readers, problems) = try await directory.openAll(named: reader)
                let busy = problems.contains { if case .busy = $0 { true } else { false } }
                guard busy, ContinuousClock.now < until else { return (readers, problems) }
                for reader in readers { await reader.close() }
            } catch .busy where ContinuousClock.now < until {
                // nfcscand has not closed it yet: try again.
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }
}
