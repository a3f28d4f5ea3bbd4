import DesktopEntries
import Logging
import NFCBusAPI
import NFCCopy
import NFCDispatch
import NFCReaders
import NFCScanKit
import POSIXEvents
import ServiceLifecycle
import Synchronization
import Systemd

/// nfcscand's runtime: turns what happens outside (bus calls, signals, reads, condition reports)
/// into ``DaemonInput``s, hands them one at a time to the ``DaemonCore`` that decides, and does
/// the effects it returns. Its loop never awaits a peer: an effect that talks to one runs as a
/// child task with a deadline, and its outcome comes back as one more input.
///
/// Life: ``start()`` serves the API and takes the bus name (so the caller can tell systemd
/// READY=1, or exit when another nfcscand has the name) and returns the condition watches, which
/// run as services of their own beside it; ``run()`` handles events until ``stop()`` (or a
/// graceful shutdown of its service group) has been carried out.
public final class Daemon: Service, Sendable {
    public struct Configuration: Sendable {
        public var readers: ReaderDirectory
        /// Only this reader (an identifier, a name, or part of one); nil: every reader.
        public var wantedReader: String?
        /// The program that opens web links when no desktop portal answers.
        public var linkOpener: String
        /// The camera's device nodes (a glob); nil: no camera source (the condition is unknown).
        public var cameraDevices: String?
        /// The kernel's radio switches (`/dev/rfkill`); nil: no rfkill source.
        public var rfkillDevice: String?
        /// Where "unlocked since boot" is remembered ($XDG_RUNTIME_DIR); nil: locked-after-restart is unknown.
        public var runtimeDirectory: String?
        /// System conditions that never pause background reading here (the configuration file: kiosks).
        public var ignoredConditions: Set<BackgroundPause>
        /// What happens to an object whose chip is not genuine (the configuration file's `[authenticity]`).
        public var notGenuine: NotGenuinePolicy
        /// The language of notifications, and of sessions that ask for none.
        public var language: ScanCopy.Language
        /// Told of every object detected, offered and delivered (the output seam).
        public var observers: [any DaemonObserver]
        /// How long a notification server, an app's HandleScan, the portal and a link opener may
        /// take before their effect ends unanswered.
        public var deadlines: EffectDeadlines
        /// Where installed apps' desktop entries are followed (their `X-NFCScan-Filters`); nil:
        /// only registered apps receive objects.
        public var applications: ApplicationDirectories?
        /// The mimeapps.list files that name the person's default apps, most important first
        /// (``MimeAppsList/searchPath(environment:)``); read with ``applications``.
        public var mimeApps: [(path: String, desktopSpecific: Bool)]
        /// PATH, where an entry's `TryExec` and `Exec` programs are looked for.
        public var searchPath: String
        /// The scan sheet's program (`nfcscan-sheet`), when there is a display to show it on; nil:
        /// no sheet (a kiosk), so nothing is asked (Docs/apps.md).
        public var sheetProgram: String?
        /// The executables (absolute, symbolic links resolved) of nfcscan's web host, the one
        /// caller trusted to say which web page its sessions are for (issue 22): the `nfcscan`
        /// binary beside nfcscand (Docs/web-nfc.md says how far that trust goes).
        public var webHosts: Set<String>

        public init(readers: ReaderDirectory = .standard(), wantedReader: String? = nil, linkOpener: String = "xdg-open",
                    language: ScanCopy.Language = .english, cameraDevices: String? = nil, rfkillDevice: String? = nil,
                    runtimeDirectory: String? = nil, ignoredConditions: Set<BackgroundPause> = [],
                    observers: [any DaemonObserver] = [], deadlines: EffectDeadlines = .init(),
                    applications: ApplicationDirectories? = nil, mimeApps: [(path: String, desktopSpecific: Bool)] = [],
                    searchPath: String = "/usr/local/bin:/usr/bin:/bin", sheetProgram: String? = nil, webHosts: Set<String> = [],
                    notGenuine: NotGenuinePolicy = .report) {
            self.notGenuine = notGenuine
            self.sheetProgram = sheetProgram
            self.webHosts = webHosts
            self.applications = applications
            self.mimeApps = mimeApps
            self.searchPath = searchPath
            self.readers = readers
            self.wantedReader = wantedReader
            self.linkOpener = linkOpener
            self.language = language
            self.cameraDevices = cameraDevices
            self.rfkillDevice = rfkillDevice
            self.runtimeDirectory = runtimeDirectory
            self.ignoredConditions = ignoredConditions
            self.observers = observers
            self.deadlines = deadlines
        }
    }

