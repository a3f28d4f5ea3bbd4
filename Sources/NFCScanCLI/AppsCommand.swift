import AppIdentity
import ArgumentParser
import CommandLineIO
import DBusValues
import NDEFReport
import NFCBusAPI
import NFCCopy
import NFCObjects
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
            its file, line and why (with none of these, a line saying so). --json prints {"apps": [{"app_name", "desktop_entry", \
            "running", "registration" | "file" and "launch", "filters": [{key: value}]}], \
            "refused": ["path:line: why"]}.

            Then the answers the person gave on nfcscand's sheet, as the desktop's permission store \
            keeps them (table nfcscan, id objects: the same grants `flatpak permission-show APP` \
            lists): `allowed: APP` or `not allowed: APP`, where APP is an app ID (or, for an app \
            with none, its program's path), or a web site's origin (https://example.com: a page \
            using Web NFC through nfcscan's browser extension, Docs/web-nfc.md). --allow APP and \
            --deny APP set one; --revoke APP forgets it, so a sandboxed app or a site is asked \
            again (Docs/apps.md). These need only the permission store (xdg-permission-store), \
            not nfcscand; it sees the change at once.

            Examples:
              nfcscan apps --revoke https://example.com
              nfcscan apps --deny org.example.Posters

            Exit status: 0; 69 when nfcscand is not running (or, for --allow, --deny and \
            --revoke, when there is no permission store).
            """
    )

    @Flag(help: "Print JSON instead of lines.")
    var json = false

    @Option(help: ArgumentHelp("Let this app use the reader without being asked (an app ID, a program's path, or a site: https://example.com).", valueName: "app"))
    var allow: String?

    @Option(help: ArgumentHelp("Refuse this app at once, without asking.", valueName: "app"))
    var deny: String?

    @Option(help: ArgumentHelp("Forget the answer kept for this app: a sandboxed app is asked again.", valueName: "app"))
    var revoke: String?

    func validate() throws {
        let given = [allow, deny, revoke].compactMap { $0 }
        guard given.count <= 1 else { throw ValidationError("give one of --allow, --deny and --revoke") }
        if let app = given.first, app.isEmpty || app.utf8.count > PermissionTable.maximumKeyLength || app.contains(where: \.isNewline) {
            throw ValidationError("the app is an app ID (org.example.App), a program's path or a site (https://example.com), on one line")
        }
        if let app = given.first, app.contains("://"), Self.site(app) == nil {
            throw ValidationError("a site is its origin: https://example.com, or http://localhost:8080 (no path)")
        }
    }

    /// A site as the person may type it (`https://Example.com/`) as the store keeps it (`https://example.com`).
    static func site(_ text: String) -> String? {
        var origin = text.lowercased()
        if origin.hasSuffix("/") { origin.removeLast() }
        return WebOrigin(origin)?.serialized
    }

    func run() async throws {
        if let app = allow ?? deny ?? revoke { return try await change(Self.site(app) ?? app) }
        let copy = ScanCopy.catalog(for: .preferred())
        let off = copy.backgroundServiceOff + "\n" + copy.backgroundServiceStart
        guard let bus = try? BusConnection.session() else { throw serviceAbsent(off, "no session bus") }
        defer { bus.close() }
        guard await DaemonScanSession.daemonIsRunning(on: bus),
              let reply = try? await bus.call(destination: DaemonScanSession.busName, path: ScannerAPI.path,
                                              interface: ScannerAPI.interface, member: "ListApps", [], timeout: .seconds(5)),
              reply.count == 2, let apps = reply[0].arrayValue, let refused = reply[1].arrayValue else {
            throw serviceAbsent(off, "nfcscand is not running on the session bus")
        }
        let listed = apps.compactMap { $0.stringKeyedValue }.map(App.init)
        let refusals = refused.compactMap(\.stringValue)
        // None when there is no store, or no table yet.
        let grants = (try? await PermissionStore.lookup(bus: bus, deadline: .seconds(5)).get()) ?? [:]
        if json {
            writeLine(JSONWriter.string(.object([
                .init("apps", .array(listed.map(\.report))),
                .init("refused", .array(refusals.map { .string($0) })),
                .init("grants", .object(grants.sorted { $0.key < $1.key }.map { .init($0.key, .string($0.value.rawValue)) })),
            ])))
            return
        }
        if listed.isEmpty && refusals.isEmpty && grants.isEmpty {
            writeLine("No app receives objects yet: an app registers while it runs (RegisterHandler), or declares filters in its desktop entry (X-NFCScan-Filters); see Docs/apps.md.")
        }
        for app in listed {
            writeLine(app.line)
            for filter in app.filters { writeLine("  " + App.show(filter)) }
        }
        for refusal in refusals { writeLine("ignored: " + DisplayText.sanitized(refusal, maxCharacters: 400)) }
        for (app, grant) in grants.sorted(by: { $0.key < $1.key }) {
            writeLine("\(Self.label(grant)): \(DisplayText.sanitized(app, maxCharacters: 255))")
        }
    }

    /// The person's sentences on standard error and, with --json, the failure as every command's
    /// (Docs/schemas/ending.schema.json); EX_UNAVAILABLE: the service is not there.
    private func serviceAbsent(_ sentences: String, _ detail: String) -> ExitCode {
        printError(sentences)
        if json { writeLine(JSONWriter.string(EndingReport.report(.failed, error: detail))) }
        return ExitCode(69)
    }

    /// --allow, --deny, --revoke: the permission store's entry for `app`.
    private func change(_ app: String) async throws {
        guard let bus = try? BusConnection.session() else {
            printError("nfcscan apps: no session bus (DBUS_SESSION_BUS_ADDRESS)")
            throw ExitCode(69)
        }
        defer { bus.close() }
        let grant: AppGrant? = allow != nil ? .allowed : deny != nil ? .denied : nil
        do {
            if let grant {
                try await PermissionStore.set(grant, for: app, bus: bus, deadline: .seconds(10))
            } else {
                try await PermissionStore.forget(app, bus: bus, deadline: .seconds(10))
            }
        } catch {
            printError("nfcscan apps: the permission store (xdg-permission-store) did not answer: \(error)")
            throw ExitCode(69)
        }
        let shown = DisplayText.sanitized(app, maxCharacters: 255)
        writeLine(grant.map { "\(Self.label($0)): \(shown)" } ?? "forgotten: \(shown)")
    }

    static func label(_ grant: AppGrant) -> String { grant == .allowed ? "allowed" : "not allowed" }

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
