import NFCBusAPI
import NFCCopy
import NFCObjects
import ScanSheet
import AppIdentity

/// nfcscand's own scan sheet (issue 21): what it shows for the active session, the questions it
/// asks before a session may go on, and what the person's choice means. The sheet's program only
/// draws a ``SheetView`` and reports a button; every decision is here, so a sheet that crashes or
/// hangs decides nothing (it ends, or it is waited for by no one).
extension DaemonCore {
    /// What the active session's sheet shows while nothing is asked.
    enum SheetPhase {
        case looking
        case reading
        case writing
    }

    /// Shows session `id`'s sheet in `phase` (only on a desktop, and only for the active session).
    mutating func showSheet(_ id: Int, _ phase: SheetPhase) {
        guard configuration.showsSheet, let session = sessions.active, session.id == id else { return }
        emit(.showSheet(session: id, SheetViews.view(phase, session, sheetCopy(for: session.options), reading: copy(for: session.options).reading)))
    }

    /// The active session waits for the person's answer to `question`: nothing is read or written meanwhile.
    mutating func ask(_ question: ScanSessionQueue.Question, _ session: ScanSessionQueue.Session) {
        sessions.update(session.id) { $0.asking = question }
        log(.info, "\(session.write == nil ? "scan" : "write") session \(session.id) asks the person: \(question)",
            ["app": session.app?.key ?? ""])
        emit(.showSheet(session: session.id, SheetViews.question(question, session, sheetCopy(for: session.options))))
    }

    /// Session `ended` is over: its sheet shows `view` a moment, or (nil) closes at once.
    mutating func closeSheet(_ ended: ScanSessionQueue.Session, _ view: SheetView?) {
        guard configuration.showsSheet else { return }
        emit(.closeSheet(session: ended.id, view))
    }

    /// A scan session's last view: how it ended, or nil when there is nothing to say (the daemon
    /// stops, the app ended it without a sentence).
    func scanEnding(_ session: ScanSessionQueue.Session, _ reason: ScanSessionQueue.EndReason, message: String) -> SheetView? {
        switch reason {
        case .firstRead: SheetViews.ended(sheetCopy(for: session.options).scanDone, done: true, app: session.app)
        case .terminated, .notAllowed: nil
        case .userCanceled, .timeout, .systemBusy, .radioDisabled, .unavailable:
            message.isEmpty ? nil : SheetViews.ended(message, done: false, app: session.app)
        }
    }

    /// What session `id`'s sheet said (nil: its program ended or could not start).
    mutating func sheetSaid(_ event: SheetEvent?, session id: Int) {
        guard let session = sessions.active, session.id == id else { return }
        switch event {
        case .shown:
            sessions.update(id) { $0.sheetShown = true }
        case .pressed(let button):
            switch (session.asking, button) {
            case (.permission, SheetViews.allow):
                if let app = session.app { grant(.allowed, to: app) }
                proceed(id)
            case (.permission, SheetViews.deny):
                if let app = session.app { grant(.denied, to: app) }
                endSession(id, .notAllowed, byPerson: true)
            case (.consent, SheetViews.confirm):
                log(.info, "write session \(id): the person agreed", ["app": session.app?.key ?? ""])
                sessions.update(id) { $0.consented = true }
                proceed(id)
            case (_, SheetView.cancelButton):
                guard !session.writing else { return log(.info, "the sheet's Cancel came while the object is being written: it finishes") }
                endSession(id, .userCanceled, byPerson: true)
            default:
                log(.warning, "the sheet reported a button it was not shown: \(button.prefix(32))")
            }
        case nil:
            // The window is gone (closed, crashed or killed): the person can no longer see or
            // answer, so the session ends; a write under way finishes and reports as usual.
            guard !session.writing else { return log(.warning, "the sheet of write session \(id) ended while writing") }
            log(session.sheetShown ? .info : .warning, session.sheetShown
                ? "the sheet of session \(id) closed: the session ends" : "the sheet of session \(id) could not be shown: the session ends")
            endSession(id, session.sheetShown ? .userCanceled : .unavailable, byPerson: true)
        }
    }

