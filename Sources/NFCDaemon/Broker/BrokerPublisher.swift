import FoundationEssentials
import Logging
import Mosquitto
import NDEFReport
import ServiceLifecycle
import Synchronization

/// Makes the machine a station: every object read in the background goes to the MQTT broker of
/// `[broker]` as a `ScanEvent`, at least once (issue 15).
///
/// As a ``DaemonObserver`` it only yields the observation into its own inbox (never waits: the
/// core's loop calls it). As a `Service` it runs the rest in one task: each event is written to
/// the spool (fsynced) before it is published at QoS 1 and leaves the spool when the broker
/// acknowledges it; events the spool still held from an earlier run are published first, in
/// order. While the broker is away libmosquitto keeps the messages published and sends them, in
/// order, once it reconnects, so each event is published by this class once per run.
///
/// Also: retained `<prefix>/availability` `online` on each connection, `offline` as the will and
/// on a graceful stop; Home Assistant discovery for each reader seen, on each connection and when
/// Home Assistant says `online` on `homeassistant/status`.
public final class BrokerPublisher: DaemonObserver, Service, Sendable {
    public typealias State = BrokerStatus

    enum Input: Sendable {
        case detected(reader: String, uid: String, report: ReportValue, time: Date)
        case reader(String)
        case client(MosquittoClient.Event)
        case stop
        case stopTimedOut
    }

    /// Events kept while the broker is unreachable before the oldest are dropped.
    public static let defaultSpoolCapacity = 10_000

    private let settings: BrokerSettings
    private let password: String?
    private let spoolLocation: SpoolDirectory.Location
    private let spoolCapacity: Int
    private let logger: Logger
    private let inbox: AsyncStream<Input>
    private let sink: AsyncStream<Input>.Continuation
    private let current: Mutex<State>
    /// Told of each change of `state` (the daemon's `Broker` property); set once the daemon exists.
    private let reporter = Mutex<(@Sendable (State) -> Void)?>(nil)

