import DBusValues
import NDEFReport
import NFCBusAPI
import NFCCopy
import Systemd

/// An in-app scan session run by nfcscand (org.nfcscan.ScanSession1), as an async sequence: the
/// prompt to show, each object read, and how the session ended. Ending the iteration (or
/// cancelling the task that iterates) ends the session.
///
///     let session = try await DaemonScanSession.start(.init(object: "badge"), on: bus)
///     for await event in session {
///         switch event {
///         case .alertMessage(let prompt): show(prompt)
///         case .detected(let report): use(report)
///         case .ended(let reason, let message): finish(reason, message)
///         }
///     }
public final class DaemonScanSession: AsyncSequence, Sendable {
    public static let busName = ScannerAPI.busName
    static let path = ScannerAPI.path
    static let interface = ScannerAPI.sessionInterface

    public struct Options: Sendable {
        /// What to ask for ("badge"), named in the prompts.
        public var object: String?
        /// Keep reading after the first object.
        public var multiple: Bool
        /// The app's own first prompt.
        public var alertMessage: String?
        /// Seconds from activation until the session ends with `timeout` (1–3600; nil: 60).
        public var timeout: Int?

        /// The language of the prompts and sentences; nil: the daemon's.
        public var language: ScanCopy.Language?
        /// The web page the session is for (`https://example.com`): nfcscan's web host alone may
        /// name one (nfcscand refuses it from anyone else).
        public var origin: String?
        /// The password of objects that protect reading with one (4 bytes).
        public var password: [UInt8]?

        public init(object: String? = nil, multiple: Bool = false, alertMessage: String? = nil, timeout: Int? = nil,
                    language: ScanCopy.Language? = nil, origin: String? = nil, password: [UInt8]? = nil) {
            self.password = password
            self.language = language
            self.origin = origin
            self.object = object
            self.multiple = multiple
            self.alertMessage = alertMessage
            self.timeout = timeout
        }

        var busValue: DBusValue {
            var values: [String: DBusValue] = ["multiple": .boolean(multiple)]
            if let object { values["object"] = .string(object) }
            if let alertMessage { values["alert-message"] = .string(alertMessage) }
            if let timeout { values["timeout"] = .uint32(UInt32(clamping: timeout)) }
            if let language { values["language"] = .string(language.rawValue) }
            if let origin { values["origin"] = .string(origin) }
            if let password { values["password"] = .array(elementSignature: "y", password.map(DBusValue.byte)) }
            return .vardict(values)
        }
    }

    public enum Event: Sendable, Equatable {
        /// What the person should be asked now (the first prompt, then "Now hold another …").
        case alertMessage(String)
        /// An object arrived and is being read (true): ask the person to keep it still; false: the
        /// session looks for an object (it became active, or a read failed): show the prompt.
        case reading(Bool)
        /// An object was read: the fields of `nfcscan --json`.
        case detected(ReportValue)
        /// The session is over: a stable reason code (`first-read`, `timeout`, `user-canceled`,
        /// `unavailable`, `terminated`, …) and a sentence for the person, or "".
        case ended(reason: String, message: String)
    }

    private let bus: BusConnection
    /// The session's path, its events and its signals' subscription.
    private let started: DaemonSessionStart.Started<Event>
    /// The session's object path.
    public var objectPath: String { started.objectPath }

    /// Whether nfcscand serves on `bus` now (asked without starting it through D-Bus activation).
    public static func daemonIsRunning(on bus: BusConnection) async -> Bool {
        let reply = try? await bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                        interface: "org.freedesktop.DBus", member: "NameHasOwner", [.string(busName)],
                                        timeout: .seconds(2))
        return reply?.first?.boolValue == true
    }

    /// Starts a session; the first event is the prompt to show.
    public static func start(_ options: Options, on bus: BusConnection) async throws(BusError) -> DaemonScanSession {
        let started = try await DaemonSessionStart.start("StartScanSession", options: options.busValue, interface: interface,
                                                         namespace: "\(path)/sessions", on: bus, prompt: Event.alertMessage,
                                                         deliver: deliver)
        let session = DaemonScanSession(bus: bus, started: started)
        started.sink.onTermination = { [weak session] termination in
            guard let session else { return }
            session.started.subscription.cancel()
            // The app stopped listening before the session ended: end it.
            if case .cancelled = termination { session.sendInvalidate("") }
        }
        return session
    }

    private static func deliver(_ signal: BusSignal, to sink: AsyncStream<Event>.Continuation) {
        switch (signal.interface, signal.member) {
        case (interface, "Detected"):
            if let value = signal.arguments.first, let report = ReportValue(busValue: value) { sink.yield(.detected(report)) }
        case (interface, "Invalidated"):
            sink.yield(.ended(reason: signal.arguments.first?.stringValue ?? "", message: signal.arguments.dropFirst().first?.stringValue ?? ""))
            sink.finish()
        case ("org.freedesktop.DBus.Properties", "PropertiesChanged"):
            guard let changed = signal.arguments.dropFirst().first?.stringKeyedValue else { return }
            if let prompt = changed["AlertMessage"]?.stringValue { sink.yield(.alertMessage(prompt)) }
            switch changed["State"]?.stringValue {
            case "reading": sink.yield(.reading(true))
            case "active" where changed["AlertMessage"] == nil: sink.yield(.reading(false))
            default: break
            }
        default: break
        }
    }

    private init(bus: BusConnection, started: DaemonSessionStart.Started<Event>) {
        self.bus = bus
        self.started = started
    }

    /// Looks again: objects already near a reader are read again (the active session only).
    public func restartPolling() async throws(BusError) {
        _ = try await bus.call(destination: Self.busName, path: objectPath, interface: Self.interface, member: "RestartPolling")
    }

    /// Ends the session; `message` is shown to the person (or "").
    public func invalidate(message: String = "") { sendInvalidate(message) }

    private func sendInvalidate(_ message: String) {
        try? bus.send(destination: Self.busName, path: objectPath, interface: Self.interface, member: "Invalidate", [.string(message)])
    }

    public func makeAsyncIterator() -> AsyncStream<Event>.Iterator { started.events.makeAsyncIterator() }
}
