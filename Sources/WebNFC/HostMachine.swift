import AppIdentity
import NDEFReport

/// What nfcscan's web host decides for one page, with no I/O (as the daemon's core): it takes the
/// page's requests and nfcscand's session events one at a time and returns what to do.
///
/// - One nfcscand scan session runs while the page scans and may use NFC. A page must be visible
///   and focused for a session to start; a page that is hidden stops receiving at once (its
///   session ends, and starts again when the page is back). A page that only loses the focus
///   keeps its session: nfcscand's own sheet, which names the site and has Cancel, takes the
///   focus when it appears (the persistent, cancellable interface the specification asks for).
/// - A write or lock runs alone: the scan's session ends first, and starts again after it.
/// - Web NFC waits as long as the page wants; nfcscand's sessions last at most an hour, so one
///   that ends on its timeout is started again.
public struct HostMachine: Sendable {
    /// A change the page asked for: a message to write, or a lock.
    public enum Change: Sendable, Equatable {
        case write(message: [UInt8], overwrite: Bool)
        case lock
    }

    public enum Input: Sendable, Equatable {
        case page(PageRequest)
        /// Session `session` is active: the person allowed the site, and it looks for objects.
        case scanActive(session: Int)
        /// An object came but could not be read.
        case scanReadFailed(session: Int)
        case scanDetected(session: Int, ReportValue)
        /// nfcscand ended the session (`timeout`, `not-allowed`, `user-canceled`, …).
        case scanEnded(session: Int, reason: String)
        /// nfcscand refused to start a session: the D-Bus error's name.
        case sessionRefused(session: Int, error: String)
        /// A change's session ended with this write ending (`done`, `read-only`, …).
        case changeEnded(session: Int, ending: String)
    }

    public enum Action: Sendable, Equatable {
        case startScan(session: Int, origin: WebOrigin, language: String?)
        case stopScan(session: Int)
        case startChange(session: Int, Change, origin: WebOrigin, language: String?)
        case cancelChange(session: Int)
        case send(PageEvent)
        /// The extension broke the protocol: the host ends (the page's operations fail).
        case exit(String)
    }

    /// The largest write nfcscand takes (its `message` option).
    public static let maximumMessageLength = 65536
    /// Writes and locks one page may have waiting: the extension keeps one of each, so more is a
    /// page talking to the bridge itself, and each could hold up to 64 KiB here.
    public static let maximumPendingChanges = 4

    private struct Scan {
        var id: Int
        /// `scan()` resolved.
        var started = false
        var session: Int?
    }

    private struct Pending {
        var id: Int
        var change: Change
        var session: Int?
        /// The page aborted it while its session ran: it ends unreported.
        var cancelled = false
    }

    private var origin: WebOrigin?
    private var language: String?
    private var active = false
    private var visible = false
    private var scan: Scan?
    /// The first is the one whose session runs, or is next.
    private var changes: [Pending] = []
    private var nextSession = 1
    private var actions: [Action] = []

    public init() {}

    public mutating func handle(_ input: Input) -> [Action] {
        actions = []
        switch input {
        case .page(let request): page(request)
        case .scanActive(let session):
            guard var current = scan, current.session == session, !current.started else { break }
            current.started = true
            scan = current
            actions.append(.send(.started(id: current.id)))
        case .scanReadFailed(let session):
            guard let current = scan, current.session == session, visible else { break }
            actions.append(.send(.readingError(id: current.id)))
        case .scanDetected(let session, let report):
            guard let current = scan, current.session == session, visible else { break }
            let reading = WebRecordMapping.reading(report)
            actions.append(.send(.reading(id: current.id, serialNumber: reading.serialNumber, records: reading.records)))
        case .scanEnded(let session, let reason):
            guard var current = scan, current.session == session else { break }
            current.session = nil
            scan = current
            if reason == "timeout" { break }
            scan = nil
            let (name, message) = Self.scanEnding(reason)
            actions.append(.send(.error(id: current.id, name: name, message: message)))
        case .sessionRefused(let session, let error):
            let (name, message) = Self.refusal(error)
            if let current = scan, current.session == session {
                scan = nil
                actions.append(.send(.error(id: current.id, name: name, message: message)))
            } else if let first = changes.first, first.session == session {
                changes.removeFirst()
                if !first.cancelled { actions.append(.send(.error(id: first.id, name: name, message: message))) }
            }
        case .changeEnded(let session, let ending):
            guard var first = changes.first, first.session == session else { break }
            if ending == "timeout", !first.cancelled {
                first.session = nil
                changes[0] = first
                break
            }
            changes.removeFirst()
            guard !first.cancelled else { break }
            if ending == "done" {
                actions.append(.send(.done(id: first.id)))
            } else {
                let (name, message) = Self.writeEnding(ending)
                actions.append(.send(.error(id: first.id, name: name, message: message)))
            }
        }
        reconcile()
        return actions
    }

