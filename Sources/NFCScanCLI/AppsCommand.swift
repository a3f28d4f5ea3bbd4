import ArgumentParser
import CommandLineIO
import DBusValues
import NDEFReport
import NFCBusAPI
import NFCCopy
import NFCScanKit
import Systemd

/// `nfcscan apps`: the apps nfcscand may send objects to, running and installed, with their filters.
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "List the apps that receive objects, with their filters.",
        discussion: """
            Asks nfcscand (ListApps on org.nfcscan.Scanner1) for every app it may send an object to: \
            apps running now that registered (RegisterHandler), and installed apps whose desktop \
            entry declares filters (X-NFCScan-Filters), started when an object is chosen for them \
            (through D-Bus activation or their Exec line). One line per app, then one per filter \
            (RegisterHandler's keys), then each desktop entry whose declaration is ignored, with \
            its file, line and why. --json prints {"apps": [{"app_name", "desktop_entry", \
            "running", "registration" | "file" and "launch", "filters": [{key: value}]}], \
            "refused": ["path:line: why"]}.

            Exit status: 0; 69 when nfcscand is not running.
            """
    )

    @Flag(help: "Print JSON instead of lines.")
    var json = false

    func run() async throws {
        let off = ScanCopy.catalog(for: .preferred()).backgroundServiceOff
        guard let bus = try? BusConnection.session() else {
            printError(off)
            throw ExitCode(69) // EX_UNAVAILABLE: the service is not there
        }
        defer { bus.close() }
        guard await DaemonScanSession.daemonIsRunning(on: bus),
              let reply = try? await bus.call(destination: DaemonScanSession.busName, path: ScannerAPI.path,
                                              interface: ScannerAPI.interface, member: "ListApps", [], timeout: .seconds(5)),
              reply.count == 2, let apps = reply[0].arrayValue, let refused = reply[1].arrayValue else {
            printError(off)
            throw ExitCode(69) // EX_UNAVAILABLE: the service is not there
        }
        let listed = apps.compactMap { $0.stringKeyedValue }.map(App.init)
        let refusals = refused.compactMap(\.stringValue)
        if json {
            writeLine(JSONWriter.string(.object([
                .init("apps", .array(listed.map(\.report))),
                .init("refused", .array(refusals.map { .string($0) })),
            ])))
            return
        }
        for app in listed {
            writeLine(app.line)
            for filter in app.filters { writeLine("  " + App.show(filter)) }
        }
        for refusal in refusals { writeLine("ignored: " + DisplayText.sanitized(refusal, maxCharacters: 400)) }
    }

    /// One entry of ListApps.
    struct App {
        var name: String
        var desktopEntry: String?
        var running: Bool
        var registration: Int?
        var file: String?
        var launch: String?
        var filters: [[(String, String)]]

        init(_ fields: [String: DBusValue]) {
            name = fields["app-name"]?.stringValue ?? ""
            desktopEntry = fields["desktop-entry"]?.stringValue
            running = fields["running"]?.boolValue ?? false
            registration = fields["registration"]?.intValue
            file = fields["file"]?.stringValue
            launch = fields["launch"]?.stringValue
            filters = (fields["filters"]?.arrayValue ?? []).map { filter in
                (filter.stringKeyedValue ?? [:]).compactMap { key, value in value.stringValue.map { (key, $0) } }
                    .sorted { App.keyOrder($0.0) < App.keyOrder($1.0) }
            }
        }

        /// RegisterHandler's keys in the documented order.
        static func keyOrder(_ key: String) -> Int {
            ["uri-scheme", "uri-host", "uri-path-prefix", "media-type", "external-type", "android-package"].firstIndex(of: key) ?? 99
        }

        static func show(_ filter: [(String, String)]) -> String {
            DisplayText.sanitized(filter.map { "\($0.0)=\($0.1)" }.joined(separator: ","), maxCharacters: 400)
        }

        var line: String {
            var parts = [DisplayText.sanitized(name, maxCharacters: 64)]
            if let desktopEntry { parts.append("(\(DisplayText.sanitized(desktopEntry, maxCharacters: 255)))") }
            if let registration {
                parts.append("running, registration \(registration)")
            } else {
                parts.append(running ? "installed and running" : "installed")
                if let launch { parts.append(launch == "dbus-activation" ? "started through D-Bus" : "started with its Exec line") }
                if let file { parts.append(DisplayText.sanitized(file, maxCharacters: 400)) }
            }
            return parts.joined(separator: "  ")
        }

        var report: ReportValue {
            var fields: [ReportValue.Field] = [.init("app_name", .string(name))]
            if let desktopEntry { fields.append(.init("desktop_entry", .string(desktopEntry))) }
            fields.append(.init("running", .bool(running)))
            if let registration { fields.append(.init("registration", .int(registration))) }
            if let file { fields.append(.init("file", .string(file))) }
            if let launch { fields.append(.init("launch", .string(launch))) }
            fields.append(.init("filters", .array(filters.map { .object($0.map { .init($0.0, .string($0.1)) }) })))
            return .object(fields)
        }
    }
}
