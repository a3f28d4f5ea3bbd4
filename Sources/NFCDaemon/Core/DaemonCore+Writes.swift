import DBusValues
import NFCBusAPI
import NFCCopy
import NFCObjects
import NFCTags

/// In-app write sessions (org.nfcscan.WriteSession1): queued with the scan sessions, so a scan
/// and a write never run together and background reading pauses while one is active. Active, a
/// session arms background reading to write the next object that arrives instead of reading it;
/// the write runs in the reading task, never in the loop, and its outcome comes back as an input.
extension DaemonCore {
    mutating func startWrite(_ options: WriteSessionOptions, call: CallID, caller: String) {
        guard !board.holds(.airplaneMode) else {
            return emit(.reply(call, .error(name: ScannerAPI.ErrorName.radioDisabled, message: "airplane mode is on: the radios are off until it ends")))
        }
        let prompt = writeCopy(for: options.session).writePrompt(options.write.action)
        if let refusal = sessions.refusal(for: caller) { return refuse(call, refusal, "sessions") }
        let app: CallerApp?
        do { app = try sessionApp(options.session, caller: caller) } catch { return fail(call, ScannerAPI.ErrorName.accessDenied, error.message) }
        guard let (session, activated) = sessions.start(owner: caller, app: app, options: options.session, alertMessage: prompt,
                                                        write: options.write) else { return }
        log(.info, "write session \(session.id) started (\(activated ? "active" : "waiting"))",
            ["owner": caller, "app": app?.key ?? "", "action": "\(options.write.action)", "bytes": "\(options.write.message?.count ?? 0)",
             "lock": "\(options.write.lock)", "format": "\(options.write.options.formatIfBlank)"])
        emit(.publish(BusObject(path: session.path, kind: .writeSession, interface: ScannerAPI.writeSessionInterface,
                                properties: writeProperties(session, state: "waiting"), owner: caller)))
        emit(.reply(call, .values([.objectPath(session.path)])))
        if activated { activate(session) }
    }

    /// `Cancel()`: a waiting or active session ends at once; one whose object is being written
    /// ends with the write's outcome (an object is never left half-written), so the app is told to wait.
    mutating func cancelWrite(_ id: Int, call: CallID, caller: String) {
        guard let session = sessions.session(id), session.write != nil else {
            return emit(.reply(call, .error(name: "org.freedesktop.DBus.Error.UnknownObject", message: "no object at \(ScannerAPI.writesPath)/\(id)")))
        }
        guard session.owner == caller else {
            return emit(.reply(call, .error(name: ScannerAPI.ErrorName.accessDenied, message: "only the app that started write session \(id) may use it")))
        }
        guard !session.writing else {
            return emit(.reply(call, .error(name: ScannerAPI.ErrorName.busy,
                                            message: "the object is being written; the session ends with the outcome in a moment")))
        }
        emit(.reply(call, .values([])))
        endSession(id, .userCanceled)
    }

    /// Background reading took the armed write for an object and waits for the go-ahead: given
    /// while the session is still active (the timeout stops: the write is bounded by the link's
    /// own; the sheet says to keep it still), refused when it ended meanwhile (a timeout or a
    /// cancel decided first), so no app is told "timeout" of an object then written.
    mutating func writing(_ id: Int) {
        guard let session = sessions.active, session.id == id, let write = session.write, !session.writing else {
            log(.info, "an object arrived for write session \(id), which has ended: it is read instead")
            return emit(.confirmWrite(session: id, go: false))
        }
        emit(.confirmWrite(session: id, go: true))
        sessions.update(id) { $0.writing = true }
        emit(.cancelTimer(.sessionTimeout(id)))
        let text = writeCopy(for: session.options).busy(write.action)
        sessions.update(id) { $0.alertMessage = text }
        emit(.update(path: session.path, interface: ScannerAPI.writeSessionInterface,
                     ["State": .string("writing"), "AlertMessage": .string(text)]))
        showSheet(id, .writing)
    }

