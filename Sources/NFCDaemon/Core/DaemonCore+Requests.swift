import DBusValues
import NDEFReport
import NFCBusAPI
import NFCCopy
import NFCDispatch

/// The API's method calls that need a decision, and in-app scan sessions.
extension DaemonCore {
    mutating func handle(_ request: DaemonRequest, call: CallID, caller: String) {
        switch request {
        case .register(let handlerPath, let claimed):
            // "Don't Allow" holds for notifications too: a refused app is offered nothing.
            if let refusal = deniedByPerson(callers[caller]) { return fail(call, ScannerAPI.ErrorName.accessDenied, refusal) }
            // Notifications and ListApps name the app the bus says is calling (issue 21).
            let handlerRequest = callers[caller].map { claimed.identified(name: $0.name, icon: $0.icon, desktopEntry: $0.appID) } ?? claimed
            do {
                let id = try registry.register(handlerRequest, owner: caller, handlerPath: handlerPath)
                log(.info, "handler \(id) registered by \(callers[caller]?.summary ?? caller) (calling itself \(claimed.appName))",
                    ["owner": caller, "path": handlerPath])
                emit(.reply(call, .values([.uint32(id)])))
            } catch {
                fail(call, error.isLimit ? ScannerAPI.ErrorName.limitsExceeded : ScannerAPI.ErrorName.invalidArgs, "\(error)")
            }
        case .unregister(let id):
            do {
                let removed = try registry.unregister(id, by: caller)
                log(.info, "handler \(removed.id) of \(removed.appName) unregistered")
                emit(.reply(call, .values([])))
            } catch {
                fail(call, ScannerAPI.ErrorName.accessDenied, "\(error)")
            }
        case .startSession(let options): startSession(options, call: call, caller: caller)
        case .startWrite(let options): startWrite(options, call: call, caller: caller)
        case .cancelWrite(let id): cancelWrite(id, call: call, caller: caller)
        case .listApps: emit(.reply(call, .values(appsValues)))
        case .inhibit(let who, let why): inhibit(who: who, why: why, call: call, caller: caller)
        case .invalidate(let id, let message):
            guard let session = owned(id, by: caller, call: call) else { return }
            if !message.isEmpty { warnAboutCopy(message, from: caller) }
            emit(.reply(call, .values([])))
            endSession(session.id, .userCanceled, message: message)
        case .restartPolling(let id):
            guard let session = owned(id, by: caller, call: call) else { return }
            guard sessions.active?.id == session.id else {
                return fail(call, ScannerAPI.ErrorName.accessDenied, "scan session \(id) is waiting; only the active session may restart polling")
            }
            emit(.reply(call, .values([])))
            log(.info, "scan session \(id) restarts polling: the readers are opened again")
            if reading.running { stopReading() }
            startReading()
        case .setAlertMessage(let id, let text):
            guard let session = owned(id, by: caller, call: call) else { return }
            guard text.utf8.count <= ScanSessionOptions.maximumAlertLength else {
                return fail(call, ScannerAPI.ErrorName.invalidArgs, "AlertMessage must be at most \(ScanSessionOptions.maximumAlertLength) bytes")
            }
            warnAboutCopy(text, from: caller)
            sessions.update(session.id) { $0.alertMessage = text }
            emit(.reply(call, .values([])))
            sessionChanged(session.id, ["AlertMessage": .string(text)])
            if sessions.active?.id == session.id, session.asking == nil, sessionReading != session.id { showSheet(session.id, .looking) }
        }
    }

    mutating func fail(_ call: CallID, _ name: String, _ message: String) {
        emit(.reply(call, .error(name: name, message: message)))
    }

    /// Answers a session the queue would not take (`what`: "scan sessions", "sessions").
    mutating func refuse(_ call: CallID, _ refusal: ScanSessionQueue.Refusal, _ what: String) {
        switch refusal {
        case .queueFull:
            fail(call, ScannerAPI.ErrorName.systemBusy, "\(ScanSessionQueue.maximumWaiting) \(what) are waiting already; try again later")
        case .ownerFull:
            fail(call, ScannerAPI.ErrorName.limitsExceeded,
                 "this connection has \(ScanSessionQueue.maximumPerOwner) sessions started already; end one (or wait for its end) first")
        }
    }

    /// Session `id` when `caller` started it (the object tree already refuses other callers:
    /// this is the same rule, kept where the decision is).
    private mutating func owned(_ id: Int, by caller: String, call: CallID) -> ScanSessionQueue.Session? {
        guard let session = sessions.session(id), session.write == nil else {
            fail(call, "org.freedesktop.DBus.Error.UnknownObject", "no object at \(ScannerAPI.sessionsPath)/\(id)")
            return nil
        }
        guard session.owner == caller else {
            fail(call, ScannerAPI.ErrorName.accessDenied, "only the app that started scan session \(id) may use it")
            return nil
        }
        return session
    }

