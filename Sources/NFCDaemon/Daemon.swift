import Logging
import NDEFReport
import NFCDispatch
import NFCReaders
import NFCScanKit
import Systemd

/// nfcscand: owns the readers, notices objects held near them, offers each to the app that asked
/// for it (or its web link to the browser) in a desktop notification, and sends it to that app
/// when the person chooses the notification.
///
/// Everything that happens (bus calls, signals, reads) becomes an ``Event`` handled one at a
/// time, in order, by ``run()``: the state below is touched by nothing else.
public actor Daemon {
    public struct Configuration: Sendable {
        public var readers: ReaderDirectory
        /// Only this reader (an identifier, a name, or part of one); nil: every reader.
        public var wantedReader: String?
        /// The program that opens web links when no desktop portal answers.
        public var linkOpener: String
        public var copy: any ScanCopyCatalog
        /// The camera's device nodes (a glob); nil: no camera source (the condition is unknown).
        public var cameraDevices: String?
        /// The kernel's radio switches (`/dev/rfkill`); nil: no rfkill source.
        public var rfkillDevice: String?
        /// Where "unlocked since boot" is remembered ($XDG_RUNTIME_DIR); nil: locked-after-restart is unknown.
        public var runtimeDirectory: String?
        /// System conditions that never pause background reading here (the configuration file: kiosks).
        public var ignoredConditions: Set<BackgroundPause>
        /// The language of notifications, and of sessions that ask for none.
        public var language: ScanCopy.Language

        public init(readers: ReaderDirectory = .standard(), wantedReader: String? = nil, linkOpener: String = "xdg-open",
                    language: ScanCopy.Language = .english, cameraDevices: String? = nil, rfkillDevice: String? = nil,
                    runtimeDirectory: String? = nil, ignoredConditions: Set<BackgroundPause> = []) {
            self.language = language
            self.cameraDevices = cameraDevices
            self.rfkillDevice = rfkillDevice
            self.runtimeDirectory = runtimeDirectory
            self.ignoredConditions = ignoredConditions
            let copy = ScanCopy.catalog(for: language)
            self.readers = readers
            self.wantedReader = wantedReader
            self.linkOpener = linkOpener
            self.copy = copy
        }
    }

    enum Event: Sendable {
        case call(BusMethodCall)
        /// A session's app asked to look again (objects in the field are read again).
        case restartPolling(session: Int)
        case nameOwnerGone(String)
        case notification(NotificationServer.Event)
        case reading(BackgroundReading.Event)
        case delivered(notification: UInt32, success: Bool, registration: HandlerRegistration?)
        case sessionTimedOut(Int)
        case inhibitorReleased(Int)
        /// What a condition source says now (nil: it cannot tell).
        case condition(ConditionSource, holds: Bool?)
    }

    /// An offer on screen, waiting for the person.
    struct PendingOffer {
        let offer: Offer
        let report: ReportValue
    }

    private let bus: BusConnection
    /// The system bus (logind, NetworkManager); nil when there is none: their conditions are unknown.
    private let systemBus: BusConnection?
    private let configuration: Configuration
    private let logger: Logger
    private let composer: NotificationComposer
    private let events: AsyncStream<Event>
    private let eventSink: AsyncStream<Event>.Continuation

    private var registry = HandlerRegistry()
    private var pending: [UInt32: PendingOffer] = [:]
    /// The newest offer's notification: the next one replaces it rather than piling up.
    private var currentOffer: UInt32 = 0
    private var readers: [Int: any Reader] = [:]
    private var nextReaderNumber = 1
    /// Each reader's number, kept for its backend and name: a reader closed for a condition or by
    /// RestartPolling comes back at the same object path.
    private var readerNumbers: [String: Int] = [:]
    private var pausedReasons: [ScannerAPI.PausedReason] = [.noReader]
    /// The system conditions' states as last announced (the `Conditions` property).
    private var announcedConditions: [BackgroundPause: ConditionState] = [:]
    private var notifications: NotificationServer?
    private var reading: BackgroundReading?
    private var subscriptions: [BusSubscription] = []
    private var deliveries: [Task<Void, Never>] = []
    private var sessions = ScanSessionQueue()
    private var sessionTimers: [Int: Task<Void, Never>] = [:]
    private var inhibitors: [Int: Inhibitor] = [:]
    private var nextInhibitor = 1
    private var board: ConditionBoard
    /// The condition sources, kept alive while the daemon runs.
    private var watches: [any Sendable] = []
    /// Whether background reading has opened the readers present when it started (until then,
    /// no reader does not yet mean none).
    private var readersOpened = false
    /// Readers whose object another program holds exclusively (a wallet or smart-card app through
    /// pcscd): background reading pauses, but the readers stay open to notice the release.
    private var heldReaders: Set<ObjectIdentifier> = []
    /// The active session whose object is being read now (its State is "reading").
    private var sessionReading: Int?

    public init(bus: BusConnection, systemBus: BusConnection? = nil, configuration: Configuration = .init(), logger: Logger) {
        self.bus = bus
        self.systemBus = systemBus
        board = ConditionBoard(ignored: configuration.ignoredConditions)
        self.configuration = configuration
        self.logger = logger
        composer = NotificationComposer(copy: configuration.copy)
        (events, eventSink) = AsyncStream.makeStream(of: Event.self)
    }

    /// Serves the API, takes the bus name and starts reading; returns once the daemon answers
    /// (then tell systemd READY=1), while ``run()`` handles what follows.
    public func start() throws(BusError) {
        let sink = eventSink
        subscriptions.append(try bus.exportSubtree(ScannerAPI.path) { sink.yield(.call($0)) })
        subscriptions.append(try bus.addMatch(
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'"
        ) { signal in
            // A unique name losing its owner: that connection closed.
            guard signal.arguments.count == 3, let name = signal.arguments[0].stringValue, name.hasPrefix(":"),
                  signal.arguments[2].stringValue == "" else { return }
            sink.yield(.nameOwnerGone(name))
        })
        notifications = try NotificationServer(bus: bus) { sink.yield(.notification($0)) }
        watches = ConditionSources.start(bus: bus, systemBus: systemBus, configuration: configuration, ignored: board.ignored,
                                         logger: logger) { sink.yield(.condition($0, holds: $1)) }
        try bus.requestName(ScannerAPI.busName)
        startReading()
        logger.info("serving \(ScannerAPI.busName) on the session bus as \(bus.uniqueName)")
    }

    private func startReading() {
        readersOpened = false
        let sink = eventSink
        reading = BackgroundReading(directory: configuration.readers, wanted: configuration.wantedReader) { sink.yield(.reading($0)) }
    }

    /// Closes every reader and opens them again, so objects already in a field are announced
    /// anew (a reader reports an object once per arrival): what `RestartPolling` asks for.
    private func restartReading() async {
        await stopReading()
        startReading()
    }

    private func stopReading() async {
        await reading?.stop()
        reading = nil
        for number in readers.keys.sorted() { announceRemoval(ofReader: number) }
        readers = [:]
        heldReaders = []
    }

    private func announceRemoval(ofReader number: Int) {
        try? bus.emitSignal(path: ScannerAPI.path, interface: ScannerAPI.objectManager, member: "InterfacesRemoved",
                            [.objectPath(Self.readerPath(number)), .strings([ScannerAPI.readerInterface])])
    }

    /// Handles events until ``stop()``.
    public func run() async {
        for await event in events {
            await handle(event)
            await applyConditions()
        }
    }

    /// Background reading stops (the readers are closed: another program may then use them,
    /// and nothing wakes up) while a condition asks for it and no scan session needs the
    /// readers; it starts again when all is clear. Checked after every event, so a condition
    /// that starts is in force before the next object is handled.
    /// Airplane mode stops sessions too: the radios are off for every use.
    private func applyConditions() async {
        if board.holds(.airplaneMode) {
            for session in sessions.all.reversed() {
                endSession(session.id, .radioDisabled, message: copy(for: session).radioDisabled)
            }
        }
        let blocked = (!inhibitors.isEmpty || !board.holding.isEmpty) && sessions.active == nil
        if blocked, reading != nil {
            logger.info("background reading stops: the readers are released")
            await stopReading()
        } else if !blocked, reading == nil, !subscriptions.isEmpty {
            logger.info("background reading starts again")
            startReading()
        }
        updatePaused()
    }

    /// Stops reading, withdraws the offers still on screen, and ends ``run()``.
    public func stop() async {
        for session in sessions.all.reversed() { endSession(session.id, .terminated) }
        for inhibitor in inhibitors.values { inhibitor.cancel() }
        await stopReading()
        for task in deliveries { task.cancel() }
        for id in pending.keys { notifications?.close(id) }
        pending = [:]
        for subscription in subscriptions { subscription.cancel() }
        subscriptions = []
        eventSink.finish()
    }

    // MARK: Events

    private func handle(_ event: Event) async {
        switch event {
        case .call(let call): handle(call)
        case .restartPolling(let id):
            guard sessions.active?.id == id else { return }
            logger.info("scan session \(id) restarts polling: the readers are opened again")
            await restartReading()
        case .nameOwnerGone(let name):
            for session in sessions.sessions(of: name).reversed() { endSession(session.id, .userCanceled, notify: false) }
            let removed = registry.removeAll(owner: name)
            for registration in removed {
                logger.info("handler \(registration.id) of \(registration.appName) ended with its connection", metadata: ["owner": "\(name)"])
            }
        case .notification(let event): handle(event)
        case .condition(let source, let holds):
            if board.record(source, holds: holds) {
                let condition = source.condition
                logger.info("\(condition.rawValue): \(board.state(of: condition).rawValue)", metadata: ["via": "\(source.rawValue)"])
            }
        case .inhibitorReleased(let id):
            if let inhibitor = inhibitors.removeValue(forKey: id) {
                logger.info("inhibitor \(id) of \(inhibitor.who) released", metadata: ["owner": "\(inhibitor.owner)"])
            }
        case .sessionTimedOut(let id):
            if let session = sessions.active, session.id == id { endSession(id, .timeout, message: copy(for: session).timedOut) }
        case .reading(let event): await handle(event)
        case .delivered(let id, let success, let registration):
            deliveries.removeAll { $0.isCancelled }
            notifications?.close(id)
            if !success { await show(registration.map(composer.handlerFailed) ?? composer.browserFailed(), replacing: 0) }
        }
    }

    private func handle(_ event: BackgroundReading.Event) async {
        switch event {
        case .readerAdded(let reader):
            let key = "\(reader.backend.rawValue)\u{0}\(reader.name)"
            let number = readerNumbers[key].flatMap { readers[$0] == nil ? $0 : nil } ?? nextReaderNumber
            if number == nextReaderNumber { nextReaderNumber += 1 }
            readerNumbers[key] = number
            readers[number] = reader
            logger.info("using reader \(reader.name)", metadata: ["backend": "\(reader.backend.rawValue)"])
            try? bus.emitSignal(path: ScannerAPI.path, interface: ScannerAPI.objectManager, member: "InterfacesAdded",
                                [.objectPath(Self.readerPath(number)), readerInterfaces(reader)])
        case .readerRemoved(let reader, let problem):
            guard let number = readers.first(where: { $0.value === reader })?.key else { return }
            readers[number] = nil
            heldReaders.remove(ObjectIdentifier(reader))
            logger.notice("reader \(reader.name) is gone\(problem.map { ": \($0)" } ?? "")")
            announceRemoval(ofReader: number)
        case .heldElsewhere(let reader, let held):
            if held { heldReaders.insert(ObjectIdentifier(reader)) } else { heldReaders.remove(ObjectIdentifier(reader)) }
            logger.info(held ? "another program holds the object on \(reader.name) exclusively" : "\(reader.name) is free again")
        case .reading:
            guard let session = sessions.active else { return }
            sessionReading = session.id
            sessionChanged(session, ["State": .string("reading")])
        case .failed(let failure):
            logger.warning("an object could not be read: \(failure)")
            // The session looks again: its app shows its prompt again.
            if let session = sessions.active, sessionReading == session.id {
                sessionReading = nil
                sessionChanged(session, ["State": .string("active")])
            }
        case .opened:
            readersOpened = true
            if readers.isEmpty, let session = sessions.active { endSession(session.id, .unavailable, message: copy(for: session).noReader) }
        case .ended(let error):
            logger.error("no reader is left and none can appear: \(error)")
            if let session = sessions.active { endSession(session.id, .unavailable, message: copy(for: session).noReader) }
        case .scanned(let object):
            if let session = sessions.active { detected(object, by: session) } else { await offer(object) }
        }
    }

    private func handle(_ event: NotificationServer.Event) {
        switch event {
        case .actionInvoked(let id, let key):
            guard key == NotificationContent.defaultActionKey || key == NotificationContent.openActionKey,
                  let offer = pending.removeValue(forKey: id) else { return }
            if currentOffer == id { currentOffer = 0 }
            deliver(offer, notification: id)
        case .closed(let id, let reason):
            if pending.removeValue(forKey: id) != nil {
                logger.debug("offer \(id) closed (reason \(reason)); its object is dropped")
            }
            if currentOffer == id { currentOffer = 0 }
        case .serverChanged(let present):
            // Ids of a server that left mean nothing to the next one.
            pending = [:]
            currentOffer = 0
            if present {
                logger.notice("a notification server appeared; offers are shown again")
            } else {
                logger.warning("the notification server left the bus; objects are read but not offered until one appears")
            }
        }
    }

    // MARK: Offers

    /// The object's report, or nil (logged) when its content does not decode.
    private func report(of object: ScannedObject) -> ReportValue? {
        do {
            return try object.report()
        } catch {
            logger.warning("an object's content could not be decoded: \(error)", metadata: ["reader": "\(object.readerName)"])
            return nil
        }
    }

    private func offer(_ object: ScannedObject) async {
        guard pausedReasons.isEmpty, let report = report(of: object) else { return }
        guard let offer = registry.offer(for: report) else {
            logger.info("an object was read; no app asked for what it holds", metadata: ["uid": "\(ScannedObject.hex(object.identifier))"])
            return
        }
        let replacing = currentOffer
        guard let id = await show(composer.notification(for: offer, report: report), replacing: replacing) else { return }
        if replacing != 0 { pending[replacing] = nil }
        pending[id] = PendingOffer(offer: offer, report: report)
        currentOffer = id
        switch offer {
        case .handler(let match):
            logger.info("offered an object to \(match.registration.appName)", metadata: ["notification": "\(id)", "registration": "\(match.registration.id)"])
        case .webLink:
            logger.info("offered an object's web link to the browser", metadata: ["notification": "\(id)"])
        }
    }

    @discardableResult
    private func show(_ content: NotificationContent, replacing: UInt32) async -> UInt32? {
        guard let notifications else { return nil }
        do {
            return try await notifications.notify(content, replacing: replacing)
        } catch {
            logger.warning("could not show a notification: \(error)")
            return nil
        }
    }

    /// Sends the chosen offer on its way, once; reports back with ``Event/delivered``.
    private func deliver(_ pendingOffer: PendingOffer, notification id: UInt32) {
        let sink = eventSink
        switch pendingOffer.offer {
        case .handler(let match):
            guard let registration = registry.registration(match.registration.id) else {
                logger.warning("\(match.registration.appName) left before its object could be sent")
                sink.yield(.delivered(notification: id, success: false, registration: match.registration))
                return
            }
            let delivery = HandlerDelivery(bus: bus, logger: logger)
            var scan = pendingOffer.report.busValue
            if case .dictionary(let key, let value, var entries) = scan {
                entries.append(DBusDictEntry(.string("registration"), .variant(.uint32(registration.id))))
                scan = .dictionary(keySignature: key, valueSignature: value, entries)
            }
            let argument = scan
            deliveries.append(Task {
                let success = await delivery.send(argument, to: registration)
                sink.yield(.delivered(notification: id, success: success, registration: registration))
            })
        case .webLink(let link):
            let opener = LinkOpener(bus: bus, fallback: configuration.linkOpener)
            let logger = logger
            deliveries.append(Task {
                do {
                    let how = try await opener.open(link.uri)
                    logger.info("opened an object's web link through \(how)", metadata: ["notification": "\(id)"])
                    sink.yield(.delivered(notification: id, success: true, registration: nil))
                } catch {
                    logger.error("\(error)")
                    sink.yield(.delivered(notification: id, success: false, registration: nil))
                }
            })
        }
    }

    // MARK: In-app scan sessions

    private func copy(for session: ScanSessionQueue.Session) -> any ScanCopyCatalog { copy(for: session.options) }

    private func copy(for options: ScanSessionOptions) -> any ScanCopyCatalog {
        ScanCopy.catalog(for: options.language ?? configuration.language, object: options.object)
    }

    private func startSession(_ call: BusMethodCall) {
        guard call.signature == "a{sv}", let values = call.arguments[0].stringKeyedValue else {
            return call.fail(ScannerAPI.ErrorName.invalidArgs, "StartScanSession takes options (a{sv})")
        }
        let options: ScanSessionOptions
        do { options = try ScanSessionOptions(values) } catch {
            return call.fail(ScannerAPI.ErrorName.invalidArgs, error.description)
        }
        guard !board.holds(.airplaneMode) else {
            return call.fail(ScannerAPI.ErrorName.radioDisabled, "airplane mode is on: the radios are off until it ends")
        }
        if let alert = options.alertMessage { warnAboutCopy(alert, from: call.sender) }
        let alert = options.alertMessage ?? copy(for: options).firstPrompt
        guard let (session, activated) = sessions.start(owner: call.sender, options: options, alertMessage: alert) else {
            return call.fail(ScannerAPI.ErrorName.systemBusy,
                             "\(ScanSessionQueue.maximumWaiting) scan sessions are waiting already; try again later")
        }
        logger.info("scan session \(session.id) started (\(activated ? "active" : "waiting"))",
                    metadata: ["owner": "\(call.sender)", "multiple": "\(options.multiple)"])
        call.reply([.objectPath(session.path)])
        if activated { activate(session) }
    }

    /// An app's own prompt is shown as it is, but a prompt that breaks the copy rules
    /// (../shared/guidance/nfc.md) is worth a warning the app's developer will find.
    private func warnAboutCopy(_ text: String, from owner: String) {
        let problems = CopyRules.problems(in: text)
        guard !problems.isEmpty else { return }
        logger.warning("an app's alert message breaks the copy rules: it \(problems.map(\.description).joined(separator: ", it "))",
                       metadata: ["owner": "\(owner)", "alert": "\(text)"])
    }

    /// With no reader open yet the session waits for background reading's first look (or, when a
    /// condition closed the readers, for them to open again), which ends it if none is found.
    private func activate(_ session: ScanSessionQueue.Session) {
        guard !readers.isEmpty || !readersOpened || reading == nil else {
            return endSession(session.id, .unavailable, message: copy(for: session).noReader)
        }
        let sink = eventSink, id = session.id, timeout = session.options.timeout
        sessionTimers[id] = Task {
            try? await Task.sleep(for: .seconds(timeout))
            if !Task.isCancelled { sink.yield(.sessionTimedOut(id)) }
        }
        sessionChanged(session, ["State": .string("active")])
    }

    /// Ends session `id` with `reason`, telling its app (unless it is gone), and activates the
    /// next one waiting.
    private func endSession(_ id: Int, _ reason: ScanSessionQueue.EndReason, message: String = "", notify: Bool = true) {
        guard let (ended, next) = sessions.end(id) else { return }
        sessionTimers.removeValue(forKey: id)?.cancel()
        if sessionReading == id { sessionReading = nil }
        if notify {
            signal(ended, ScannerAPI.sessionInterface, "Invalidated", [.string(reason.rawValue), .string(message)])
        }
        logger.info("scan session \(id) ended: \(reason.rawValue)", metadata: ["reads": "\(ended.reads)"])
        if let next { activate(next) }
    }

    private func detected(_ object: ScannedObject, by session: ScanSessionQueue.Session) {
        sessionReading = nil
        guard let report = report(of: object) else {
            // Content that does not decode: the session looks again.
            return sessionChanged(session, ["State": .string("active")])
        }
        signal(session, ScannerAPI.sessionInterface, "Detected", [report.busValue])
        sessions.update(session.id) { $0.reads += 1 }
        guard session.options.multiple else { return endSession(session.id, .firstRead) }
        let later = copy(for: session).laterPrompt
        sessions.update(session.id) { $0.alertMessage = later }
        sessionChanged(session, ["AlertMessage": .string(later), "Reads": .uint32(UInt32(session.reads + 1)), "State": .string("active")])
    }

    private func sessionChanged(_ session: ScanSessionQueue.Session, _ changed: [String: DBusValue]) {
        signal(session, ScannerAPI.properties, "PropertiesChanged", [.string(ScannerAPI.sessionInterface), .vardict(changed), .strings([])])
    }

    /// A signal from `session`'s object to its app alone (unicast: no other app may see it).
    private func signal(_ session: ScanSessionQueue.Session, _ interface: String, _ member: String, _ arguments: [DBusValue]) {
        try? bus.emitSignal(path: session.path, interface: interface, member: member, arguments, destination: session.owner)
    }

    private func sessionProperties(_ session: ScanSessionQueue.Session) -> [String: DBusValue] {
        ["AlertMessage": .string(session.alertMessage),
         "State": .string(sessions.active?.id != session.id ? "waiting" : sessionReading == session.id ? "reading" : "active"),
         "Multiple": .boolean(session.options.multiple),
         "Reads": .uint32(UInt32(clamping: session.reads))]
    }

    private func handleSession(_ call: BusMethodCall, _ session: ScanSessionQueue.Session) {
        if call.interface == ScannerAPI.introspectable, call.member == "Introspect" {
            return call.reply([.string(Introspection.session)])
        }
        guard call.sender == session.owner else {
            return call.fail(ScannerAPI.ErrorName.accessDenied, "only the app that started scan session \(session.id) may use it")
        }
        switch (call.interface, call.member) {
        case (ScannerAPI.sessionInterface, "Invalidate"):
            guard call.signature == "s", let message = call.arguments[0].stringValue else {
                return call.fail(ScannerAPI.ErrorName.invalidArgs, "Invalidate takes a message for the person (s), or \"\"")
            }
            if !message.isEmpty { warnAboutCopy(message, from: call.sender) }
            call.reply()
            endSession(session.id, .userCanceled, message: message)
        case (ScannerAPI.sessionInterface, "RestartPolling"):
            guard sessions.active?.id == session.id else {
                return call.fail(ScannerAPI.ErrorName.accessDenied, "scan session \(session.id) is waiting; only the active session may restart polling")
            }
            call.reply()
            eventSink.yield(.restartPolling(session: session.id))
        case (ScannerAPI.properties, "Set"):
            guard call.signature == "ssv", call.arguments[0].stringValue == ScannerAPI.sessionInterface,
                  call.arguments[1].stringValue == "AlertMessage", let text = call.arguments[2].stringValue else {
                return call.fail(BusMethodCall.propertyReadOnly, "only AlertMessage (s) of \(ScannerAPI.sessionInterface) can be set")
            }
            guard text.utf8.count <= ScanSessionOptions.maximumAlertLength else {
                return call.fail(ScannerAPI.ErrorName.invalidArgs, "AlertMessage must be at most \(ScanSessionOptions.maximumAlertLength) bytes")
            }
            warnAboutCopy(text, from: call.sender)
            sessions.update(session.id) { $0.alertMessage = text }
            call.reply()
            sessionChanged(session, ["AlertMessage": .string(text)])
        case (ScannerAPI.properties, _): properties(call, ScannerAPI.sessionInterface, sessionProperties(session))
        default: call.fail(BusMethodCall.unknownMethod, "\(call.interface).\(call.member) is not a method of \(call.path)")
        }
    }

    // MARK: Inhibitors

    /// `Inhibit(s what, s who, s why) -> h`: background reading stays off until the returned
    /// descriptor is closed (or the app ends). `what` is "background" (the only kind so far).
    private func inhibit(_ call: BusMethodCall) {
        guard call.signature == "sss", let what = call.arguments[0].stringValue, let who = call.arguments[1].stringValue,
              let why = call.arguments[2].stringValue else {
            return call.fail(ScannerAPI.ErrorName.invalidArgs, "Inhibit takes what, who and why (sss)")
        }
        guard what == "background" else {
            return call.fail(ScannerAPI.ErrorName.invalidArgs, "Inhibit: what must be \"background\", not \"\(what)\"")
        }
        guard !who.isEmpty, who.utf8.count <= Inhibitor.maximumTextLength, why.utf8.count <= Inhibitor.maximumTextLength else {
            return call.fail(ScannerAPI.ErrorName.invalidArgs, "Inhibit: who is required; who and why take at most \(Inhibitor.maximumTextLength) bytes")
        }
        guard inhibitors.values.filter({ $0.owner == call.sender }).count < Inhibitor.maximumPerOwner else {
            return call.fail(ScannerAPI.ErrorName.limitsExceeded, "Inhibit: at most \(Inhibitor.maximumPerOwner) inhibitors per connection")
        }
        let id = nextInhibitor
        nextInhibitor += 1
        let sink = eventSink
        guard let (inhibitor, writeEnd) = Inhibitor.make(id: id, who: who, why: why, owner: call.sender,
                                                         released: { sink.yield(.inhibitorReleased(id)) }) else {
            return call.fail("org.freedesktop.DBus.Error.Failed", "Inhibit: no pipe could be made")
        }
        inhibitors[id] = inhibitor
        logger.info("inhibitor \(id) taken by \(who): \(why)", metadata: ["owner": "\(call.sender)"])
        call.reply([.unixFD(writeEnd)])
        Inhibitor.handedOver(writeEnd)
    }

    // MARK: State

    private func updatePaused() {
        var reasons: [ScannerAPI.PausedReason] = reading != nil && readers.isEmpty ? [.noReader] : []
        if sessions.active != nil { reasons.append(.scanSession) }
        if !inhibitors.isEmpty || !heldReaders.isEmpty { reasons.append(.readerInUse) }
        reasons += board.holding
        let conditions = board.states
        guard reasons != pausedReasons || conditions != announcedConditions else { return }
        var changed: [String: DBusValue] = ["Conditions": conditionsValue(conditions)]
        if reasons != pausedReasons {
            logger.info(reasons.isEmpty ? "background reading is on" : "background reading is paused: \(reasons.map(\.rawValue))")
            changed["BackgroundReading"] = .boolean(reasons.isEmpty)
            changed["PausedReasons"] = .strings(reasons.map(\.rawValue))
        }
        pausedReasons = reasons
        announcedConditions = conditions
        try? bus.emitSignal(path: ScannerAPI.path, interface: ScannerAPI.properties, member: "PropertiesChanged",
                            [.string(ScannerAPI.interface), .vardict(changed), .strings([])])
    }

    private func conditionsValue(_ conditions: [BackgroundPause: ConditionState]) -> DBusValue {
        .dictionary(keySignature: "s", valueSignature: "s", conditions.sorted { $0.key.rawValue < $1.key.rawValue }.map {
            DBusDictEntry(.string($0.key.rawValue), .string($0.value.rawValue))
        })
    }

    var scannerProperties: [String: DBusValue] {
        ["BackgroundReading": .boolean(pausedReasons.isEmpty),
         "PausedReasons": .strings(pausedReasons.map(\.rawValue)),
         "Conditions": conditionsValue(announcedConditions),
         "Version": .string(ScannerAPI.version)]
    }

    func readerProperties(_ reader: any Reader) -> [String: DBusValue] {
        ["Name": .string(reader.name), "Backend": .string(reader.backend.rawValue),
         "Status": .string(pausedReasons.isEmpty || sessions.active != nil ? "searching" : "paused")]
    }

    private func readerInterfaces(_ reader: any Reader) -> DBusValue {
        .dictionary(keySignature: "s", valueSignature: "a{sv}",
                    [DBusDictEntry(.string(ScannerAPI.readerInterface), .vardict(readerProperties(reader)))])
    }

    static func readerPath(_ number: Int) -> String { "\(ScannerAPI.readersPath)/\(number)" }

    // MARK: Method calls

    private func handle(_ call: BusMethodCall) {
        if call.path == ScannerAPI.path {
            handleManager(call)
        } else if call.path.hasPrefix(ScannerAPI.sessionsPath + "/"),
                  let id = Int(call.path.dropFirst(ScannerAPI.sessionsPath.count + 1)), let session = sessions.session(id) {
            handleSession(call, session)
        } else if call.path.hasPrefix(ScannerAPI.readersPath + "/"),
                  let number = Int(call.path.dropFirst(ScannerAPI.readersPath.count + 1)), let reader = readers[number] {
            handleReader(call, reader)
        } else {
            call.fail(BusMethodCall.unknownObject, "no object at \(call.path)")
        }
    }

    private func handleManager(_ call: BusMethodCall) {
        switch (call.interface, call.member) {
        case (ScannerAPI.interface, "RegisterHandler"): register(call)
        case (ScannerAPI.interface, "UnregisterHandler"):
            guard call.signature == "u", let id = call.arguments.first?.intValue, let id32 = UInt32(exactly: id) else {
                return call.fail(ScannerAPI.ErrorName.invalidArgs, "UnregisterHandler takes the registration number (u)")
            }
            do {
                let removed = try registry.unregister(id32, by: call.sender)
                logger.info("handler \(removed.id) of \(removed.appName) unregistered")
                call.reply()
            } catch {
                call.fail(ScannerAPI.ErrorName.accessDenied, "\(error)")
            }
        case (ScannerAPI.interface, "StartScanSession"): startSession(call)
        case (ScannerAPI.interface, "Inhibit"): inhibit(call)
        case (ScannerAPI.properties, _): properties(call, ScannerAPI.interface, scannerProperties)
        case (ScannerAPI.introspectable, "Introspect"): call.reply([.string(Introspection.scanner)])
        case (ScannerAPI.objectManager, "GetManagedObjects"):
            let objects = readers.sorted { $0.key < $1.key }.map { number, reader in
                DBusDictEntry(.objectPath(Self.readerPath(number)), readerInterfaces(reader))
            }
            call.reply([.dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", objects)])
        default:
            call.fail(BusMethodCall.unknownMethod, "\(call.interface).\(call.member) is not a method of \(call.path)")
        }
    }

    private func handleReader(_ call: BusMethodCall, _ reader: any Reader) {
        switch (call.interface, call.member) {
        case (ScannerAPI.properties, _): properties(call, ScannerAPI.readerInterface, readerProperties(reader))
        case (ScannerAPI.introspectable, "Introspect"): call.reply([.string(Introspection.reader)])
        default: call.fail(BusMethodCall.unknownMethod, "\(call.interface).\(call.member) is not a method of \(call.path)")
        }
    }

    /// org.freedesktop.DBus.Properties for one read-only interface.
    private func properties(_ call: BusMethodCall, _ interface: String, _ values: [String: DBusValue]) {
        let asked = call.arguments.first?.stringValue ?? ""
        switch call.member {
        case "GetAll" where call.signature == "s":
            call.reply([.vardict(asked == interface ? values : [:])])
        case "Get" where call.signature == "ss":
            guard asked == interface, let name = call.arguments[1].stringValue, let value = values[name] else {
                return call.fail(BusMethodCall.unknownProperty, "\(asked) has no property \(call.arguments[1].stringValue ?? "")")
            }
            call.reply([.variant(value)])
        case "Set" where call.signature == "ssv":
            call.fail(BusMethodCall.propertyReadOnly, "the properties of \(interface) are read-only")
        default:
            call.fail(BusMethodCall.invalidArgs, "Properties.\(call.member) with arguments (\(call.signature))")
        }
    }

    private func register(_ call: BusMethodCall) {
        guard call.signature == "oa{sv}", let handlerPath = call.arguments[0].stringValue,
              let options = call.arguments[1].stringKeyedValue else {
            return call.fail(ScannerAPI.ErrorName.invalidArgs, "RegisterHandler takes the handler object (o) and options (a{sv})")
        }
        guard let appName = options["app-name"]?.stringValue else {
            return call.fail(ScannerAPI.ErrorName.invalidArgs, "option \"app-name\" (s) is required")
        }
        guard let filterValues = options["filters"]?.arrayValue else {
            return call.fail(ScannerAPI.ErrorName.invalidArgs, "option \"filters\" (aa{sv}) is required")
        }
        var filters: [[String: String]] = []
        for (index, value) in filterValues.prefix(HandlerRegistry.maximumFiltersPerRegistration + 1).enumerated() {
            guard let fields = value.stringKeyedValue else {
                return call.fail(ScannerAPI.ErrorName.invalidArgs, "filter \(index) is not a dictionary (a{sv})")
            }
            var strings: [String: String] = [:]
            for (key, field) in fields {
                guard let string = field.stringValue else {
                    return call.fail(ScannerAPI.ErrorName.invalidArgs, "filter \(index): \"\(key)\" must be a string")
                }
                strings[key] = string
            }
            filters.append(strings)
        }
        do {
            let request = try HandlerRequest(appName: appName, appIcon: options["app-icon"]?.stringValue,
                                             desktopEntry: options["desktop-entry"]?.stringValue, filterFields: filters)
            let id = try registry.register(request, owner: call.sender, handlerPath: handlerPath)
            logger.info("handler \(id) registered by \(request.appName)", metadata: ["owner": "\(call.sender)", "path": "\(handlerPath)"])
            call.reply([.uint32(id)])
        } catch {
            call.fail(ScannerAPI.ErrorName.invalidArgs, "\(error)")
        }
    }
}
