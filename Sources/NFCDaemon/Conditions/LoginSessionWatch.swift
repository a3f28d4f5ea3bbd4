import DBusValues
import FoundationEssentials
import Glibc
import Logging
import Systemd

/// The person's login session as logind (org.freedesktop.login1, system bus) tells it: whether it
/// is locked and has not been unlocked since the computer started (`LockedHint`, plus
/// ``UnlockMarker``), and whether it is idle (`IdleHint`: the screen blanked).
///
/// The session is the user's display session (`User.Display`), else their first. Both reports
/// are nil while logind or the session cannot be reached; the lookup is made again whenever
/// logind (re)appears.
final class LoginSessionWatch: ConditionWatch {
    static let service = "org.freedesktop.login1"
    let source = ConditionSource.logindLock
    let logger: Logger
    private let bus: BusConnection
    private let marker: UnlockMarker?
    private let lockedAfterRestart: @Sendable (Bool?) -> Void
    private let idle: @Sendable (Bool?) -> Void

    init(bus: BusConnection, marker: UnlockMarker?, logger: Logger,
         lockedAfterRestart: @escaping @Sendable (Bool?) -> Void, idle: @escaping @Sendable (Bool?) -> Void) {
        self.bus = bus
        self.marker = marker
        self.logger = logger
        self.lockedAfterRestart = lockedAfterRestart
        self.idle = idle
    }

    /// Throws at once when the bus refuses the subscription to logind's comings and goings.
    func watch() async throws(BusError) {
        let bus = bus, marker = marker, lockedAfterRestart = lockedAfterRestart, idle = idle, logger = logger
        let report: @Sendable ([String: DBusValue]?) -> Void = { properties in
            guard let properties else { lockedAfterRestart(nil); idle(nil); return }
            let locked = properties["LockedHint"]?.boolValue
            if locked == false {
                do { try marker?.record() } catch {
                    logger.warning("cannot remember the unlock since boot: \(error)")
                }
            }
            // Without a runtime directory "since boot" cannot be told: unknown, not a pause.
            lockedAfterRestart(marker.flatMap { marker in locked.map { $0 && !marker.isPresent } })
            idle(properties["IdleHint"]?.boolValue)
        }
        let lookUps = LookUps()
        let owner = try bus.watchOwner(of: Self.service) { present in
            if present { lookUps.ask() } else { report(nil) }
        }
        defer { owner.cancel() }
        lookUps.ask()
        var requests = lookUps.requests.makeAsyncIterator()
        // Each look-up finds the session, whose properties are then followed until logind
        // reappears (a new look-up: the session may be another) or the watch ends.
        var asked = await requests.next() != nil
        while asked {
            guard let path = await Self.sessionPath(on: bus) else {
                report(nil)
                asked = await requests.next() != nil
                continue
            }
            let session = BusPropertyWatch(source: source, bus: bus, service: Self.service, path: path,
                                           interface: "org.freedesktop.login1.Session", logger: logger, changed: report)
            asked = await withTaskGroup(of: Void.self) { following in
                following.addTask {
                    do throws(BusError) { try await session.watch() } catch { report(nil) }
                }
                defer { following.cancelAll() }
                return await requests.next() != nil
            }
        }
    }

    /// The object path of this user's display session (else their first session), or nil.
    static func sessionPath(on bus: BusConnection) async -> String? {
        func call(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue]) async -> DBusValue? {
            try? await bus.call(destination: service, path: path, interface: interface, member: member,
                                arguments, timeout: .seconds(10)).first.map(unwrapped)
        }
        let uid = getuid()
        if let user = await call("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "GetUser", [.uint32(uid)])?.stringValue,
           case .structure(let display)? = await call(user, "org.freedesktop.DBus.Properties", "Get",
                                                      [.string("org.freedesktop.login1.User"), .string("Display")]),
           display.count == 2, let path = display[1].stringValue, path != "/" {
            return path
        }
        // No display session named (or no GetUser): the first of ListSessions' (id, uid, user, seat, path) that is ours.
        let sessions = await call("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "ListSessions", [])?.arrayValue ?? []
        for case .structure(let fields) in sessions where fields.count == 5 && fields[1].intValue == Int(uid) {
            return fields[4].stringValue
        }
        return nil
    }

    private static func unwrapped(_ value: DBusValue) -> DBusValue {
        if case .variant(let inner) = value { return unwrapped(inner) }
        return value
    }
}

/// "Unlocked since boot": a file in $XDG_RUNTIME_DIR/nfcscan (emptied at every restart) holding
/// this boot's id, written the first time the session is seen unlocked. Reached through a
/// ``PrivateDirectory``, so a link planted at `nfcscan` or at the file is never written through.
struct UnlockMarker: Sendable {
    let runtimeDirectory: String
    static let fileName = "unlocked-since-boot"
    var path: String { runtimeDirectory + "/nfcscan/" + Self.fileName }

    /// In `runtimeDirectory` (nil: $XDG_RUNTIME_DIR); nil when there is none.
    init?(runtimeDirectory: String? = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"]) {
        guard let runtimeDirectory, !runtimeDirectory.isEmpty else { return nil }
        self.runtimeDirectory = runtimeDirectory
    }

    /// The kernel's id of this boot: a marker from an earlier boot (a runtime directory that
    /// survived) does not count.
    static var bootID: String {
        (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .trimmingWhitespace ?? "unknown-boot"
    }

    private func directory() throws(PrivateDirectory.Failure) -> PrivateDirectory {
        try PrivateDirectory.runtime(in: runtimeDirectory)
    }

    var isPresent: Bool {
        (try? directory()).map(Self.holdsThisBoot) ?? false
    }

    /// Writes the marker unless it is there; a directory that fails its checks is refused (the
    /// failure says what to fix).
    func record() throws(PrivateDirectory.Failure) {
        let directory = try directory()
        guard !Self.holdsThisBoot(directory) else { return }
        try directory.replace(Self.fileName, with: Array((Self.bootID + "\n").utf8))
    }

    private static func holdsThisBoot(_ directory: PrivateDirectory) -> Bool {
        guard let bytes = try? directory.read(fileName, maximumBytes: 256) else { return false }
        return String(decoding: bytes, as: UTF8.self).trimmingWhitespace == bootID
    }
}
