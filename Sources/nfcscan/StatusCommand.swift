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
            (a line each). --json prints {"running", "background_reading", "paused_reasons"} with \
            the daemon's stable reason codes (no-reader, scan-session, reader-in-use, ...).

            Exit status: 0 (also when nfcscand is not running: that is an answer).
            """
    )

    @Flag(help: "Print JSON with the daemon's reason codes instead of sentences.")
    var json = false

    func run() async throws {
        let copy = ScanCopy.catalog(for: .preferred())
        guard let bus = try? BusConnection.session() else { return show(running: false, reading: false, reasons: [], copy: copy) }
        defer { bus.close() }
        guard await DaemonScanSession.daemonIsRunning(on: bus),
              let reply = try? await bus.call(destination: DaemonScanSession.busName, path: "/org/nfcscan/Scanner1",
                                              interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                                              [.string("org.nfcscan.Scanner1")], timeout: .seconds(5)),
              let properties = reply.first?.stringKeyedValue else {
            return show(running: false, reading: false, reasons: [], copy: copy)
        }
        let reasons = properties["PausedReasons"]?.arrayValue?.compactMap(\.stringValue) ?? []
        show(running: true, reading: properties["BackgroundReading"]?.boolValue ?? false, reasons: reasons, copy: copy)
    }

    private func show(running: Bool, reading: Bool, reasons: [String], copy: any ScanCopyCatalog) {
        if json {
            writeLine(JSONWriter.string(.object([
                .init("running", .bool(running)), .init("background_reading", .bool(reading)),
                .init("paused_reasons", .array(reasons.map(ReportValue.string))),
            ])))
            return
        }
        guard running else { return writeLine(copy.backgroundServiceOff) }
        if reading, reasons.isEmpty { return writeLine(copy.backgroundOn) }
        let sentences = reasons.map { BackgroundPause(rawValue: $0).map(copy.backgroundPaused) ?? copy.backgroundPausedOther }
        var seen = Set<String>()
        for sentence in (sentences.isEmpty ? [copy.backgroundPausedOther] : sentences) where seen.insert(sentence).inserted {
            writeLine(sentence)
        }
    }
}
