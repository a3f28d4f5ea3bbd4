import ArgumentParser
import CommandLineIO
import DBusValues
import NDEFReport
import NFCBusAPI
import NFCCopy
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
            {"running", "background_reading", "paused_reasons", "conditions", "notifications"} with the daemon's \
            stable codes: reasons no-reader, scan-session, reader-in-use, camera, airplane-mode, \
            locked-after-restart, screen-off; conditions {"camera": "clear"|"holds"|"unknown"|"ignored", ...}; \
            notifications "available" or "unavailable" (no notification service runs: what is read is \
            not offered; only while nfcscand runs). Without nfcscand it says how to start it.

            On a station publishing to an MQTT broker ([broker] in nfcscand.conf) it also says \
            whether the broker is reached, how many scans wait to be sent and how many were \
            dropped; --json adds "broker": {"station", "connected", "pending", "dropped", \
            "last_error"} (last_error only after a failure).

            Exit status: 0 (also when nfcscand is not running: that is an answer).
            """
    )

    @Flag(help: "Print JSON with the daemon's reason codes instead of sentences.")
    var json = false

    func run() async throws {
        let copy = ScanCopy.catalog(for: .preferred())
        guard let bus = try? BusConnection.session() else {
            return show(running: false, reading: false, reasons: [], conditions: [:], broker: nil, notifications: true, copy: copy)
        }
        defer { bus.close() }
        guard await DaemonScanSession.daemonIsRunning(on: bus),
              let reply = try? await bus.call(destination: DaemonScanSession.busName, path: ScannerAPI.path,
                                              interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                                              [.string(ScannerAPI.interface)], timeout: .seconds(5)),
              let properties = reply.first?.stringKeyedValue else {
            return show(running: false, reading: false, reasons: [], conditions: [:], broker: nil, notifications: true, copy: copy)
        }
        let reasons = properties["PausedReasons"]?.arrayValue?.compactMap(\.stringValue) ?? []
        var conditions: [String: String] = [:]
        for entry in properties["Conditions"]?.stringKeyedValue ?? [:] { conditions[entry.key] = entry.value.stringValue }
        show(running: true, reading: properties["BackgroundReading"]?.boolValue ?? false, reasons: reasons,
             conditions: conditions, broker: Broker(properties["Broker"]),
             notifications: properties["Notifications"]?.stringValue != "unavailable", copy: copy)
    }

    /// The daemon's `Broker` property; nil when it has no [broker] (an empty dictionary) or an
    /// older daemon has no such property.
    struct Broker {
        var station: String
        var connected: Bool
        var pending: Int
        var dropped: Int
        var lastError: String?

        init?(_ value: DBusValue?) {
            guard let fields = value?.stringKeyedValue, let station = fields["station"]?.stringValue else { return nil }
            self.station = station
            connected = fields["connected"]?.boolValue ?? false
            pending = fields["pending"]?.intValue ?? 0
            dropped = fields["dropped"]?.intValue ?? 0
            lastError = fields["last-error"]?.stringValue
        }

        var report: ReportValue {
            var fields: [ReportValue.Field] = [
                .init("station", .string(station)), .init("connected", .bool(connected)),
                .init("pending", .int(pending)), .init("dropped", .int(dropped)),
            ]
            if let lastError { fields.append(.init("last_error", .string(lastError))) }
            return .object(fields)
        }
    }

    private func show(running: Bool, reading: Bool, reasons: [String], conditions: [String: String], broker: Broker?,
                      notifications: Bool, copy: any ScanCopyCatalog) {
        if json {
            var fields: [ReportValue.Field] = [
                .init("running", .bool(running)), .init("background_reading", .bool(reading)),
                .init("paused_reasons", .array(reasons.map(ReportValue.string))),
                .init("conditions", .object(conditions.sorted { $0.key < $1.key }.map { .init($0.key, .string($0.value)) })),
            ]
            if running { fields.append(.init("notifications", .string(notifications ? "available" : "unavailable"))) }
            if let broker { fields.append(.init("broker", broker.report)) }
            writeLine(JSONWriter.string(.object(fields)))
            return
        }
        guard running else {
            writeLine(copy.backgroundServiceOff)
            return writeLine(copy.backgroundServiceStart)
        }
        let sentences = reading && reasons.isEmpty ? [copy.backgroundOn]
            : reasons.map { BackgroundPause(rawValue: $0).map(copy.backgroundPaused) ?? copy.backgroundPausedOther }
        var seen = Set<String>()
        for sentence in (sentences.isEmpty ? [copy.backgroundPausedOther] : sentences) where seen.insert(sentence).inserted {
            writeLine(sentence)
        }
        // Reading with nothing to show what was read: what is read is never offered.
        if !notifications {
            writeLine(copy.notificationsUnavailable)
            writeLine(copy.notificationsHelp)
        }
        // What does not pause scanning here, though it would elsewhere.
        for condition in BackgroundPause.systemConditions {
            switch conditions[condition.rawValue].flatMap(ConditionState.init(rawValue:)) {
            case .unknown?: writeLine(copy.backgroundUnchecked(condition))
            case .ignored?: writeLine(copy.backgroundIgnoring(condition))
            default: break
            }
        }
        if let broker {
            // The station's name is the configuration's: shown as plain text, never as escapes.
            writeLine(broker.connected ? copy.brokerConnected(station: DisplayText.sanitized(broker.station)) : copy.brokerDisconnected)
            if broker.pending > 0 { writeLine(copy.brokerWaiting(broker.pending)) }
            if broker.dropped > 0 { writeLine(copy.brokerDropped(broker.dropped)) }
        }
    }
}
