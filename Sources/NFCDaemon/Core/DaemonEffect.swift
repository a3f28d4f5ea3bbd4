import DBusValues
import DesktopEntries
import Logging
import NDEFReport
import NFCBusAPI
import NFCDispatch
import NFCObjects
import ScanSheet

/// What the core asks the runtime to do. Effects that only hand a message to the bus (replies,
/// signals, property changes) or to the log are done at once; effects that wait for a peer (a
/// notification, a delivery, a link, closing readers) run on their own with a deadline, and their
/// outcome comes back as ``DaemonInput/completed(_:_:)``.
enum DaemonEffect: Sendable, Equatable {
    /// Answers method call `CallID`.
    case reply(CallID, BusAnswer)
    /// Answers `Inhibit`: the runtime makes the pipe, hands the app its write end and watches the
    /// read end (its end of file is ``DaemonInput/inhibitorReleased(_:)``).
    case grantInhibitor(CallID, id: Int)
    /// Withdraws inhibitor `id` from the daemon's side (stopping).
    case dropInhibitor(Int)

    /// Exports an object (its properties, its introspection kind; `owner`: only that connection
    /// may see it, and its signals go to it alone).
    case publish(BusObject)
    /// Changes properties of an exported object (PropertiesChanged follows).
    case update(path: String, interface: String, [String: DBusValue])
    case unpublish(path: String)
    /// A signal that is not a property change (`destination`: unicast).
    case signal(path: String, interface: String, member: String, [DBusValue], destination: String?)

    /// Opens the readers (generation `Int`): after the previous generation is closed.
    case startReading(generation: Int)
    /// Closes the readers of a generation (its later events are ignored).
    case stopReading(generation: Int)

    case notify(EffectID, NotificationContent, replacing: UInt32)
    case closeNotification(UInt32)
    /// Ask the bus whether a notification server is there (or can be started); the answer comes
    /// back as ``NotificationSignal/serverFound(present:)``.
    case findNotificationServer
    /// One call of the app's HandleScan (retries are the core's decision).
    case handleScan(EffectID, owner: String, handlerPath: String, scan: DBusValue)
    case openLink(EffectID, uri: String)
    /// Starts an installed app's Exec line (``AppLaunch``); done once the program has started.
    case launch(EffectID, AppLaunch)
    /// NetworkManager's AddAndActivateConnection for `network` on the system bus; done once
    /// NetworkManager has taken it (joining itself may take longer, and is NetworkManager's).
    case joinNetwork(EffectID, WiFiCredentials)

    /// Background reading writes the next object to arrive for write session `session` instead
    /// of reading it (``DaemonInput/reading(generation:_:)`` with `writing`, then `written`).
    case armWrite(session: Int, ObjectWrite)
    /// Write session `session` ended: objects are read again (a write already under way finishes).
    case disarmWrite(session: Int)
    /// Background reading reads every object with scan session `session`'s password from now on
    /// (it became active): ``DaemonInput/reading(generation:_:)`` with `readWithPassword` follows.
    case readPassword(session: Int, SessionPassword)
    /// Scan session `session` ended: objects are read without its password again.
    case dropReadPassword(session: Int)
    /// Answers background reading, which took session `session`'s write for an object and waits:
    /// write it (`go`), or read it as any other object (the session ended meanwhile).
    case confirmWrite(session: Int, go: Bool)

    /// Finds out who `caller` is from the bus (its credentials, then its process); answered with
    /// ``DaemonInput/identified(_:_:)``.
    case identify(String)
    /// Keeps the person's answer for app `app` in the permission store (nothing comes back: the
    /// core already counts it).
    case storeGrant(app: String, AppGrant)
    /// Shows session `session`'s sheet as `view` (starting the sheet's program for its first view).
    case showSheet(session: Int, SheetView)
    /// Session `session` ended: its sheet shows `view` until the view's own `closeAfter`, or (nil)
    /// closes at once.
    case closeSheet(session: Int, SheetView?)

    case armTimer(TimerID, after: Duration)
    case cancelTimer(TimerID)

    /// For the observers (a broker publisher, the test rig): what happened to an object.
    case observe(DaemonObservation)
    case log(Logger.Level, String, metadata: [String: String] = [:])
    /// Pings systemd's watchdog.
    case watchdog
    /// The loop ends once this is done (after ``DaemonInput/stop``).
    case finish
}

/// An installed app started through its desktop entry's `Exec` line: the line, what its field
/// codes stand for (the files are the runtime's to make), and the file to hand it when the line
/// takes one (`%f`/`%F`, or `%u`/`%U` with no link).
struct AppLaunch: Sendable, Equatable {
    /// What goes in the private file (0600 in $XDG_RUNTIME_DIR/nfcscan, removed once the app has
    /// exited or after ``AppLauncher/fileLifetime``), and its extension: `json` for the object's
    /// report; a payload's own (`vcf`) for a default app that opens that format.
    struct File: Sendable, Equatable {
        let contents: [UInt8]
        /// ASCII letters and digits, at most 16 (anything else is refused by the launcher).
        let suffix: String
    }

    let app: String
    let exec: ExecCommandLine
    let values: ExecCommandLine.Values
    let file: File?
}

/// A method call's answer.
enum BusAnswer: Sendable, Equatable {
    case values([DBusValue])
    case error(name: String, message: String)
}

/// One object the daemon exports, as the object tree keeps it.
struct BusObject: Sendable, Equatable {
    enum Kind: Sendable, Equatable { case scanner, reader, session, writeSession }
    var path: String
    var kind: Kind
    var interface: String
    var properties: [String: DBusValue]
    /// The connection that alone may use it (a scan session's app); nil: everyone.
    var owner: String?
}

/// What the daemon did with an object, for observers (the output seam: issue 15's publisher
/// adds an observer instead of editing the core).
public enum DaemonObservation: Sendable, Equatable {
    /// A reader came into use (at start, after a pause, or plugged in): an observer that names
    /// readers elsewhere (Home Assistant's discovery) announces it before its first object.
    case reader(name: String)
    /// An object was read: its report and where; `session` is the in-app scan session it was
    /// read for (the app's, which a publisher must not send anywhere), nil in the background.
    case detected(reader: String, uid: String, report: ReportValue, session: Int?)
    /// An object whose chip is not genuine was refused (`[authenticity] not-genuine = refuse`):
    /// neither offered, nor handed to `session`, nor published; `reason` is the check's.
    case refused(reader: String, uid: String, reason: String, session: Int?)
    /// It was offered to an app (`app` nil: its web link, to the browser).
    case offered(notification: UInt32, app: String?)
    /// The person chose it and it was handed on (`success`), or could not be.
    case delivered(notification: UInt32, app: String?, success: Bool)
}