    private let bus: BusConnection
    /// The system bus (logind, NetworkManager); nil when there is none: their conditions are unknown.
    private let systemBus: BusConnection?
    private let configuration: Configuration
    private let logger: Logger
    private let inputs: AsyncStream<DaemonInput>
    private let sink: AsyncStream<DaemonInput>.Continuation
    private let tree: ObjectTree
    private let calls = PendingCalls()
    /// What the runtime holds now (tasks, timers), for rigs and benchmarks.
    public let statistics = DaemonStatistics()
    /// Method calls waiting for the loop's answer now.
    public var pendingCalls: Int { calls.count }
    /// What ``start()`` set up and the end of ``run()`` takes down.
    private let serving = Mutex<(subscriptions: [BusSubscription], notifications: NotificationServer?, descriptors: PollLoop?,
                                  awaited: Set<ConditionSource>)>(([], nil, nil, []))

    public init(bus: BusConnection, systemBus: BusConnection? = nil, configuration: Configuration = .init(), logger: Logger) {
        self.bus = bus
        self.systemBus = systemBus
        self.configuration = configuration
        self.logger = logger
        tree = ObjectTree(bus: bus, root: ScannerAPI.path)
        (inputs, sink) = AsyncStream.makeStream(of: DaemonInput.self)
    }

    /// Serves the API, follows the peers and takes the bus name; returns once the daemon answers
    /// (then tell systemd READY=1), while ``run()`` handles what follows. Returns the watches of
    /// the system conditions, made but not running: they are services to run in the same group,
    /// listed after the daemon so that a graceful shutdown stops them first, and they report to
    /// the daemon only while they run (a condition is unknown until its watch's first report).
    @discardableResult
    public func start() throws(BusError) -> [any Service] {
        let sink = sink, calls = calls
        // One thread sleeping in poll for every descriptor the daemon watches itself: inhibitors'
        // pipes, inotify for the camera, /dev/rfkill.
        let descriptors: PollLoop
        do { descriptors = try PollLoop() } catch { throw .system(call: "pipe", detail: "\(error)") }
        var subscriptions: [BusSubscription] = []
        tree.publish(ScannerAPI.path, DaemonCore(configuration: coreConfiguration()).scannerObject.exported)
        subscriptions.append(try tree.serve { call in
            if let request = APICalls.decode(call) { sink.yield(.request(calls.keep(call), caller: call.sender, request)) }
        })
        subscriptions.append(try bus.addMatch(
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'"
        ) { signal in
            // A unique name losing its owner: that connection closed.
            guard signal.arguments.count == 3, let name = signal.arguments[0].stringValue, name.hasPrefix(":"),
                  signal.arguments[2].stringValue == "" else { return }
            sink.yield(.peerGone(name))
        })
        // The grants kept in the desktop's permission store: changes from anyone, as they happen.
        subscriptions.append(try PermissionStore.follow(bus: bus) { sink.yield(.grants($0)) })
        let notifications = try NotificationServer(bus: bus) { sink.yield(.notification($0)) }
        descriptors.start(name: "nfcscand-fds")
        if let directories = configuration.applications {
            let watch = ApplicationWatch(directories: directories, mimeApps: configuration.mimeApps, searchPath: configuration.searchPath,
                                         loop: descriptors) {
                sink.yield(.applications($0))
                sink.yield(.defaults($1))
            }
            if !watch.start() { logger.warning("inotify is unavailable: apps installed or removed count only after a restart") }
        }
        let watches = ConditionSources.watches(bus: bus, systemBus: systemBus, descriptors: descriptors, configuration: configuration,
                                               ignored: configuration.ignoredConditions, logger: logger) { sink.yield(.condition($0, holds: $1)) }
        let awaited = Set(watches.map(\.source).filter(\.answersAtOnce))
        serving.withLock { $0 = (subscriptions, notifications, descriptors, awaited) }
        sink.yield(.started)
        try bus.requestName(ScannerAPI.busName)
        logger.info("serving \(ScannerAPI.busName) on the session bus as \(bus.uniqueName)")
        return watches
    }

