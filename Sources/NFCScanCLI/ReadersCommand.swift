import ArgumentParser
import CommandLineIO
import NDEFReport
import NFCCopy
import NFCReaders
import NFCScanKit

/// `nfcscan readers`: every reader the backends see, with whether it can be used.
struct ReadersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "readers",
        abstract: "List the readers, with their backend and status.",
        discussion: """
            One line per reader: backend (libnfc or pcsc), status, and the reader's name (libnfc: \
            with the connstring to give --reader; pcsc: pcscd's name for it). pcscd not running \
            adds no line (--verbose says so). Each reader is opened briefly to learn its status: ready, busy (held \
            by another program or a kernel driver), no permission, or failed. Exits 69 when there \
            is no reader; --verbose says where nfcscan looked and what to do.

            --json prints {"readers": [{"backend", "name", "status", "kernel_module"}]} with the \
            status as a code: ready, busy, no-permission, pcscd-not-running, failed \
            (Docs/schemas/readers.schema.json); with no reader, an empty list (and exit 69).
            """
    )

    @Flag(help: "Explain every problem (drivers, permissions, configuration) in full.")
    var verbose = false

    @Flag(help: "Print JSON instead of lines.")
    var json = false

    func run() async throws {
        quietLibnfc(unless: verbose)
        let (all, listProblems) = await ReaderDirectory.standard().list()
        // A configured device that is not there (LIBNFC_DEVICE naming a missing port) is no reader.
        let listings = all.filter { if case .noReaderFound? = $0.problem { false } else { true } }
        let problems = listProblems + all.compactMap { if case .noReaderFound? = $0.problem { $0.problem } else { nil } }
        if listings.isEmpty {
            if json { writeLine(JSONWriter.string(.object([.init("readers", .array([]))]))) }
            let copy = ScanCopy.catalog(for: .preferred())
            printError(copy.noReader)
            printError(copy.noReaderHelp)
            if verbose {
                for problem in problems where ReaderDirectory.absence(problem) == nil { printError("nfcscan: \(problem)") }
                // What each backend found, in one sentence: "libnfc listed no device; pcscd is not running (…)".
                printError("nfcscan: \(ReaderDirectory.noReader(problems.filter { ReaderDirectory.absence($0) != nil }))")
            }
            throw ExitStatus.noReader
        }
        if verbose { noteProblems(listProblems) }
        var reports: [ReportValue] = []
        for listing in listings {
            let status: String, module: String?
            switch listing.problem {
            case nil: (status, module) = ("ready", nil)
            case .busy?, .heldExclusively?: (status, module) = ("busy", nil)
            case .pcscdNotRunning?: (status, module) = ("pcscd-not-running", nil)
            case .claimedByKernelDriver(_, let name)?: (status, module) = ("busy", name)
            case .permissionDenied?, .pcscAccessDenied?: (status, module) = ("no-permission", nil)
            case .openFailed?, .noReaderFound?, .readerGone?, .backend?, .pcsc?: (status, module) = ("failed", nil)
            }
            let name = listing.name ?? listing.identifier
            if json {
                var fields: [ReportValue.Field] = [.init("backend", .string(listing.backend.rawValue)), .init("name", .string(name)),
                                                   .init("status", .string(status))]
                if let module { fields.append(.init("kernel_module", .string(module))) }
                reports.append(.object(fields))
            } else {
                let words = String(status.map { $0 == "-" ? " " : $0 }) + (module.map { " (kernel module \($0))" } ?? "")
                writeLine("\(listing.backend.rawValue)\t\(words)\t\(name)")
            }
            if verbose, let problem = listing.problem { printError("nfcscan: \(problem)") }
        }
        if json { writeLine(JSONWriter.string(.object([.init("readers", .array(reports))]))) }
    }
}

/// With --verbose, the problems met while some reader could be used: a backend with nothing here
/// in a few words ("pcscd is not running (…)"), anything else explained in full.
func noteProblems(_ problems: [ReaderError]) {
    for problem in problems {
        printError("nfcscan: \(ReaderDirectory.absence(problem) ?? problem.description)")
    }
}