    /// Refuses a session for `app` when it is not allowed and cannot be asked; nil: it may start one.
    func notAllowed(_ app: CallerApp?) -> String? {
        guard let app, permission(for: app) == .deny else { return nil }
        return deniedByPerson(app)
            ?? "\(app.key) \(app.appID == nil && app.sandboxed ? "is a web site" : "runs in a sandbox") and nothing can ask the person here (no display): allow it with nfcscan apps --allow \(app.key)"
    }

    /// Why `app` is refused everything when the person answered "Don't Allow" for it; nil otherwise.
    func deniedByPerson(_ app: CallerApp?) -> String? {
        guard let app, grants[app.key] == .denied else { return nil }
        return "the person did not allow \(app.key) to use the reader (nfcscan apps --allow \(app.key) changes that)"
    }

    /// The app a session is for: the caller's own, or the site nfcscan's web host names (`origin`).
    /// Thrown, the AccessDenied refusal: another caller naming a site, or an app not allowed that
    /// cannot be asked.
    func sessionApp(_ options: ScanSessionOptions, caller: String) throws(SessionAppRefusal) -> CallerApp? {
        var app = callers[caller]
        if let origin = options.origin {
            guard let host = app, host.mayNameSites else {
                throw SessionAppRefusal(message: "option \"origin\" is for nfcscan's web host (nfcscan-webnfc-host) alone")
            }
            app = .site(origin, through: host)
        }
        if let refusal = notAllowed(app) { throw SessionAppRefusal(message: refusal) }
        return app
    }

    func sheetCopy(for options: ScanSessionOptions) -> any SheetCopyCatalog {
        ScanCopy.sheetCatalog(for: options.language ?? configuration.language, object: options.object)
    }
}

/// Why a session may not be started for the app it names.
struct SessionAppRefusal: Error {
    var message: String
}

/// The sheet's views, made from a session and the copy (pure).
enum SheetViews {
    static let allow = "allow"
    static let deny = "deny"
    static let confirm = "confirm"
    /// How long an ending stays on screen.
    static let endingShown = 2000

    /// `reading`: the scan catalog's "Reading the poster. Keep it still."
    static func view(_ phase: DaemonCore.SheetPhase, _ session: ScanSessionQueue.Session, _ copy: any SheetCopyCatalog,
                     reading: String) -> SheetView {
        let cancel = SheetView.Button(id: SheetView.cancelButton, label: copy.actionCancel)
        switch phase {
        case .looking: return view(for: session.app, message: session.alertMessage, mark: .looking, buttons: [cancel])
        case .reading: return view(for: session.app, message: reading, mark: .working, buttons: [cancel])
        // No Cancel: an object is never left half-written.
        case .writing: return view(for: session.app, message: session.alertMessage, mark: .working)
        }
    }

    static func question(_ question: ScanSessionQueue.Question, _ session: ScanSessionQueue.Session,
                         _ copy: any SheetCopyCatalog) -> SheetView {
        let name = session.app?.name ?? ""
        switch question {
        case .permission:
            // No Cancel button: Escape or closing the window ends this session without keeping an answer.
            return view(for: session.app, message: copy.askPermission(app: name), mark: .question,
                        buttons: [.init(id: deny, label: copy.actionDontAllow), .init(id: allow, label: copy.actionAllow, style: .suggested)])
        case .consent:
            let write = session.write ?? ObjectWrite(message: nil, action: .lock)
            let locks = write.lock || write.action == .lock
            return view(for: session.app, message: copy.consent(write.action, app: name), detail: locks ? copy.lockDetail(write.action) : "",
                        mark: .question,
                        buttons: [.init(id: SheetView.cancelButton, label: copy.actionCancel),
                                  .init(id: confirm, label: copy.actionConfirm(write.action, lock: write.lock), style: locks ? .destructive : .suggested)])
        }
    }

    static func ended(_ message: String, done: Bool, app: CallerApp?) -> SheetView {
        view(for: app, message: message, mark: done ? .done : .failed, closeAfter: endingShown)
    }

    /// A view naming `app` (its name and icon), the one place every view takes them from.
    private static func view(for app: CallerApp?, message: String, detail: String = "", mark: SheetView.Mark,
                             buttons: [SheetView.Button] = [], closeAfter: Int? = nil) -> SheetView {
        SheetView(app: app?.name ?? "", icon: app?.icon ?? "", message: message, detail: detail, mark: mark, buttons: buttons,
                  closeAfter: closeAfter)
    }
}