    /// Handles events until the core has carried out a stop; then every effect still running is
    /// cancelled and everything ``start()`` set up is taken down.
    public func run() async {
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                let (notifications, descriptors, awaited) = serving.withLock { ($0.notifications, $0.descriptors, $0.awaited) }
                var core = DaemonCore(configuration: coreConfiguration(awaiting: awaited))
                guard let descriptors else { return }
                // The grants as they are now (the store is activated on this first call).
                let bus = bus, logger = logger, sink = sink
                group.addTask(counted: statistics) {
                    switch await PermissionStore.lookup(bus: bus, deadline: .seconds(10)) {
                    case .success(let grants): sink.yield(.grants(grants))
                    case .failure(let error):
                        logger.notice("no permission store (xdg-permission-store): answers count until nfcscand stops (\(error))")
                    }
                }
                var effects = EffectRunner(bus: bus, systemBus: systemBus, tree: tree, calls: calls, configuration: configuration, logger: logger, sink: sink,
                                           notifications: notifications, statistics: statistics, descriptors: descriptors)
                events: for await input in inputs {
                    effects.received(input)
                    statistics.inputs.add(1, ordering: .relaxed)
                    for effect in core.handle(input) {
                        if effect == .finish { break events }
                        effects.perform(effect, in: &group)
                    }
                }
                effects.finish()
                group.cancelAll()
            }
        } onGracefulShutdown: { [sink, logger] in
            ServiceManager.stopping()
            logger.info("stopping")
            sink.yield(.stop)
        }
        let (subscriptions, _, descriptors, _) = serving.withLock { serving in
            defer { serving = ([], nil, nil, []) }
            return serving
        }
        for subscription in subscriptions { subscription.cancel() }
        descriptors?.cancel()
        sink.finish()
    }

    private func coreConfiguration(awaiting awaited: Set<ConditionSource> = []) -> DaemonCore.Configuration {
        .init(language: configuration.language, ignoredConditions: configuration.ignoredConditions, awaitedSources: awaited,
              showsSheet: configuration.sheetProgram != nil, notGenuine: configuration.notGenuine)
    }

    /// Asks the loop to stop: sessions end, offers are withdrawn, the readers are released.
    public func stop() {
        sink.yield(.stop)
    }

    /// Asks the loop to ping systemd's watchdog (``WatchdogService``). The core answers with the
    /// ping, in turn with every other input, so a loop that stopped handling events goes unpinged.
    public func heartbeat() {
        sink.yield(.heartbeat)
    }

    /// The broker publisher's state, for the `Broker` property (``BrokerPublisher/reportStatus(to:)``).
    public func brokerChanged(_ status: BrokerStatus) {
        sink.yield(.broker(status))
    }
}

/// How long effects that wait for a peer may take.
public struct EffectDeadlines: Sendable {
    /// Notify (and the GetCapabilities before it).
    public var notification: Duration = .seconds(5)
    /// One call of an app's HandleScan.
    public var handleScan: Duration = .seconds(10)
    /// The portal's OpenURI, then xdg-open.
    public var openLink: Duration = .seconds(10)
    /// Each of NetworkManager's calls for joining a network.
    public var joinNetwork: Duration = .seconds(10)

    public init(notification: Duration = .seconds(5), handleScan: Duration = .seconds(10), openLink: Duration = .seconds(10),
                joinNetwork: Duration = .seconds(10)) {
        self.notification = notification
        self.handleScan = handleScan
        self.openLink = openLink
        self.joinNetwork = joinNetwork
    }

    /// The same deadline for every peer.
    public init(all deadline: Duration) {
        self.init(notification: deadline, handleScan: deadline, openLink: deadline, joinNetwork: deadline)
    }
}

/// Told of what the daemon did with each object, in order, from the daemon's loop: it must only
/// hand the observation on (to a queue of its own), never wait.
public protocol DaemonObserver: Sendable {
    func observe(_ observation: DaemonObservation)
}
