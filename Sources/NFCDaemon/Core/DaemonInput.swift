import NFCDispatch
import NFCBusAPI
import NFCObjects
import NFCTags
import ScanSheet

/// Everything that can happen to nfcscand, as the core sees it: typed requests decoded from the
/// bus, what the readers and the condition sources report, what peers answered, timers firing.
/// The runtime turns each outside event into one of these and hands it to ``DaemonCore/handle(_:)``.
enum DaemonInput: Sendable {
    /// The bus is served: look for readers.
    case started
    /// A method call that needs a decision, decoded by a bus adapter; answered with a ``DaemonEffect/reply(_:_:)``.
    case request(CallID, caller: String, DaemonRequest)
    /// A connection closed (a unique name lost its owner): its handlers, sessions and inhibitors go.
    case peerGone(String)
    /// Background reading (one generation of it: events of an earlier one are ignored).
    case reading(generation: Int, ReadingEvent)
    /// What a condition source says now (nil: it cannot tell).
    case condition(ConditionSource, holds: Bool?)
    /// The notification server's signals.
    case notification(NotificationSignal)
    /// An effect that talks to a peer has ended.
    case completed(EffectID, EffectOutcome)
    /// An inhibitor's descriptor was closed by its app (or the app ended).
    case inhibitorReleased(Int)
    case timerFired(TimerID)
    /// The watchdog's turn: answered by pinging systemd from the loop, which proves the loop runs.
    case heartbeat
    /// SIGTERM: end sessions, withdraw offers, release the readers, then finish.
    case stop
    /// The installed apps' declarations, read again because an application directory changed.
    case applications(InstalledApps)
    /// The person's default apps (mimeapps.list and the installed entries), read again because
    /// one of them changed.
    case defaults(PersonalDefaults)
    /// The broker publisher's connection changed (issue 15): shown as the `Broker` property.
    case broker(BrokerStatus)
    /// Who `caller` is, found from the bus (``DaemonEffect/identify(_:)``); nil: it could not be told.
    case identified(String, CallerApp?)
    /// The grants of the permission store's `nfcscan` table, whole (at start and on each change).
    case grants([String: AppGrant])
    /// What session `session`'s sheet says: the person pressed a button, the window is shown; nil:
    /// the sheet's program ended (closed, crashed, killed) or could not start.
    case sheet(session: Int, SheetEvent?)
}

/// The number the runtime gives a method call waiting for its answer.
typealias CallID = Int

/// A method call of the API, its arguments checked by the bus adapter.
enum DaemonRequest: Sendable, Equatable {
    case register(handlerPath: String, HandlerRequest)
    case unregister(UInt32)
    case startSession(ScanSessionOptions)
    case startWrite(WriteSessionOptions)
    /// WriteSession1.Cancel.
    case cancelWrite(session: Int)
    case inhibit(who: String, why: String)
    case invalidate(session: Int, message: String)
    case restartPolling(session: Int)
    case setAlertMessage(session: Int, String)
    /// ListApps: the installed declarations and the registered apps.
    case listApps
}

/// What background reading reports.
enum ReadingEvent: Sendable {
    case readerAdded(ReaderID, name: String, backend: ReaderBackend)
    case readerRemoved(ReaderID, problem: String?)
    /// Another program holds (true) or no longer holds (false) this reader's object exclusively.
    case heldElsewhere(ReaderID, Bool)
    /// An object arrived and is being read (``scanned(_:)`` or ``failed(_:)`` follows).
    case reading
    case scanned(ScannedObject)
    /// An object read with scan session `session`'s password: the session's alone (dropped when
    /// it ended meanwhile).
    case readWithPassword(ScannedObject, session: Int)
    case failed(String)
    /// The object could not be read without its password (`wrong`: it refused the active scan
    /// session's).
    case needsPassword(wrong: Bool)
    /// The object on this reader left it.
    case departed(ReaderID)
    /// An object arrived while write session `session` was armed: background reading waits for
    /// ``DaemonEffect/confirmWrite(session:go:)`` before writing it (not reading it).
    case writing(session: Int)
    /// Write session `session`'s write ended (the object has been let go).
    case written(session: Int, WriteResult)
    /// The readers present at the start are open (each announced before): later ones are hotplug.
    case opened
    /// No reader is left and none can appear.
    case ended(String)
}

/// A reader as the core knows it: the runtime keeps the object, the core only its identity.
typealias ReaderID = ObjectIdentifier

/// What the desktop's notification server says.
enum NotificationSignal: Sendable, Equatable {
    /// The person chose `actionKey` on notification `id`.
    case actionInvoked(id: UInt32, actionKey: String)
    /// Notification `id` is gone (expired 1, dismissed 2, closed by us 3, other 4).
    case closed(id: UInt32, reason: UInt32)
    /// A server took the name (`present`) or left it: earlier ids are void.
    case serverChanged(present: Bool)
    /// Asked at start: whether a server owns the name or the bus can start one (`present`).
    case serverFound(present: Bool)
}

/// How a peer answered an effect.
enum EffectOutcome: Sendable, Equatable {
    /// Notify answered with the notification's id.
    case shown(UInt32)
    /// The peer answered and did what was asked (HandleScan took the object; the link opened, `how`).
    case done(String)
    /// The peer answered with an error (`name`: the D-Bus error name when there is one).
    case refused(name: String?, message: String)
    /// No answer before the deadline, or the peer left mid-call: it may have acted.
    case noAnswer(String)
}

/// The number of one effect in flight, so its outcome finds its way back.
typealias EffectID = Int

/// A timer the core armed.
enum TimerID: Hashable, Sendable {
    case sessionTimeout(Int)
    /// The next try of a delivery whose app answered with an error.
    case deliveryRetry(EffectID)
    /// The awaited condition sources' first reports are late (``DaemonCore/settleDeadline``).
    case conditionsSettle
}
