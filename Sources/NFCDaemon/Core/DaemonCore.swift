import DBusValues
import Logging
import NDEF
import NDEFReport
import NFCBusAPI
import NFCCopy
import NFCDispatch
import NFCObjects
import NFCTags

/// Everything nfcscand decides, with no I/O: who gets an object, when background reading pauses,
/// scan sessions and their queue, retries and timeouts. The runtime feeds it one
/// ``DaemonInput`` at a time and does the ``DaemonEffect``s it returns (the state-machine/action
/// shape of swift-nio's and async-http-client's connection pools), so every decision is tested
/// in-process, in order, with no clock and no peer: a hung peer can only ever be an input that
/// has not arrived yet.
struct DaemonCore: Sendable {
    struct Configuration: Sendable {
        /// The language of notifications, and of sessions that ask for none.
        var language: ScanCopy.Language = .english
        /// System conditions that never pause background reading here (the kiosk file).
        var ignoredConditions: Set<BackgroundPause> = []
        /// Sources whose first report comes before the readers open (``ConditionSource/answersAtOnce``),
        /// so that a camera in use or airplane mode at start is in force before the first object.
        var awaitedSources: Set<ConditionSource> = []
        /// A display and the sheet's program are here: every session shows the daemon's sheet,
        /// sandboxed apps are asked before their first session and writes before they change an
        /// object. False (a kiosk station): no sheet, nothing asked, sandboxed apps without a
        /// kept grant refused.
        var showsSheet = false
        /// What happens to an object whose chip is not genuine (`[authenticity]`).
        var notGenuine: NotGenuinePolicy = .report
    }

    /// How long the readers wait for the awaited sources' first reports: they answer from this
    /// machine at once, so only a source that failed to start takes this long.
    static let settleDeadline: Duration = .seconds(1)

    /// The readers of one generation of background reading.
    struct Reading: Sendable {
        var generation = 0
        var running = false
        /// The readers present when it started are open; until then an empty list means nothing.
        var opened = false
        /// How many readers the previous generation had, so a restart does not look like "no reader".
        var previousReaders = 0
    }

    struct ReaderEntry: Sendable {
        let id: ReaderID
        let name: String
        let backend: ReaderBackend
    }

    struct InhibitorEntry: Sendable {
        let who: String
        let why: String
        let owner: String
    }

    let configuration: Configuration
    let composer: NotificationComposer
    var registry = HandlerRegistry()
    /// The installed apps' declarations as last read from the application directories.
    var installed = InstalledApps()
    /// The person's default apps, for content no app asked for.
    var defaults = PersonalDefaults()
    /// Offers and deliveries: a machine of their own (OfferBook.swift).
    var offerBook = OfferBook()
    var readers: [Int: ReaderEntry] = [:]
    var nextReaderNumber = 1
    /// Each reader's number, kept for its backend and name: a reader closed for a condition or by
    /// RestartPolling comes back at the same object path.
    var readerNumbers: [String: Int] = [:]
    /// Readers whose object another program holds exclusively: background reading pauses, but
    /// the readers stay open to notice the release.
    var held: Set<ReaderID> = []
    var reading = Reading()
    var sessions = ScanSessionQueue()
    /// The active session whose object is being read now (its State is "reading").
    var sessionReading: Int?
    /// Objects read in the background and still near their reader, the latest last: a reader
    /// reports an object once per arrival, so a scan session that becomes active while one lies
    /// there is handed it at once (as a direct scan opening the reader would read it). An object
    /// a session had stays that session's: a later one reads it only after RestartPolling.
    var near: [(reader: ReaderID, report: ReportValue)] = []
    var inhibitors: [Int: InhibitorEntry] = [:]
    var nextInhibitor = 1
    var board: ConditionBoard
    var pausedReasons: [BackgroundPause] = [.noReader]
    var announcedConditions: [BackgroundPause: ConditionState] = [:]
    /// The station's broker connection (`[broker]`), as the publisher last reported it; nil: none configured.
    var broker: BrokerStatus?
    /// Whether notifications can be shown: a server owns org.freedesktop.Notifications (or the bus
    /// can start one). Without one, objects are read but never offered: `nfcscan status` says so.
    var notificationServer = true
    var readerStatus = "paused"
    var started = false
    /// Awaited sources that have not reported yet: the readers stay closed meanwhile.
    var unsettled: Set<ConditionSource>
    var stopping = false
    /// Each connection's app, once identified (issue 21); gone with the connection.
    var callers: [String: CallerApp] = [:]
    /// Calls of connections being identified, in order.
    var unidentified: [String: [(call: CallID, request: DaemonRequest)]] = [:]
    /// The permission store's grants, by app key.
    var grants: [String: AppGrant] = [:]
    var effects: [DaemonEffect] = []

