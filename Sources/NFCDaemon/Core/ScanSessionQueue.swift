import AppIdentity
import DBusValues
import NFCBusAPI
import NFCCopy
import NFCObjects

/// In-app scan and write sessions as the daemon keeps them, with no bus in sight: one active at a
/// time machine-wide, later requests waiting in order (a scan sheet for each app, one after
/// another; a scan and a write never run together), at most ``maximumWaiting`` waiting.
struct ScanSessionQueue: Sendable {
    /// Why a session ended: the stable codes of `Invalidated` (Docs/dbus-api.md).
    enum EndReason: String, Sendable {
        case userCanceled = "user-canceled"
        case timeout
        case firstRead = "first-read"
        case systemBusy = "system-busy"
        case radioDisabled = "radio-disabled"
        case unavailable
        case terminated
        /// The person answered "Don't Allow" on the sheet (issue 21): the app may ask again only
        /// once the grant is changed (`nfcscan apps --allow`).
        case notAllowed = "not-allowed"
    }

    /// What the sheet asks before a session may go on (issue 21).
    enum Question: Sendable, Equatable {
        /// May this app use the reader at all (a sandboxed app's first session)?
        case permission
        /// May this write change the object (every write session, before its first command)?
        case consent
    }

    struct Session: Sendable, Identifiable {
        let id: Int
        /// The unique bus name of the app that started it: the only one that may see or control it.
        let owner: String
        let options: ScanSessionOptions
        /// What the sheet shows now.
        var alertMessage: String
        var reads = 0
        /// What a write session writes; nil: a scan session.
        var write: ObjectWrite?
        /// A write session's object is being written (State `writing`): it ends with the write's outcome.
        var writing = false
        /// The app that started it, as identified from the bus (nil only in tests that skip it).
        var app: CallerApp?
        /// The question its sheet asks now; nothing is read or written meanwhile.
        var asking: Question?
        /// The person allowed this write to change the object.
        var consented = false
        /// Its sheet's window has been on screen.
        var sheetShown = false
        var path: String { "\(write == nil ? ScannerAPI.sessionsPath : ScannerAPI.writesPath)/\(id)" }
    }

    /// A bound on what one misbehaving app (or many) can queue.
    static let maximumWaiting = 16
    /// Sessions one connection may have started and not ended (active or waiting): one app
    /// cannot fill the queue, so others always get a place in it.
    static let maximumPerOwner = 2

    /// Why a session cannot be queued now.
    enum Refusal: Equatable, Sendable {
        case queueFull
        case ownerFull
    }

    private(set) var active: Session?
    private(set) var waiting: [Session] = []
    private var nextID = 1

    /// Every session, the active one first.
    var all: [Session] { (active.map { [$0] } ?? []) + waiting }

    func session(_ id: Int) -> Session? { all.first { $0.id == id } }

    /// Queues a session; nil when ``maximumWaiting`` are already waiting. `activated` is true when
    /// it became the active session at once.
    mutating func start(owner: String, app: CallerApp? = nil, options: ScanSessionOptions, alertMessage: String,
                        write: ObjectWrite? = nil) -> (session: Session, activated: Bool)? {
        guard refusal(for: owner) == nil else { return nil }
        let session = Session(id: nextID, owner: owner, options: options, alertMessage: alertMessage, write: write, app: app)
        nextID += 1
        if active == nil {
            active = session
            return (session, true)
        }
        waiting.append(session)
        return (session, false)
    }

    /// Ends session `id` (active or waiting); returns it, and the session that became active in
    /// its place, if any.
    mutating func end(_ id: Int) -> (ended: Session, next: Session?)? {
        if active?.id == id, let ended = active {
            active = waiting.isEmpty ? nil : waiting.removeFirst()
            return (ended, active)
        }
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return nil }
        return (waiting.remove(at: index), nil)
    }

    /// Why `owner` may not start a session now, or nil when it may.
    func refusal(for owner: String) -> Refusal? {
        if all.count(where: { $0.owner == owner }) >= Self.maximumPerOwner { return .ownerFull }
        if active != nil, waiting.count >= Self.maximumWaiting { return .queueFull }
        return nil
    }

    /// The sessions of `owner` (its connection closed).
    func sessions(of owner: String) -> [Session] { all.filter { $0.owner == owner } }

    mutating func update(_ id: Int, _ change: (inout Session) -> Void) {
        if active?.id == id { change(&active!) }
        if let index = waiting.firstIndex(where: { $0.id == id }) { change(&waiting[index]) }
    }
}

