import Logging
import NFCBusAPI
import NFCReaders
import NFCScanKit
import POSIXEvents
import Synchronization
import Systemd

/// Does the core's effects for the daemon's loop. Effects that only hand a message to sd-bus (it
/// queues; nothing waits for a peer) or to the log are done at once; every effect that waits for
/// a peer runs as a child task of the loop's task group, bounded by a deadline, and reports back
/// as ``DaemonInput/completed(_:_:)``. Owned by the loop alone (a value it mutates): no lock.
struct EffectRunner {
    let bus: BusConnection
    /// NetworkManager's bus; nil: there is none (no network is ever offered then).
    let systemBus: BusConnection?
    let tree: ObjectTree
    let calls: PendingCalls
    let configuration: Daemon.Configuration
    let logger: Logger
    let sink: AsyncStream<DaemonInput>.Continuation
    let notifications: NotificationServer?
    let statistics: DaemonStatistics
    /// The daemon's poll loop, where each inhibitor's pipe is watched.
    let descriptors: PollLoop
    private var inhibitors: [Int: Inhibitor] = [:]
    /// Timers are unstructured tasks, each cancelled when disarmed, fired, or at the end: a
    /// discarding task group cannot cancel one child, and a session's timer may run for an hour.
    private var timers: [TimerID: Task<Void, Never>] = [:]
    /// Each running generation of background reading, ended by finishing its stream.
    private var readingStops: [Int: AsyncStream<Void>.Continuation] = [:]
    /// Opened when the newest generation has released its readers: the next one opens them only
    /// then (the same reader cannot be opened twice).
    private var lastReadingClosed: Latch?
    /// The write an active write session armed, which every generation of background reading
    /// takes for the next object to arrive.
    private let writes = ArmedWrite()
    private let readPassword = ReadPassword()
    /// The sheets' programs; nil: no sheet here (no display, or no sheet program).
    private var sheets: SheetHost?

    init(bus: BusConnection, systemBus: BusConnection?, tree: ObjectTree, calls: PendingCalls, configuration: Daemon.Configuration, logger: Logger,
         sink: AsyncStream<DaemonInput>.Continuation, notifications: NotificationServer?, statistics: DaemonStatistics,
         descriptors: PollLoop) {
        self.statistics = statistics
        self.descriptors = descriptors
        self.bus = bus
        self.systemBus = systemBus
        self.tree = tree
        self.calls = calls
        self.configuration = configuration
        self.logger = logger
        self.sink = sink
        self.notifications = notifications
        sheets = configuration.sheetProgram.map { SheetHost(program: $0, loop: descriptors, sink: sink, searchPath: configuration.searchPath) }
    }