    init(configuration: Configuration = .init()) {
        self.configuration = configuration
        composer = NotificationComposer(copy: ScanCopy.catalog(for: configuration.language))
        board = ConditionBoard(ignored: configuration.ignoredConditions)
        unsettled = configuration.awaitedSources
    }

    /// Decides what `input` means and returns what to do, in order. After every input the
    /// conditions are applied, so one that starts is in force before the next object.
    mutating func handle(_ input: DaemonInput) -> [DaemonEffect] {
        effects = []
        switch input {
        case .started: start()
        case .request(let call, let caller, let request): received(request, call: call, caller: caller)
        case .identified(let caller, let app): identified(caller, app)
        case .grants(let table): grants = table
        case .sheet(let session, let event): sheetSaid(event, session: session)
        case .peerGone(let name): peerGone(name)
        case .reading(_, .written(let id, let result)):
            // Whichever generation wrote it: a session waits for its write's outcome.
            written(id, result)
        case .reading(_, .writing(let id)):
            // Always answered: the reading task waits for it.
            writing(id)
        case .reading(let generation, let event):
            if generation == reading.generation, reading.running { handle(event) }
        case .condition(let source, let holds):
            if unsettled.remove(source) != nil, unsettled.isEmpty { effects.append(.cancelTimer(.conditionsSettle)) }
            if board.record(source, holds: holds) {
                let condition = source.condition
                log(.info, "\(condition.rawValue): \(board.state(of: condition).rawValue)", ["via": source.rawValue])
            }
        case .notification(let signal):
            switch signal {
            case .serverChanged(let present), .serverFound(let present): notificationServerIs(present)
            case .actionInvoked, .closed: break
            }
            effects += offerBook.handle(signal, offerContext)
        case .completed(let id, let outcome): effects += offerBook.completed(id, outcome, offerContext)
        case .inhibitorReleased(let id):
            if let inhibitor = inhibitors.removeValue(forKey: id) {
                log(.info, "inhibitor \(id) of \(inhibitor.who) released", ["owner": inhibitor.owner])
                effects.append(.dropInhibitor(id))
            }
        case .timerFired(let timer): fired(timer)
        case .heartbeat: effects.append(.watchdog)
        case .applications(let apps): installedChanged(apps)
        case .defaults(let defaults): defaultsChanged(defaults)
        case .stop: stop()
        case .broker(let status):
            if status != broker {
                broker = status
                effects.append(.update(path: ScannerAPI.path, interface: ScannerAPI.interface, ["Broker": status.busValue]))
            }
        }
        if started, !stopping { applyConditions() }
        defer { effects = [] }
        return effects
    }

    // MARK: Life

    private mutating func start() {
        guard !started else { return }
        started = true
        effects.append(.publish(scannerObject))
        effects.append(.findNotificationServer)
        // The readers open once the awaited sources have spoken (applyConditions, after this input).
        if !unsettled.isEmpty { effects.append(.armTimer(.conditionsSettle, after: Self.settleDeadline)) }
    }

    /// The awaited sources' time is up: the readers open with what is known.
    mutating func settled() {
        guard !unsettled.isEmpty else { return }
        log(.warning, "no first report from \(unsettled.map(\.rawValue).sorted()) in time; reading without it")
        unsettled = []
    }