    public init(settings: BrokerSettings, password: String?, spoolLocation: SpoolDirectory.Location = SpoolDirectory.defaultLocation(),
                spoolCapacity: Int = BrokerPublisher.defaultSpoolCapacity, logger: Logger) {
        self.settings = settings
        self.password = password
        self.spoolLocation = spoolLocation
        self.spoolCapacity = spoolCapacity
        self.logger = logger
        (inbox, sink) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .unbounded)
        current = Mutex(State(station: settings.station))
    }

    public var state: State { current.withLock { $0 } }

    /// Sends the state now and after every change to `report` (which must not wait: it is called
    /// from the publisher's task). The daemon is made after its observers, so this comes later.
    public func reportStatus(to report: @escaping @Sendable (State) -> Void) {
        reporter.withLock { $0 = report }
        report(state)
    }

    /// Changes the state and reports it if it changed.
    private func update(_ change: (inout State) -> Void) {
        let (before, after) = current.withLock { state in
            let before = state
            change(&state)
            return (before, state)
        }
        if before != after, let report = reporter.withLock({ $0 }) { report(after) }
    }

    public func observe(_ observation: DaemonObservation) {
        switch observation {
        case .reader(let name): sink.yield(.reader(name))
        // An object read for an app's scan session is the app's.
        case .detected(let reader, let uid, let report, session: nil):
            sink.yield(.detected(reader: reader, uid: uid, report: report, time: Date()))
        default: break
        }
    }

    public func run() async throws {
        let topics = StationTopics(settings)
        let spool: SpoolDirectory
        do {
            spool = try SpoolDirectory(location: spoolLocation, capacity: spoolCapacity)
        } catch {
            // Refused, never repaired behind the person: background reading goes on, and the
            // Broker property and nfcscan status say what to fix until it is fixed and nfcscand
            // restarted. Objects read meanwhile are not published (the inbox takes no more).
            logger.error("broker: the spool cannot be used: \(error); nothing will be published until it is fixed and nfcscand restarted")
            update { $0.lastError = "the spool cannot be used: \(error)" }
            sink.finish()
            try? await gracefulShutdown()
            return
        }
        func logNotices() {
            for notice in spool.takeNotices() { logger.warning("broker: \(notice)") }
        }
        logNotices()
        var options = MosquittoClient.Options(host: settings.host, port: settings.port,
                                              clientID: "nfcscand-" + TopicName.reduced(settings.station))
        options.will = .init(topic: topics.availability, text: "offline", qos: 1, retain: true)
        options.username = settings.username
        options.password = password
        if settings.tls {
            options.tls = .init(caFile: settings.caFile, certificateFile: settings.clientCertificateFile, keyFile: settings.clientKeyFile)
        }
        let client = try MosquittoClient(options)
        client.start()
        let sink = self.sink

        var inFlight: [Int32: UInt64] = [:]
        var readers: Set<String> = []
        var connected = false
        var stopping: Int32?
        /// The last event could not be kept: its reason is `lastError` until one is kept again.
        var spoolFailed = false
        func record() {
            update { state in
                state.connected = connected
                state.pending = spool.book.pending.count
                state.dropped = spool.book.dropped
            }
        }
        func publish(_ message: MosquittoClient.Message) -> Int32? {
            do {
                return try client.publish(message)
            } catch {
                update { $0.lastError = error.description }
                logger.warning("broker: \(error)")
                return nil
            }
        }
        func announce(_ reader: String) {
            _ = publish(.init(topic: topics.discoveryTopic(reader: reader), text: topics.discoveryConfig(reader: reader), qos: 1, retain: true))
        }

        /// Publishes, in order, every kept event not on its way: those from before a restart, and
        /// those read while not connected. Only once connected: a message handed to libmosquitto
        /// while its first connection is still being made can be lost (a restarted station's
        /// spooled event was once never sent), and the spool keeps them meanwhile. Events already
        /// on their way when a connection drops are sent again by libmosquitto.
        func publishPending() {
            let onTheWay = Set(inFlight.values)
            for (seq, payload) in spool.pendingPayloads() where !onTheWay.contains(seq) {
                if let id = publish(.init(topic: topics.scan, text: payload, qos: 1)) { inFlight[id] = seq }
            }
        }
        logNotices()
        record()
        logger.notice("broker: publishing to \(settings.host):\(settings.port) as \(settings.station) on \(topics.scan); \(spool.book.pending.count) events waiting in \(spool.path)")

        // The client's events and the stop's deadline are child tasks of this one, ended with it.
        await withDiscardingTaskGroup { tasks in
            tasks.addTask { for await event in client.events { sink.yield(.client(event)) } }
            await withGracefulShutdownHandler {
                for await input in inbox {
                    switch input {
                    case .reader(let reader):
                        if readers.insert(reader).inserted, connected { announce(reader) }
                    case .detected(let reader, let uid, let report, let time):
                        // Announced before its first event, so Home Assistant knows the scanner first.
                        if readers.insert(reader).inserted, connected { announce(reader) }
                        let content = settings.content
                        let station = settings.station
                        do {
                            var payload = ""
                            let seq = try spool.add { seq in
                                payload = ScanEvent(seq: seq, time: time, station: station, reader: reader, uid: uid, report: report, content: content).json
                                return payload
                            }
                            if connected, let id = publish(.init(topic: topics.scan, text: payload, qos: 1)) { inFlight[id] = seq }
                            if spoolFailed {
                                spoolFailed = false
                                update { $0.lastError = nil }
                            }
                        } catch {
                            spoolFailed = true
                            // Counted in dropped, its seq left unused: subscribers see the gap.
                            update { $0.lastError = "an event could not be kept: \(error)" }
                            logger.error("broker: an event could not be spooled, so it is dropped (\(spool.book.dropped) so far): \(error)")
                        }
                        logNotices()
                    case .client(.connected(0, _)):
                        connected = true
                        update { $0.lastError = nil }
                        logger.notice("broker: connected to \(settings.host):\(settings.port)")
                        _ = publish(.init(topic: topics.availability, text: "online", qos: 1, retain: true))
                        do { try client.subscribe(StationTopics.homeAssistantStatus) } catch {
                            logger.warning("broker: \(error)")
                        }
                        readers.forEach(announce)
                        publishPending()
                    case .client(.connected(_, let reason)):
                        update { $0.lastError = "the broker refused the connection: \(reason)" }
                        logger.warning("broker: \(settings.host):\(settings.port) refused the connection: \(reason)")
                    case .client(.disconnected(let code, let reason)):
                        if connected || state.lastError == nil {
                            logger.warning("broker: not connected to \(settings.host):\(settings.port): \(reason); retrying")
                        }
                        connected = false
                        if code != 0 { update { $0.lastError = reason } }
                    case .client(.published(let id)):
                        if let seq = inFlight.removeValue(forKey: id) { spool.acknowledge(seq) }
                        if id == stopping { sink.finish() }
                    case .client(.message(let topic, let payload, _)):
                        if topic == StationTopics.homeAssistantStatus, String(decoding: payload, as: UTF8.self) == "online" {
                            readers.forEach(announce)
                        }
                    case .stop:
                        // A clean offline (the will is only for a lost connection); waited for, briefly.
                        if connected, let id = publish(.init(topic: topics.availability, text: "offline", qos: 1, retain: true)) {
                            stopping = id
                            tasks.addTask { try? await Task.sleep(for: .seconds(2)); sink.yield(.stopTimedOut) }
                        } else {
                            sink.finish()
                        }
                    case .stopTimedOut:
                        sink.finish()
                    }
                    record()
                }
            } onGracefulShutdown: {
                sink.yield(.stop)
            }
            tasks.cancelAll()
        }
        client.close()
        connected = false
        record()
    }
}