    mutating func perform(_ effect: DaemonEffect, in group: inout DiscardingTaskGroup) {
        switch effect {
        case .reply(let id, let answer):
            guard let call = calls.take(id) else { return }
            switch answer {
            case .values(let values): call.reply(values)
            case .error(let name, let message): call.fail(name, message)
            }
        case .grantInhibitor(let callID, let id): grant(id, callID)
        case .dropInhibitor(let id): inhibitors.removeValue(forKey: id)?.cancel()
        case .publish(let object): tree.publish(object.path, object.exported)
        case .update(let path, _, let changed): tree.update(path, changed)
        case .unpublish(let path): tree.remove(path)
        case .signal(let path, let interface, let member, let arguments, let destination):
            try? bus.emitSignal(path: path, interface: interface, member: member, arguments, destination: destination)
        case .startReading(let generation): startReading(generation, in: &group)
        case .stopReading(let generation): readingStops.removeValue(forKey: generation)?.finish()
        case .notify(let id, let content, let replacing):
            guard let notifications else {
                sink.yield(.completed(id, .noAnswer("no notification server")))
                return
            }
            let sink = sink, deadline = configuration.deadlines.notification
            group.addTask(counted: statistics) {
                do throws(BusError) {
                    sink.yield(.completed(id, .shown(try await notifications.notify(content, replacing: replacing, timeout: deadline))))
                } catch {
                    sink.yield(.completed(id, Self.outcome(error)))
                }
            }
        case .closeNotification(let id): notifications?.close(id)
        case .findNotificationServer:
            guard let notifications else {
                sink.yield(.notification(.serverFound(present: false)))
                return
            }
            let sink = sink, deadline = configuration.deadlines.notification
            group.addTask(counted: statistics) {
                sink.yield(.notification(.serverFound(present: await notifications.isAvailable(timeout: deadline))))
            }
        case .handleScan(let id, let owner, let handlerPath, let scan):
            let bus = bus, sink = sink, deadline = configuration.deadlines.handleScan
            group.addTask(counted: statistics) {
                do throws(BusError) {
                    _ = try await bus.call(destination: owner, path: handlerPath, interface: ScannerAPI.handlerInterface,
                                           member: "HandleScan", [scan], timeout: deadline)
                    sink.yield(.completed(id, .done("HandleScan")))
                } catch {
                    sink.yield(.completed(id, Self.outcome(error)))
                }
            }
        case .openLink(let id, let uri):
            let opener = LinkOpener(bus: bus, loop: descriptors, fallback: configuration.linkOpener, deadline: configuration.deadlines.openLink)
            let sink = sink
            group.addTask(counted: statistics) {
                do throws(LinkOpener.Failure) {
                    sink.yield(.completed(id, .done(try await opener.open(uri))))
                } catch {
                    sink.yield(.completed(id, .refused(name: nil, message: error.description)))
                }
            }
        case .launch(let id, let launch):
            let launcher = AppLauncher(runtimeDirectory: configuration.runtimeDirectory, searchPath: configuration.searchPath,
                                       loop: descriptors, outsideSandbox: TransientUnit.underSystemd)
            do throws(AppLauncher.Failure) {
                let (how, file) = try launcher.start(launch)
                sink.yield(.completed(id, .done(how)))
                // The file goes after its time at the latest (or when the loop ends).
                if let file {
                    group.addTask(counted: statistics) {
                        try? await Task.sleep(for: AppLauncher.fileLifetime)
                        AppLauncher.remove(file)
                    }
                }
            } catch {
                sink.yield(.completed(id, .refused(name: nil, message: error.description)))
            }
        case .joinNetwork(let id, let network):
            guard let systemBus else {
                sink.yield(.completed(id, .noAnswer("no system bus")))
                return
            }
            let sink = sink, deadline = configuration.deadlines.joinNetwork
            group.addTask(counted: statistics) {
                do throws(BusError) {
                    sink.yield(.completed(id, .done(try await NetworkManagerJoin.join(network, bus: systemBus, deadline: deadline))))
                } catch {
                    sink.yield(.completed(id, Self.outcome(error)))
                }
            }
        case .identify(let caller):
            let bus = bus, sink = sink, applications = configuration.applications, webHosts = configuration.webHosts
            group.addTask(counted: statistics) {
                sink.yield(.identified(caller, await CallerApps.identify(caller, bus: bus, applications: applications, webHosts: webHosts)))
            }
        case .storeGrant(let app, let grant):
            let bus = bus, logger = logger, deadline = configuration.deadlines.notification
            group.addTask(counted: statistics) {
                do throws(BusError) {
                    try await PermissionStore.set(grant, for: app, bus: bus, deadline: deadline)
                } catch {
                    logger.warning("the permission store did not keep the answer for \(app) (it counts until nfcscand stops): \(error)")
                }
            }
        case .showSheet(let session, let view): sheets?.show(view, session: session)
        case .closeSheet(let session, let view):
            if let deadline = sheets?.close(session, with: view) { group.addTask(counted: statistics, deadline) }
        case .armWrite(let session, let write): writes.arm(session, write)
        case .disarmWrite(let session): writes.disarm(session)
        case .confirmWrite(let session, let go): writes.confirm(session, go)
        case .readPassword(let session, let password): readPassword.set(session, password)
        case .dropReadPassword(let session): readPassword.drop(session)
        case .armTimer(let timer, let delay):
            let sink = sink
            timers.removeValue(forKey: timer)?.cancel()
            timers[timer] = Task {
                try? await Task.sleep(for: delay)
                if !Task.isCancelled { sink.yield(.timerFired(timer)) }
            }
            statistics.timers.store(timers.count, ordering: .relaxed)
        case .cancelTimer(let timer):
            timers.removeValue(forKey: timer)?.cancel()
            statistics.timers.store(timers.count, ordering: .relaxed)
        case .observe(let observation): for observer in configuration.observers { observer.observe(observation) }
        case .log(let level, let message, let metadata):
            logger.log(level: level, "\(message)", metadata: metadata.isEmpty ? nil : metadata.mapValues { .string($0) })
        // Only while the bus is there: a daemon nobody can reach is not alive to systemd.
        case .watchdog: if bus.isOpen { ServiceManager.watchdog() }
        case .finish: break
        }
    }

    /// Notes an input before the core sees it: a fired timer's task is done.
    mutating func received(_ input: DaemonInput) {
        if case .timerFired(let timer) = input {
            timers[timer] = nil
            statistics.timers.store(timers.count, ordering: .relaxed)
        }
    }