    private mutating func stop() {
        guard !stopping else { return }
        stopping = true
        for session in sessions.all.reversed() { endSession(session.id, .terminated) }
        for id in inhibitors.keys.sorted() { effects.append(.dropInhibitor(id)) }
        inhibitors = [:]
        if reading.running { stopReading() }
        effects += offerBook.withdrawAll()
        effects.append(.finish)
    }

    private mutating func peerGone(_ name: String) {
        callers[name] = nil
        unidentified[name] = nil
        for session in sessions.sessions(of: name).reversed() { endSession(session.id, .userCanceled, notify: false) }
        for registration in registry.removeAll(owner: name) {
            log(.info, "handler \(registration.id) of \(registration.appName) ended with its connection", ["owner": name])
        }
    }

    // MARK: Conditions and pauses

    /// Background reading stops (the readers are closed: another program may then use them, and
    /// nothing wakes up) while a condition asks for it and no scan session needs the readers; it
    /// starts again when all is clear. Airplane mode stops sessions too: the radios are off for
    /// every use.
    private mutating func applyConditions() {
        if board.holds(.airplaneMode) {
            for session in sessions.all.reversed() {
                endSession(session.id, .radioDisabled, message: copy(for: session.options).radioDisabled)
            }
        }
        let blocked = (!inhibitors.isEmpty || !board.holding.isEmpty) && sessions.active == nil
        if blocked, reading.running {
            log(.info, "background reading stops: the readers are released")
            stopReading()
        } else if !blocked, !reading.running, unsettled.isEmpty {
            if reading.generation > 0 { log(.info, "background reading starts again") }
            startReading()
        }
        updatePaused()
    }

    /// Why background reading is paused now, in the order of the `PausedReasons` property.
    var currentReasons: [BackgroundPause] {
        var reasons: [BackgroundPause] = []
        // While the first reports are awaited the readers are not open yet: as good as none.
        if reading.running || !unsettled.isEmpty, readers.isEmpty, reading.opened || reading.previousReaders == 0 {
            reasons.append(.noReader)
        }
        if sessions.active != nil { reasons.append(.scanSession) }
        if !inhibitors.isEmpty || !held.isEmpty { reasons.append(.readerInUse) }
        return reasons + board.holding
    }

    private mutating func updatePaused() {
        let reasons = currentReasons
        let conditions = board.states
        if reasons != pausedReasons || conditions != announcedConditions {
            var changed: [String: DBusValue] = ["Conditions": Self.conditionsValue(conditions)]
            if reasons != pausedReasons {
                log(.info, reasons.isEmpty ? "background reading is on" : "background reading is paused: \(reasons.map(\.rawValue))")
                changed["BackgroundReading"] = .boolean(reasons.isEmpty)
                changed["PausedReasons"] = .strings(reasons.map(\.rawValue))
            }
            pausedReasons = reasons
            announcedConditions = conditions
            effects.append(.update(path: ScannerAPI.path, interface: ScannerAPI.interface, changed))
        }
        let status = readerStatusNow
        if status != readerStatus {
            readerStatus = status
            for number in readers.keys.sorted() {
                effects.append(.update(path: Self.readerPath(number), interface: ScannerAPI.readerInterface, ["Status": .string(status)]))
            }
        }
    }

    var readerStatusNow: String { pausedReasons.isEmpty || sessions.active != nil ? "searching" : "paused" }

    static func conditionsValue(_ conditions: [BackgroundPause: ConditionState]) -> DBusValue {
        .dictionary(keySignature: "s", valueSignature: "s", conditions.sorted { $0.key.rawValue < $1.key.rawValue }.map {
            DBusDictEntry(.string($0.key.rawValue), .string($0.value.rawValue))
        })
    }

    /// The manager object, as it is before anything happened too (the runtime serves that one
    /// before the bus name is taken, so the first caller never finds no object).
    var scannerObject: BusObject {
        BusObject(path: ScannerAPI.path, kind: .scanner, interface: ScannerAPI.interface, properties: scannerProperties, owner: nil)
    }

