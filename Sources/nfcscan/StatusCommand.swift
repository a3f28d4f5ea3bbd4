import ArgumentParser
import CommandLineIO
import NDEFReport
import NFCScanKit
import Systemd

/// `nfcscan status`: whether nfcscand reads in the background now, and if not, why, in plain words.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Say whether objects are noticed in the background, and why not.",
        discussion: """
            Asks nfcscand (org.nfcscan.Scanner1 on the session bus) without starting it: whether \
            it runs, whether it looks for objects in the background, and each reason it is paused \
            (a line each); then each condition this computer cannot check (it never pauses \
            scanning) and each one the configuration switches off (kiosks). --json prints \
            {"running", "background_reading", "paused_reasons", "conditions"} with the daemon's \
            stable codes: reasons no-reader, scan-session, reader-in-use, camera, airplane-mode, \
            locked-after-restart, screen-off; conditions {"camera": "clear"|"holds"|"unknown"|"ignored", ...}.

            Exit status: 0 (also when nfcscand is not running: that is an answer).
            """
    )

    @Flag(help: "Print JSON with the daemon's reason codes instead of sentences.")
    var json = false

    func run() async throws {
        let copy = ScanCopy.catalog(for: .preferred())
        guard let bus = try? BusConnection.session() else { return show(running: false, reading: false, reasons: [], conditions: [:], copy: copy) }
        defer { bus.close() }
        guard await DaemonScanSession.daemonIsRunning(on: bus),
              let reply = try? await bus.call(destination: DaemonScanSession.busName, path: "/org/nfcscan/Scanner1",
                                              interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                                              [.string("org.nfcscan.Scanner1")], timeout: .seconds(5)),
              let properties = reply.first?.stringKeyedValue else {
            return show(running: false, reading: false, reasons: [], conditions: [:], copy: copy)
        }
        let reasons = properties["PausedReasons"]?.arrayValue?.compactMap(\.stringValue) ?? []
        var conditions: [String: String] = [:]
        for entry in properties["Conditions"]?.stringKeyedValue ?? [:] { conditions[entry.key] = entry.value.stringValue }
        show(running: true, reading: properties["BackgroundReading"]?.boolValue ?? false, reasons: reasons,
             conditions: conditions, copy: copy)
    }

    private func show(running: Bool, reading: Bool, reasons: [String], conditions: [String: String], copy: any ScanCopyCatalog) {
        if json {
            writeLine(JSONWriter.string(.object([
                .init("running", .bool(running)), .init("background_reading", .bool(reading)),
                .init("paused_reasons", .array(reasons.map(ReportValue.string))),
                .init("conditions", .object(conditions.sorted { $0.key < $1.key }.map { .init($0.key, .string($0.value)) })),
            ])))
            return
        }
        guard running else { return writeLine(copy.backgroundServiceOff) }
        let sentences = reading && reasons.isEmpty ? [copy.backgroundOn]
            : reasons.map { BackgroundPause(rawValue: $0).map(copy.backgroundPaused) ?? copy.backgroundPausedOther }
        var seen = Set<String>()
        for sentence in (sentences.isEmpty ? [copy.backgroundPausedOther] : sentences) where seen.insert(sentence).inserted {
            writeLine(sentence)
        }
        // What does not pause scanning here, though it would elsewhere.
        for condition in BackgroundPause.systemConditions {
            switch conditions[condition.rawValue].flatMap(ConditionState.init(rawValue:)) {
            case .unknown?: writeLine(copy.backgroundUnchecked(condition))
            case .ignored?: writeLine(copy.backgroundIgnoring(condition))
            default: break
            }
        }
    }
}