    // MARK: Inhibitors

    /// Bounds on what an app may make the daemon keep and log: each inhibitor holds a pipe's read
    /// end, so the overall bound keeps descriptors for everything else (LimitNOFILE in the unit).
    static let maximumInhibitorText = 256
    static let maximumInhibitorsPerOwner = 8
    static let maximumInhibitors = 64

    /// `Inhibit("background", who, why)`: background reading stays off until the descriptor the
    /// runtime hands over is closed (or the app ends).
    private mutating func inhibit(who: String, why: String, call: CallID, caller: String) {
        // Stopping background reading for everyone is for the person's own programs (a wallet, a
        // smart-card app): a sandboxed app may not (Docs/apps.md).
        if let app = callers[caller], app.sandboxed {
            return fail(call, ScannerAPI.ErrorName.accessDenied, "Inhibit: \(app.key) runs in a sandbox, and may not stop background reading")
        }
        guard !who.isEmpty, who.utf8.count <= Self.maximumInhibitorText, why.utf8.count <= Self.maximumInhibitorText else {
            return fail(call, ScannerAPI.ErrorName.invalidArgs,
                        "Inhibit: who is required; who and why take at most \(Self.maximumInhibitorText) bytes")
        }
        guard inhibitors.values.filter({ $0.owner == caller }).count < Self.maximumInhibitorsPerOwner else {
            return fail(call, ScannerAPI.ErrorName.limitsExceeded, "Inhibit: at most \(Self.maximumInhibitorsPerOwner) inhibitors per connection")
        }
        guard inhibitors.count < Self.maximumInhibitors else {
            return fail(call, ScannerAPI.ErrorName.limitsExceeded, "Inhibit: \(Self.maximumInhibitors) inhibitors are held already; try again later")
        }
        let id = nextInhibitor
        nextInhibitor += 1
        inhibitors[id] = InhibitorEntry(who: who, why: why, owner: caller)
        log(.info, "inhibitor \(id) taken by \(who): \(why)", ["owner": caller])
        emit(.grantInhibitor(call, id: id))
    }

    // MARK: Scan sessions

    private mutating func startSession(_ options: ScanSessionOptions, call: CallID, caller: String) {
        guard !board.holds(.airplaneMode) else {
            return fail(call, ScannerAPI.ErrorName.radioDisabled, "airplane mode is on: the radios are off until it ends")
        }
        if let alert = options.alertMessage { warnAboutCopy(alert, from: caller) }
        let alert = options.alertMessage ?? copy(for: options).firstPrompt
        if let refusal = sessions.refusal(for: caller) { return refuse(call, refusal, "scan sessions") }
        let app: CallerApp?
        do { app = try sessionApp(options, caller: caller) } catch { return fail(call, ScannerAPI.ErrorName.accessDenied, error.message) }
        guard let (session, activated) = sessions.start(owner: caller, app: app, options: options, alertMessage: alert) else { return }
        log(.info, "scan session \(session.id) started (\(activated ? "active" : "waiting"))",
            ["owner": caller, "app": app?.key ?? "", "multiple": "\(options.multiple)"])
        emit(.publish(BusObject(path: session.path, kind: .session, interface: ScannerAPI.sessionInterface,
                                properties: sessionProperties(session, state: "waiting"), owner: caller)))
        emit(.reply(call, .values([.objectPath(session.path)])))
        if activated { activate(session) }
    }

    /// An app's own prompt is shown as it is, but a prompt that breaks the copy rules
    /// (../shared/guidance/nfc.md) is worth a warning the app's developer will find.
    private mutating func warnAboutCopy(_ text: String, from owner: String) {
        let problems = CopyRules.problems(in: text)
        guard !problems.isEmpty else { return }
        log(.warning, "an app's alert message breaks the copy rules: it \(problems.map(\.description).joined(separator: ", it "))",
            ["owner": owner, "alert": text])
    }

    /// With no reader open yet the session waits for background reading's first look (or, when a
    /// condition closed the readers, for them to open again), which ends it if none is found.
    mutating func activate(_ session: ScanSessionQueue.Session) {
        if readers.isEmpty, reading.running, reading.opened {
            return endSession(session.id, .unavailable, message: copy(for: session.options).noReader)
        }
        emit(.armTimer(.sessionTimeout(session.id), after: .seconds(session.options.timeout)))
        proceed(session.id)
    }