    var scannerProperties: [String: DBusValue] {
        ["BackgroundReading": .boolean(pausedReasons.isEmpty),
         "PausedReasons": .strings(pausedReasons.map(\.rawValue)),
         "Conditions": Self.conditionsValue(announcedConditions),
         "Broker": broker?.busValue ?? BrokerStatus.noBroker,
         "Notifications": .string(notificationServer ? "available" : "unavailable"),
         "Version": .string(ScannerAPI.version)]
    }

    private mutating func notificationServerIs(_ present: Bool) {
        guard present != notificationServer else { return }
        notificationServer = present
        effects.append(.update(path: ScannerAPI.path, interface: ScannerAPI.interface, ["Notifications": scannerProperties["Notifications"]!]))
    }

    static func readerPath(_ number: Int) -> String { "\(ScannerAPI.readersPath)/\(number)" }

    // MARK: Effects

    mutating func log(_ level: Logger.Level, _ message: String, _ metadata: [String: String] = [:]) {
        effects.append(.log(level, message, metadata: metadata))
    }

    mutating func emit(_ effect: DaemonEffect) { effects.append(effect) }

    /// What the offers read of the core's other state.
    var offerContext: OfferBook.Context {
        .init(registry: registry, defaults: defaults, composer: composer, canJoinNetworks: board.answers(.networkManager), stopping: stopping)
    }

    // The offers' state, for the tests that look at it.
    var offers: [UInt32: OfferBook.PendingOffer] { offerBook.offers }
    var deliveries: [EffectID: OfferBook.Delivery] { offerBook.deliveries }
    var showingCount: Int { offerBook.showingCount }

    func copy(for options: ScanSessionOptions) -> any ScanCopyCatalog {
        ScanCopy.catalog(for: options.language ?? configuration.language, object: options.object)
    }
}

// MARK: Reading

extension DaemonCore {
    mutating func startReading() {
        reading.generation += 1
        reading.running = true
        reading.opened = false
        effects.append(.startReading(generation: reading.generation))
    }

    /// Closes the readers; their objects go at once (InterfacesRemoved), and whatever the
    /// closing generation still says is ignored.
    mutating func stopReading() {
        reading.previousReaders = readers.count
        reading.running = false
        effects.append(.stopReading(generation: reading.generation))
        for number in readers.keys.sorted() { effects.append(.unpublish(path: Self.readerPath(number))) }
        readers = [:]
        held = []
        near = []
    }