    /// Everything still held is let go (the loop is ending).
    mutating func finish() {
        for timer in timers.values { timer.cancel() }
        timers = [:]
        for inhibitor in inhibitors.values { inhibitor.cancel() }
        inhibitors = [:]
        for stop in readingStops.values { stop.finish() }
        readingStops = [:]
        writes.close()
        sheets?.closeAll()
        calls.failAll()
    }

    /// Makes the pipe, hands the app its write end, and watches the read end.
    private mutating func grant(_ id: Int, _ callID: CallID) {
        guard let call = calls.take(callID) else { return }
        let sink = sink
        guard let (inhibitor, writeEnd) = Inhibitor.make(id: id, who: "", why: "", owner: call.sender, loop: descriptors,
                                                         released: { sink.yield(.inhibitorReleased(id)) }) else {
            call.fail("org.freedesktop.DBus.Error.Failed", "Inhibit: no pipe could be made")
            sink.yield(.inhibitorReleased(id))
            return
        }
        inhibitors[id] = inhibitor
        call.reply([.unixFD(writeEnd.rawValue)])
        Inhibitor.handedOver(writeEnd)
    }

    /// One generation of background reading, a child task: it opens the readers once the
    /// previous generation has released them, and releases them when its stream is finished
    /// (``DaemonEffect/stopReading(generation:)``) or the loop ends.
    private mutating func startReading(_ generation: Int, in group: inout DiscardingTaskGroup) {
        let (stopped, stop) = AsyncStream.makeStream(of: Void.self)
        readingStops[generation] = stop
        let previous = lastReadingClosed, closed = Latch()
        lastReadingClosed = closed
        let directory = configuration.readers, wanted = configuration.wantedReader, sink = sink, writes = writes, readPassword = readPassword
        let logger = logger
        group.addTask(counted: statistics) {
            await previous?.wait()
            await withTaskGroup(of: Void.self) { reading in
                reading.addTask {
                    await BackgroundReading.run(directory: directory, wanted: wanted, writes: writes, password: readPassword,
                                                problem: { logger.warning("\($0)") }) {
                        sink.yield(.reading(generation: generation, $0))
                    }
                }
                reading.addTask { for await _ in stopped {} }
                await reading.next()
                reading.cancelAll()
            }
            closed.open()
        }
    }

    static func outcome(_ error: BusError) -> EffectOutcome {
        if let name = error.remoteName { return .refused(name: name, message: "\(error)") }
        return .noAnswer("\(error)")
    }
}

/// Method calls waiting for the core's answer, by number. The bus thread keeps them, the loop
/// answers them; whatever is left when the loop ends is refused.
final class PendingCalls: Sendable {
    private let state = Mutex<(next: CallID, calls: [CallID: BusMethodCall])>((1, [:]))

    func keep(_ call: BusMethodCall) -> CallID {
        state.withLock { state in
            defer { state.next += 1 }
            state.calls[state.next] = call
            return state.next
        }
    }

    func take(_ id: CallID) -> BusMethodCall? { state.withLock { $0.calls.removeValue(forKey: id) } }

    var count: Int { state.withLock { $0.calls.count } }

    func failAll() {
        let left = state.withLock { state in
            defer { state.calls = [:] }
            return Array(state.calls.values)
        }
        for call in left { call.fail("org.freedesktop.DBus.Error.NoServer", "nfcscand is stopping") }
    }
}

/// A one-way gate: ``wait()`` returns once ``open()`` was called (at once if it was already).
final class Latch: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}

extension BusObject {
    /// The object as the tree serves it: a session's AlertMessage is the one writable property.
    var exported: ObjectTree.Object {
        ObjectTree.Object(interface: interface, properties: properties, writable: kind == .session ? ["AlertMessage"] : [],
                          introspection: Introspection.text(for: kind), owner: owner)
    }
}

/// What the runtime holds now, for rigs and benchmarks: what must return to its idle value once
/// the work is done (no task, timer or call left behind).
public final class DaemonStatistics: Sendable {
    /// Child tasks of the loop running now: effects waiting for a peer, and background reading.
    public let tasks = Atomic<Int>(0)
    /// Timers armed and not yet fired or cancelled.
    public let timers = Atomic<Int>(0)
    /// Inputs handled so far.
    public let inputs = Atomic<Int>(0)

    public init() {}
}

extension DiscardingTaskGroup {
    /// A child task counted in ``DaemonStatistics/tasks`` while it runs.
    mutating func addTask(counted statistics: DaemonStatistics, _ body: @escaping @Sendable () async -> Void) {
        statistics.tasks.add(1, ordering: .relaxed)
        addTask {
            await body()
            statistics.tasks.subtract(1, ordering: .relaxed)
        }
    }
}