/// What an app asks for in `StartScanSession`, checked.
struct ScanSessionOptions: Sendable, Equatable {
    /// The object to name in prompts ("badge"); nil: a generic word.
    var object: String?
    /// Keep reading after the first object; the prompt then asks for another.
    var multiple = false
    /// The app's own first prompt; nil: the catalog's.
    var alertMessage: String?
    /// Seconds from activation until the session ends with `timeout`.
    var timeout: Int = ScanSessionOptions.defaultTimeout
    /// The language of the prompts; nil: the daemon's.
    var language: ScanCopy.Language?
    /// The web page the session is for, named by nfcscan's web host alone (issue 22): the site is
    /// then the one asking, on the sheet and in the permission store.
    var origin: WebOrigin?
    /// The password objects are read with while the session is active (an NTAG21x that protects
    /// reading with one).
    var password: SessionPassword?

    static let defaultTimeout = 60
    static let maximumTimeout = 3600
    static let maximumObjectLength = 64
    static let maximumAlertLength = 256

    enum Refusal: Error, CustomStringConvertible {
        case badType(String, String)
        case badValue(String, String)
        var description: String {
            switch self {
            case .badType(let key, let type): "option \"\(key)\" must be \(type)"
            case .badValue(let key, let detail): "option \"\(key)\" \(detail)"
            }
        }
    }

    init() {}

    /// Checks the options in key order, so that a call with several faults always gets the same answer.
    init(_ values: [String: DBusValue]) throws(Refusal) {
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "object":
                guard let text = value.stringValue else { throw .badType(key, "a string (s)") }
                guard text.utf8.count <= Self.maximumObjectLength, !text.contains(where: \.isNewline) else {
                    throw .badValue(key, "must be one line of at most \(Self.maximumObjectLength) bytes")
                }
                object = text.isEmpty ? nil : text
            case "multiple":
                guard let flag = value.boolValue else { throw .badType(key, "a boolean (b)") }
                multiple = flag
            case "alert-message":
                guard let text = value.stringValue else { throw .badType(key, "a string (s)") }
                guard text.utf8.count <= Self.maximumAlertLength else {
                    throw .badValue(key, "must be at most \(Self.maximumAlertLength) bytes")
                }
                alertMessage = text.isEmpty ? nil : text
            case "timeout":
                guard let seconds = value.intValue else { throw .badType(key, "a number of seconds (u)") }
                guard (1...Self.maximumTimeout).contains(seconds) else {
                    throw .badValue(key, "must be between 1 and \(Self.maximumTimeout) seconds")
                }
                timeout = seconds
            case "language":
                guard let text = value.stringValue else { throw .badType(key, "a string (s)") }
                guard let chosen = ScanCopy.Language(localeName: text) else {
                    throw .badValue(key, "names no supported language (\(ScanCopy.Language.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                language = chosen
            case "origin":
                guard let text = value.stringValue else { throw .badType(key, "a string (s)") }
                guard let site = WebOrigin(text) else {
                    throw .badValue(key, "must be a secure web origin as browsers serialize it (https://example.com, http://localhost:8080)")
                }
                origin = site
            case "password":
                password = SessionPassword(bytes: try Self.bytes(key, value, at: SessionPassword.length...SessionPassword.length))
            default:
                throw .badValue(key, "is not an option of StartScanSession (object, multiple, alert-message, timeout, language, origin, password)")
            }
        }
    }

    /// An `ay` option of `sizes` bytes.
    static func bytes(_ key: String, _ value: DBusValue, at sizes: ClosedRange<Int>) throws(Refusal) -> [UInt8] {
        guard case .array("y", let elements) = value.unwrapped else { throw .badType(key, "bytes (ay)") }
        guard sizes.contains(elements.count) else {
            throw .badValue(key, sizes.count == 1 ? "must be \(sizes.lowerBound) bytes" : "must be \(sizes.lowerBound) to \(sizes.upperBound) bytes")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(elements.count)
        for element in elements {
            guard case .byte(let byte) = element else { throw .badType(key, "bytes (ay)") }
            bytes.append(byte)
        }
        return bytes
    }
}

extension DBusValue {
    /// The value inside a variant (one level).
    fileprivate var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner }
        return self
    }
}