    private mutating func handle(_ event: ReadingEvent) {
        switch event {
        case .readerAdded(let id, let name, let backend):
            let key = "\(backend.rawValue)\u{0}\(name)"
            let number = readerNumbers[key].flatMap { readers[$0] == nil ? $0 : nil } ?? nextReaderNumber
            if number == nextReaderNumber { nextReaderNumber += 1 }
            readerNumbers[key] = number
            readers[number] = ReaderEntry(id: id, name: name, backend: backend)
            log(.info, "using reader \(name)", ["backend": backend.rawValue])
            effects.append(.observe(.reader(name: name)))
            effects.append(.publish(BusObject(
                path: Self.readerPath(number), kind: .reader, interface: ScannerAPI.readerInterface,
                properties: ["Name": .string(name), "Backend": .string(backend.rawValue), "Status": .string(readerStatus)], owner: nil)))
        case .readerRemoved(let id, let problem):
            guard let number = readers.first(where: { $0.value.id == id })?.key, let reader = readers.removeValue(forKey: number) else { return }
            held.remove(id)
            near.removeAll { $0.reader == id }
            log(.notice, "reader \(reader.name) is gone\(problem.map { ": \($0)" } ?? "")")
            effects.append(.unpublish(path: Self.readerPath(number)))
        case .heldElsewhere(let id, let isHeld):
            guard let reader = readers.values.first(where: { $0.id == id }) else { return }
            if isHeld { held.insert(id) } else { held.remove(id) }
            log(.info, isHeld ? "another program holds the object on \(reader.name) exclusively" : "\(reader.name) is free again")
        case .reading:
            guard let session = sessions.active, session.write == nil, session.asking == nil else { return }
            sessionReading = session.id
            sessionChanged(session.id, ["State": .string("reading")])
            showSheet(session.id, .reading)
        case .departed(let id):
            guard near.contains(where: { $0.reader == id }) else { return }
            near.removeAll { $0.reader == id }
            log(.info, "the object read on \(readers.values.first { $0.id == id }?.name ?? "a reader") left it")
        case .failed(let failure):
            log(.warning, "an object could not be read: \(failure)")
            // The session looks again: its app shows its prompt again.
            if let session = sessions.active, sessionReading == session.id {
                sessionReading = nil
                sessionChanged(session.id, ["State": .string("active")])
                showSheet(session.id, .looking)
            }
        case .readWithPassword(let object, let session):
            guard sessions.active?.id == session else {
                // Its session ended while it was read: what its password opened is nobody else's.
                if sessionReading == session { sessionReading = nil }
                return log(.info, "an object read with ended scan session \(session)'s password is not offered")
            }
            handle(.scanned(object))
        case .needsPassword(let wrong):
            log(.notice, wrong ? "an object refused the scan session's password" : "an object needs a password to be read")
            // The session looks again, its prompt saying why.
            if let session = sessions.active, sessionReading == session.id {
                sessionReading = nil
                let text = wrong ? copy(for: session.options).wrongPassword : copy(for: session.options).passwordRequired
                sessions.update(session.id) { $0.alertMessage = text }
                sessionChanged(session.id, ["State": .string("active"), "AlertMessage": .string(text)])
                showSheet(session.id, .looking)
            }
        case .opened:
            reading.opened = true
            if readers.isEmpty, let session = sessions.active {
                endSession(session.id, .unavailable, message: copy(for: session.options).noReader)
            }
        case .ended(let error):
            reading.opened = true
            log(.error, "no reader is left and none can appear: \(error)")
            if let session = sessions.active { endSession(session.id, .unavailable, message: copy(for: session.options).noReader) }
        case .scanned(let object):
            if case .notGenuine(let reason)? = object.authenticity.genuine {
                // The report says only genuine false: why is in the journal.
                let uid = Hex.string(object.identifier)
                if configuration.notGenuine == .refuse {
                    log(.notice, "an object whose chip is not genuine is refused: \(reason)", ["reader": object.readerName, "uid": uid])
                    effects.append(.observe(.refused(reader: object.readerName, uid: uid, reason: reason, session: sessions.active?.id)))
                    return lookAgain()
                }
                log(.info, "an object whose chip is not genuine: \(reason)", ["reader": object.readerName, "uid": uid])
            }
            let report: ReportValue
            do {
                report = try object.report()
            } catch {
                log(.warning, "an object's content could not be decoded: \(error)", ["reader": object.readerName])
                return lookAgain()
            }
            effects.append(.observe(.detected(reader: object.readerName, uid: Hex.string(object.identifier), report: report,
                                              session: sessions.active?.id)))
            if sessions.active == nil, let reader = readers.values.first(where: { $0.name == object.readerName && $0.backend == object.backend }) {
                near.removeAll { $0.reader == reader.id }
                near.append((reader.id, report))
            }
            if let session = sessions.active {
                // An object read while a write session waits (it arrived before the write was
                // armed) is neither the session's nor offered: the sheet is showing.
                guard session.write == nil else { return log(.info, "an object read while write session \(session.id) waits is not offered") }
                // Nothing goes to an app the person has not let in yet.
                guard session.asking == nil else { return log(.info, "an object read while scan session \(session.id) asks is not handed on") }
                detected(report, by: session)
            } else {
                // Nothing is offered while background reading pauses.
                if currentReasons.isEmpty { effects += offerBook.offer(report, uid: object.identifier, offerContext) }
            }
        case .writing, .written: break  // handled above, whatever their generation
        }
    }

    /// An object read for the active session that it does not get (content that does not
    /// decode, a chip refused as not genuine): the session looks again.
    private mutating func lookAgain() {
        guard let session = sessions.active, sessionReading == session.id else { return }
        sessionReading = nil
        sessionChanged(session.id, ["State": .string("active")])
        showSheet(session.id, .looking)
    }
}