    /// The write ended: the session ends with its outcome. A session already gone (its app left
    /// mid-write) has nobody to tell.
    mutating func written(_ id: Int, _ result: WriteResult) {
        guard let session = sessions.session(id), let write = session.write else {
            return log(.info, "write for ended session \(id): \(result.ending.rawValue)")
        }
        if let error = result.error { log(.notice, "write session \(id): \(error)") }
        var details: [String: DBusValue] = ["written": .boolean(result.written), "locked": .boolean(result.locked)]
        if let report = result.report {
            details["round-trips"] = .uint32(UInt32(clamping: report.roundTrips))
            details["changed"] = .boolean(report.changed)
            details["formatted"] = .boolean(report.formatted)
        }
        if let error = result.error { details["error"] = .string(error.description) }
        endWrite(session, ending: result.ending.rawValue,
                 message: writeCopy(for: session.options).writeEnded(result.ending, write.action), details: details)
    }

    /// Ends write session `session` with `ending` (a ``WriteEnding`` code, or one of the scan
    /// sessions' `radio-disabled`, `unavailable`, `terminated`), tells its app (unless it is
    /// gone), lets background reading read objects again and activates the next session.
    mutating func endWrite(_ session: ScanSessionQueue.Session, ending: String, message: String,
                           details: [String: DBusValue] = [:], notify: Bool = true, byPerson: Bool = false) {
        guard let (ended, next) = sessions.end(session.id) else { return }
        closeSheet(ended, byPerson || message.isEmpty ? nil : SheetViews.ended(message, done: ending == WriteEnding.done.rawValue, app: ended.app))
        emit(.cancelTimer(.sessionTimeout(ended.id)))
        emit(.disarmWrite(session: ended.id))
        if notify {
            emit(.signal(path: ended.path, interface: ScannerAPI.writeSessionInterface, member: "Ended",
                         [.string(ending), .string(message), .vardict(details)], destination: ended.owner))
        }
        emit(.unpublish(path: ended.path))
        log(.info, "write session \(ended.id) ended: \(ending)")
        if let next { activate(next) }
    }

    /// A session-wide reason (timeout, cancel, the daemon stopping, airplane mode, no reader) as
    /// a write session ends with it: the write catalog's sentence where it has one.
    mutating func endWrite(_ session: ScanSessionQueue.Session, _ reason: ScanSessionQueue.EndReason, message: String, notify: Bool,
                           byPerson: Bool = false) {
        let copy = writeCopy(for: session.options), action = session.write?.action ?? .save(.information)
        switch reason {
        case .timeout:
            endWrite(session, ending: WriteEnding.timedOut.rawValue, message: copy.writeEnded(.timedOut, action), notify: notify, byPerson: byPerson)
        case .userCanceled:
            endWrite(session, ending: WriteEnding.canceled.rawValue, message: copy.writeEnded(.canceled, action), notify: notify, byPerson: byPerson)
        default: endWrite(session, ending: reason.rawValue, message: message, notify: notify, byPerson: byPerson)
        }
    }

    func writeCopy(for options: ScanSessionOptions) -> any WriteCopyCatalog {
        ScanCopy.writeCatalog(for: options.language ?? configuration.language, object: options.object)
    }

    func writeProperties(_ session: ScanSessionQueue.Session, state: String) -> [String: DBusValue] {
        ["AlertMessage": .string(session.alertMessage), "State": .string(state),
         "Action": .string(session.write.map { Self.actionCode($0.action) } ?? "")]
    }

    /// The `Action` property: what the session does, as a stable code.
    static func actionCode(_ action: WriteAction) -> String {
        switch action {
        case .save(.link): "save-link"
        case .save(.text): "save-text"
        case .save(.information): "save"
        case .erase: "erase"
        case .lock: "lock"
        }
    }
}
