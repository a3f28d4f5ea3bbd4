import ArgumentParser
import CMalloc
import DesktopEntries
import FoundationEssentials
import Glibc
import Logging
import NFCBusAPI
import NFCCopy
import NFCDaemon
import ServiceLifecycle
import Systemd

/// `nfcscand`: the background service. Normally started by systemd (nfcscand.service) or by
/// D-Bus activation; runs in the foreground until SIGTERM or SIGINT.
struct NFCScanDaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nfcscand",
        abstract: "Notice objects held near a reader and offer what they hold to apps.",
        discussion: """
            nfcscand owns the readers (libnfc devices and pcscd's readers), looks for objects in \
            the background, and when one holds something an app asked for (or a web link), shows \
            a desktop notification; choosing it sends the object to that app (or opens the link \
            in the browser). Apps use its D-Bus API, org.nfcscan.Scanner1 on the session bus \
            (Docs/dbus-api.md).

            It is meant to run as a systemd user service: systemctl --user enable --now nfcscand
            Logs go to the journal under systemd (journalctl --user -u nfcscand), else to stderr.

            Background reading pauses while an app scans, another program uses the reader, a \
            camera is in use, airplane mode is on, the session is locked since the computer \
            started, or the screen is off (Docs/conditions.md); `nfcscan status` says which. \
            Sources it cannot reach (no logind, no rfkill) leave their condition unknown. A kiosk \
            can switch conditions off in the configuration file:

              ~/.config/nfcscan/nfcscand.conf
              [background]
              ignore = screen-off, locked-after-restart

            With a [broker] section (url = mqtt://host:port, station, publish = records or \
            identity, …) every object read in the background is published to that MQTT broker, \
            kept in $XDG_STATE_HOME/nfcscan/spool until the broker has it.

            Environment: DBUS_SESSION_BUS_ADDRESS and DBUS_SYSTEM_BUS_ADDRESS (the buses), \
            LIBNFC_DEVICE and PCSCLITE_CSOCK_NAME (which readers), XDG_CONFIG_HOME (the \
            configuration), XDG_RUNTIME_DIR (where an unlock since boot is remembered), \
            XDG_STATE_HOME (the broker's spool), BROWSER \
            (read by xdg-open when no desktop portal runs).

            Exit statuses: 0 stopped by SIGTERM/SIGINT, 64 usage error, 69 no session bus, \
            75 another nfcscand owns org.nfcscan.Scanner1, 78 a mistake in the configuration file. \
            Losing the session bus connection later exits 69 too, so that systemd restarts it.
            """,
        version: "nfcscand \(ScannerAPI.version)")

    @Option(help: ArgumentHelp(
        "Use only this reader: a libnfc connstring (pn532_uart:/dev/ttyUSB0) or pcscd's reader name, or part of either.",
        valueName: "name"))
    var reader: String?

    @Option(name: .customLong("camera-devices"), help: ArgumentHelp(
        "Pause background reading while any of these device nodes is open (a glob; \"\" watches none: the camera condition is then unknown).",
        valueName: "glob"))
    var cameraDevices = "/dev/video*"

    @Option(name: .customLong("rfkill-device"), help: ArgumentHelp(
        "Pause background reading (and scans) while every radio this device reports is blocked: airplane mode (\"\" watches none: without NetworkManager airplane mode is then unknown).",
        valueName: "path"))
    var rfkillDevice = "/dev/rfkill"

    @Option(name: .customLong("peer-timeout"), help: ArgumentHelp(
        "How long the notification server, an app taking an object, the desktop portal or the link opener may take to answer before nfcscand gives up on that one request (default: 5 s for notifications, 10 s for the others).",
        valueName: "seconds"))
    var peerTimeout: Double?

    @Option(help: ArgumentHelp("The configuration file (default: $XDG_CONFIG_HOME/nfcscan/nfcscand.conf).", valueName: "path"))
    var config: String?

    @Flag(name: .shortAndLong, help: "Log every step (debug level).")
    var verbose = false

    @Option(name: .customLong("link-opener"), help: ArgumentHelp(
        "The program that opens web links when no desktop portal answers.", valueName: "program"))
    var linkOpener = "xdg-open"

    @Option(help: ArgumentHelp(
        "Show nfcscand's own scan sheet for every app's session, and ask before a sandboxed app's first session and before any write: auto (on a display, where nfcscan-sheet is installed), never (a kiosk: nothing is asked; see Docs/apps.md), or the sheet program's absolute path.",
        valueName: "auto|never|path"))
    var sheet: SheetChoice = .auto

    func validate() throws {
        if let peerTimeout, !(0.1...3600).contains(peerTimeout) {
            throw ValidationError("--peer-timeout takes seconds between 0.1 and 3600")
        }
    }

    func run() async throws {
        // Large blocks (a hostile caller's message, which sd-bus reads whole before nfcscand
        // refuses it) always from mmap, so that they go back to the system when freed. Left to
        // itself glibc raises this threshold to the largest block freed (up to 32 MiB), and
        // blocks below it stay in the heap once freed: resident memory would not come back.
        _ = mallopt(M_MMAP_THRESHOLD, 256 * 1024)
        // A pipe whose reader is gone answers a write with EPIPE, never with a signal that ends
        // the daemon: the scan sheet's program (SheetHost) may stop reading, crash or be killed
        // just before a view is written to it. (systemd ignores SIGPIPE for its services already;
        // nfcscand started any other way did not.) Children get every signal at its default
        // (ChildProcess.spawn).
        _ = signal(SIGPIPE, SIG_IGN)
        let level: Logger.Level = verbose ? .debug : .info
        LoggingSystem.bootstrap { DaemonLogHandler(label: $0, level: level) }
        let logger = Logger(label: "nfcscand")
        // Every language's words now, before the daemon starts anything that runs beside it:
        // reading a catalog sets LANGUAGE for a moment (NFCCopy's Gettext). A scan session may
        // ask for any language.
        CopyTranslations.loadAll()
        for language in ScanCopy.Language.allCases where language != .english && CopyTranslations.of(language).file == nil {
            logger.notice("\(language.rawValue) reads English: no \(language.catalogName)/LC_MESSAGES/nfcscan.mo in NFCSCAN_LOCALEDIR, the share/locale beside the program or /usr/share/locale (or no C.UTF-8 locale to read it with)")
        }
        let bus: BusConnection
        do {
            bus = try BusConnection.session()
        } catch {
            logger.error("\(error); nfcscand needs the desktop session's bus (DBUS_SESSION_BUS_ADDRESS)")
            throw ExitCode(69)
        }
        let settingsPath = config ?? DaemonSettings.defaultPath()
        let settings: DaemonSettings
        do {
            settings = try DaemonSettings.load(from: settingsPath)
        } catch {
            logger.error("\(error); fix the file or move it away, then start nfcscand again")
            throw ExitCode(78)
        }
        if !settings.ignoredConditions.isEmpty {
            logger.notice("\(settingsPath): never pausing for \(settings.ignoredConditions.map(\.rawValue).sorted())")
        }
        if settings.notGenuine == .refuse {
            logger.notice("\(settingsPath): objects whose chip is not genuine are refused")
        }
        // A station (issue 15): the publisher observes the core and runs its connection beside it.
        let publisher = settings.broker.map { BrokerPublisher(settings: $0, password: settings.brokerPassword, logger: logger) }
        // Without a system bus (containers, some test rigs) logind's and NetworkManager's conditions are unknown.
        let systemBus = try? BusConnection.system()
        let environment = ProcessInfo.processInfo.environment
        let (sheetProgram, noSheet) = sheet.program(environment: environment, executable: SheetChoice.ownExecutable)
        if let sheetProgram {
            logger.info("sessions show the scan sheet (\(sheetProgram))")
        } else {
            logger.notice("no scan sheet: \(noSheet); sessions run without asking the person, and sandboxed apps need a kept grant")
        }
        let daemon = Daemon(bus: bus, systemBus: systemBus,
                            configuration: .init(wantedReader: reader, linkOpener: linkOpener, language: .preferred(),
                                                 cameraDevices: cameraDevices.isEmpty ? nil : cameraDevices,
                                                 rfkillDevice: rfkillDevice.isEmpty ? nil : rfkillDevice,
                                                 runtimeDirectory: ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"],
                                                 ignoredConditions: settings.ignoredConditions,
                                                 observers: publisher.map { [$0] } ?? [],
                                                 deadlines: peerTimeout.map { EffectDeadlines(all: .milliseconds(Int($0 * 1000))) } ?? .init(),
                                                 applications: ApplicationDirectories(environment: ProcessInfo.processInfo.environment),
                                                 mimeApps: MimeAppsList.searchPath(environment: ProcessInfo.processInfo.environment),
                                                 searchPath: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
                                                 sheetProgram: sheetProgram,
                                                 webHosts: WebHostExecutables.beside(SheetChoice.ownExecutable),
                                                 notGenuine: settings.notGenuine),
                            logger: logger)
        publisher?.reportStatus { [daemon] in daemon.brokerChanged($0) }
        let watches: [any Service]
        do {
            watches = try daemon.start()
        } catch .nameTaken(let name) {
            logger.error("another nfcscand already serves \(name) on this session bus")
            throw ExitCode(75)
        } catch {
            logger.error("cannot serve the D-Bus API: \(error)")
            throw ExitCode(69)
        }
        ServiceManager.ready(status: "Looking for objects")
        // A graceful shutdown stops the services in reverse: the condition watches first, then
        // the daemon (sessions end, offers are withdrawn, readers released) while the watchdog
        // still asks for pings, then the broker publisher (its last events, a clean offline),
        // then the buses are closed.
        let buses: [any Service] = [BusService(bus)] + (systemBus.map { [BusService($0)] } ?? [])
        let watchdog: [any Service] = WatchdogService(daemon: daemon).map { [$0] } ?? []
        let group = ServiceGroup(services: buses + watchdog + (publisher.map { [$0] } ?? []) + [daemon] + watches,
                                 gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        do {
            try await group.run()
        } catch let lost as BusService.Lost {
            logger.critical("\(lost); exiting so that nfcscand is started again (systemd restarts it, D-Bus activation starts it on the next call)")
            throw ExitCode(69)
        }
    }
}