    /// The active session asks what the sheet must ask first (may its app use the reader; may this
    /// write change the object), else starts looking: a write is armed, a scan reads.
    mutating func proceed(_ id: Int) {
        guard let session = sessions.active, session.id == id else { return }
        if let app = session.app {
            switch permission(for: app) {
            case .allow: break
            case .ask: return ask(.permission, session)
            case .deny: return endSession(id, .notAllowed, byPerson: true)
            }
        }
        if session.write != nil, configuration.showsSheet, !session.consented { return ask(.consent, session) }
        sessions.update(id) { $0.asking = nil }
        // The person answered the sheet's question: an object held near the reader meanwhile (or
        // left there before) was read and kept from the session, and a reader reports an object
        // once per arrival, so the readers are opened anew (as RestartPolling does): the object
        // already near is the one the person means, and the armed write or the scan takes it.
        if session.asking != nil, reading.running {
            log(.info, "\(session.write == nil ? "scan" : "write") session \(id) looks again after the person's answer: the readers are opened anew")
            stopReading()
            startReading()
        }
        if let write = session.write {
            emit(.armWrite(session: session.id, write))
            emit(.update(path: session.path, interface: ScannerAPI.writeSessionInterface, ["State": .string("active")]))
        } else {
            if let password = session.options.password { emit(.readPassword(session: session.id, password)) }
            sessionChanged(session.id, ["State": .string("active")])
        }
        showSheet(id, .looking)
        // An object already near a reader was read when it arrived and is not reported again:
        // it is this scan session's (a write takes the next object to arrive).
        if session.write == nil, let object = near.last, let active = sessions.active, active.id == id {
            log(.info, "scan session \(id) takes the object already near a reader")
            near.removeLast()
            detected(object.report, by: active)
        }
    }

    mutating func fired(_ timer: TimerID) {
        switch timer {
        case .sessionTimeout(let id):
            if let session = sessions.active, session.id == id {
                endSession(id, .timeout, message: copy(for: session.options).timedOut)
            }
        case .deliveryRetry(let id): effects += offerBook.retry(id, offerContext)
        case .conditionsSettle: settled()
        }
    }

    /// Ends session `id` with `reason`, telling its app (unless it is gone), and activates the
    /// next one waiting.
    /// `byPerson`: the person ended it on the sheet, which then closes at once.
    mutating func endSession(_ id: Int, _ reason: ScanSessionQueue.EndReason, message: String = "", notify: Bool = true,
                             byPerson: Bool = false) {
        if let session = sessions.session(id), session.write != nil {
            return endWrite(session, reason, message: message, notify: notify, byPerson: byPerson)
        }
        guard let (ended, next) = sessions.end(id) else { return }
        closeSheet(ended, byPerson ? nil : scanEnding(ended, reason, message: message))
        emit(.cancelTimer(.sessionTimeout(id)))
        // Its password reads nothing after it.
        if ended.options.password != nil { emit(.dropReadPassword(session: id)) }
        if sessionReading == id { sessionReading = nil }
        if notify {
            emit(.signal(path: ended.path, interface: ScannerAPI.sessionInterface, member: "Invalidated",
                         [.string(reason.rawValue), .string(message)], destination: ended.owner))
        }
        emit(.unpublish(path: ended.path))
        log(.info, "scan session \(id) ended: \(reason.rawValue)", ["reads": "\(ended.reads)"])
        if let next { activate(next) }
    }

    /// The active session read `report`: its app gets it; a single session ends, a multiple one
    /// asks for another.
    mutating func detected(_ report: ReportValue, by session: ScanSessionQueue.Session) {
        sessionReading = nil
        emit(.signal(path: session.path, interface: ScannerAPI.sessionInterface, member: "Detected",
                     [report.busValue], destination: session.owner))
        sessions.update(session.id) { $0.reads += 1 }
        guard session.options.multiple else { return endSession(session.id, .firstRead) }
        let later = copy(for: session.options).laterPrompt
        sessions.update(session.id) { $0.alertMessage = later }
        sessionChanged(session.id, ["AlertMessage": .string(later), "Reads": .uint32(UInt32(clamping: session.reads + 1)),
                                    "State": .string("active")])
        showSheet(session.id, .looking)
    }

    mutating func sessionChanged(_ id: Int, _ changed: [String: DBusValue]) {
        emit(.update(path: "\(ScannerAPI.sessionsPath)/\(id)", interface: ScannerAPI.sessionInterface, changed))
    }

    func sessionProperties(_ session: ScanSessionQueue.Session, state: String) -> [String: DBusValue] {
        ["AlertMessage": .string(session.alertMessage), "State": .string(state),
         "Multiple": .boolean(session.options.multiple), "Reads": .uint32(UInt32(clamping: session.reads))]
    }
}