    private mutating func page(_ request: PageRequest) {
        if case .hello(let origin, let language) = request {
            guard self.origin == nil else { return actions.append(.exit("hello came twice")) }
            self.origin = origin
            self.language = language
            return
        }
        guard origin != nil else { return actions.append(.exit("the first message was not hello")) }
        switch request {
        case .hello: break
        case .focus(let active, let visible):
            self.active = active && visible
            self.visible = visible
        case .scan(let id):
            guard scan == nil else {
                return actions.append(.send(.error(id: id, name: .invalidState, message: "this page scans already")))
            }
            scan = Scan(id: id)
        case .write(let id, _, _) where changes.count >= Self.maximumPendingChanges,
             .makeReadOnly(let id) where changes.count >= Self.maximumPendingChanges:
            actions.append(.send(.error(id: id, name: .invalidState,
                                        message: "this page has \(Self.maximumPendingChanges) changes waiting already")))
        case .write(let id, let records, let overwrite):
            let bytes: [UInt8]
            do {
                bytes = try WebRecordMapping.message(records).encoded()
            } catch {
                return actions.append(.send(.error(id: id, name: .typeError, message: error.message)))
            }
            guard bytes.count <= Self.maximumMessageLength else {
                return actions.append(.send(.error(id: id, name: .notSupported,
                                                   message: "the message is \(bytes.count) bytes; nfcscan writes at most \(Self.maximumMessageLength)")))
            }
            changes.append(Pending(id: id, change: .write(message: bytes, overwrite: overwrite)))
        case .makeReadOnly(let id):
            changes.append(Pending(id: id, change: .lock))
        case .cancel(let id):
            if let current = scan, current.id == id {
                if let session = current.session { actions.append(.stopScan(session: session)) }
                scan = nil
            } else if let index = changes.firstIndex(where: { $0.id == id }) {
                if let session = changes[index].session {
                    // nfcscand finishes a write under way; its ending is not reported.
                    changes[index].cancelled = true
                    actions.append(.cancelChange(session: session))
                } else {
                    changes.remove(at: index)
                }
            }
        }
    }

    /// Starts and stops sessions so that what runs is what the page may have now.
    private mutating func reconcile() {
        guard let origin else { return }
        if let first = changes.first {
            if first.session == nil {
                if let session = scan?.session {
                    actions.append(.stopScan(session: session))
                    scan?.session = nil
                }
                if active {
                    let session = takeSession()
                    changes[0].session = session
                    actions.append(.startChange(session: session, first.change, origin: origin, language: language))
                }
            }
            return
        }
        guard let current = scan else { return }
        if let session = current.session, !visible {
            actions.append(.stopScan(session: session))
            scan?.session = nil
        } else if current.session == nil, active {
            let session = takeSession()
            scan?.session = session
            actions.append(.startScan(session: session, origin: origin, language: language))
        }
    }

    private mutating func takeSession() -> Int {
        defer { nextSession += 1 }
        return nextSession
    }

    /// Why a scan stopped, for the page (scan sessions' reasons in Docs/dbus-api.md).
    static func scanEnding(_ reason: String) -> (PageErrorName, String) {
        if let common = ending(reason) { return common }
        return reason == "user-canceled" ? (.abort, "the person ended the scan") : (.notReadable, "the scan ended: \(reason.prefix(64))")
    }

    /// A write's ending (Docs/dbus-api.md) as the page's error.
    static func writeEnding(_ ending: String) -> (PageErrorName, String) {
        if let common = Self.ending(ending) { return common }
        switch ending {
        case "user-canceled": return (.abort, "the person canceled the change")
        case "read-only": return (.notAllowed, "the object is read-only")
        case "not-empty": return (.notAllowed, "the object holds a message already, and overwrite is false")
        case "password-required", "wrong-password": return (.notAllowed, "the object is protected by a password")
        case "too-large": return (.notSupported, "the message does not fit the object")
        case "unsupported": return (.notSupported, "this object or reader cannot do that")
        default: return (.network, "the change failed (\(ending.prefix(64))): the object may have moved away; try again")
        }
    }

    /// The endings scan and write sessions share.
    private static func ending(_ code: String) -> (PageErrorName, String)? {
        switch code {
        case "not-allowed": (.notAllowed, "the person did not allow this site to use the reader")
        case "unavailable": (.notSupported, "no reader is connected")
        case "radio-disabled": (.notReadable, "airplane mode is on")
        case "terminated": (.notReadable, "nfcscand stopped")
        default: nil
        }
    }

    /// A refused session start (a D-Bus error name) as the page's error.
    static func refusal(_ error: String) -> (PageErrorName, String) {
        switch error {
        case "org.freedesktop.DBus.Error.AccessDenied": (.notAllowed, "the person did not allow this site to use the reader")
        case "org.nfcscan.Error.RadioDisabled": (.notReadable, "airplane mode is on")
        case "org.nfcscan.Error.SystemBusy", "org.freedesktop.DBus.Error.LimitsExceeded": (.notReadable, "the reader is busy; try again later")
        default: (.notSupported, "nfcscand is not running or refused (\(error.prefix(96)))")
        }
    }
}
