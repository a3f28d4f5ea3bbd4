import DBusValues
import NFCBusAPI
import NFCCopy
import NFCObjects
import Systemd

/// An in-app write session run by nfcscand (org.nfcscan.WriteSession1), as an async sequence:
/// the prompt to show, that the object is being written, and how it ended. The daemon owns the
/// readers while it runs, so a client that writes (`nfcscan write` while nfcscand runs, an app)
/// asks it for the write instead of opening them. Ending the iteration (or cancelling the task
/// that iterates) cancels the session, unless the object is being written: then it ends with the
/// write's outcome (an object is never left half-written).
///
///     let session = try await DaemonWriteSession.start(.init(.link("https://example.com/poster"), object: "poster"), on: bus)
///     for await event in session {
///         switch event {
///         case .alertMessage(let prompt): show(prompt)
///         case .writing: showKeepStill()
///         case .ended(let ending): finish(ending.writeEnding, ending.message)
///         }
///     }
public final class DaemonWriteSession: AsyncSequence, Sendable {
    static let interface = ScannerAPI.writeSessionInterface

    public struct Options: Sendable {
        /// What to write (``ObjectWrite/message`` nil: lock only; empty: erase), with formatting,
        /// password and lock.
        public var write: ObjectWrite
        /// What to ask for ("poster"), named in the prompts.
        public var object: String?
        /// Seconds from activation until the session ends with `timeout` (1–3600; nil: 60).
        public var timeout: Int?
        /// The language of the prompts and sentences; nil: the daemon's.
        public var language: ScanCopy.Language?
        /// The web page the session is for: nfcscan's web host alone may name one.
        public var origin: String?

        public init(_ write: ObjectWrite, object: String? = nil, timeout: Int? = nil, language: ScanCopy.Language? = nil,
                    origin: String? = nil) {
            self.write = write
            self.origin = origin
            self.object = object
            self.timeout = timeout
            self.language = language
        }

        /// StartWriteSession's options: the message as bytes (what a link or a text became).
        var busValue: DBusValue {
            var values: [String: DBusValue] = [:]
            switch write.message {
            case .none: break
            case .some([]): values["erase"] = .boolean(true)
            case .some(let bytes): values["message"] = .array(elementSignature: "y", bytes.map(DBusValue.byte))
            }
            if write.lock { values["lock"] = .boolean(true) }
            if write.options.formatIfBlank { values["format"] = .boolean(true) }
            if !write.overwrite { values["overwrite"] = .boolean(false) }
            if let password = write.options.password { values["password"] = .array(elementSignature: "y", password.map(DBusValue.byte)) }
            if let object { values["object"] = .string(object) }
            if let timeout { values["timeout"] = .uint32(UInt32(clamping: timeout)) }
            if let language { values["language"] = .string(language.rawValue) }
            if let origin { values["origin"] = .string(origin) }
            return .vardict(values)
        }
    }

    /// How the session ended (`Ended`).
    public struct Ending: Sendable, Equatable {
        /// The stable code: a ``WriteEnding`` raw value, or `radio-disabled`, `unavailable`, `terminated`.
        public var code: String
        /// A sentence for the person, or "".
        public var message: String
        /// The message was written and read back as written.
        public var written: Bool
        public var locked: Bool
        /// The technical reason, when it failed (for logs and `--json`).
        public var error: String?

        public init(code: String, message: String, written: Bool = false, locked: Bool = false, error: String? = nil) {
            self.code = code
            self.message = message
            self.written = written
            self.locked = locked
            self.error = error
        }

        /// The outcome as the copy and the exit statuses know it; nil for the session-wide codes.
        public var writeEnding: WriteEnding? { WriteEnding(rawValue: code) }
    }

    public enum Event: Sendable, Equatable {
        /// What the person should be asked now: the prompt, then "Saving to the poster. Keep it still."
        case alertMessage(String)
        /// An object arrived and is being written: ask the person to keep it still.
        case writing
        case ended(Ending)
    }

    private let bus: BusConnection
    /// The session's path, its events and its signals' subscription.
    private let started: DaemonSessionStart.Started<Event>
    /// The session's object path.
    public var objectPath: String { started.objectPath }

    /// Starts a session; the first event is the prompt to show. A refusal (InvalidArgs naming the
    /// option, SystemBusy, RadioDisabled) is thrown as the daemon's error.
    public static func start(_ options: Options, on bus: BusConnection) async throws(BusError) -> DaemonWriteSession {
        let started = try await DaemonSessionStart.start("StartWriteSession", options: options.busValue, interface: interface,
                                                         namespace: "\(DaemonSessionStart.path)/writes", on: bus,
                                                         prompt: Event.alertMessage, deliver: deliver)
        let session = DaemonWriteSession(bus: bus, started: started)
        started.sink.onTermination = { [weak session] termination in
            guard let session else { return }
            session.started.subscription.cancel()
            if case .cancelled = termination { session.cancel() }
        }
        return session
    }

    private static func deliver(_ signal: BusSignal, to sink: AsyncStream<Event>.Continuation) {
        switch (signal.interface, signal.member) {
        case (interface, "Ended"):
            let arguments = signal.arguments
            let details = arguments.count > 2 ? arguments[2].stringKeyedValue ?? [:] : [:]
            sink.yield(.ended(Ending(code: arguments.first?.stringValue ?? "", message: arguments.dropFirst().first?.stringValue ?? "",
                                     written: details["written"]?.boolValue ?? false, locked: details["locked"]?.boolValue ?? false,
                                     error: details["error"]?.stringValue)))
            sink.finish()
        case ("org.freedesktop.DBus.Properties", "PropertiesChanged"):
            guard let changed = signal.arguments.dropFirst().first?.stringKeyedValue else { return }
            if changed["State"]?.stringValue == "writing" { sink.yield(.writing) }
            if let prompt = changed["AlertMessage"]?.stringValue { sink.yield(.alertMessage(prompt)) }
        default: break
        }
    }

    private init(bus: BusConnection, started: DaemonSessionStart.Started<Event>) {
        self.bus = bus
        self.started = started
    }

    /// Cancels the session (ending `user-canceled`); while the object is being written the daemon
    /// refuses (Busy) and the session ends with the write's outcome.
    public func cancel() {
        try? bus.send(destination: DaemonSessionStart.busName, path: objectPath, interface: Self.interface, member: "Cancel", [])
    }

    public func makeAsyncIterator() -> AsyncStream<Event>.Iterator { started.events.makeAsyncIterator() }
}
