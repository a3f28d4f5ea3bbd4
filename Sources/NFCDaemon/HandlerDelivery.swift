import Logging
import NFCDispatch
import Systemd

/// Calls an app's `org.nfcscan.Handler1.HandleScan` with the object the person chose.
///
/// At most once: a retry follows only when the app *answered* with an error (it is busy, it
/// declined for now), which means it did not take the object. A call with no answer (the app hung
/// or crashed mid-call) is never repeated, since the app may have taken it.
struct HandlerDelivery: Sendable {
    /// Waits before each retry: about 3.5 s in all, a person's patience after choosing.
    static let retryDelays: [Duration] = [.milliseconds(500), .seconds(1), .seconds(2)]
    static let callTimeout: Duration = .seconds(10)

    let bus: BusConnection
    let logger: Logger

    /// True when the app took the object.
    func send(_ scan: DBusValue, to registration: HandlerRegistration) async -> Bool {
        var delays = Self.retryDelays[...]
        while true {
            do {
                _ = try await bus.call(destination: registration.owner, path: registration.handlerPath,
                                       interface: ScannerAPI.handlerInterface, member: "HandleScan", [scan], timeout: Self.callTimeout)
                logger.info("sent an object to \(registration.appName)", metadata: ["registration": "\(registration.id)"])
                return true
            } catch {
                guard Self.mayRetry(error), let delay = delays.popFirst(), !Task.isCancelled else {
                    logger.warning("\(registration.appName) did not take its object: \(error)", metadata: ["registration": "\(registration.id)"])
                    return false
                }
                logger.notice("\(registration.appName) did not take its object yet (\(error)); trying again", metadata: ["registration": "\(registration.id)"])
                try? await Task.sleep(for: delay)
            }
        }
    }

    /// Errors after which the app surely did not take the object and may later.
    static func mayRetry(_ error: BusError) -> Bool {
        guard let name = error.remoteName else { return false }
        return !noRetry.contains(name)
    }

    /// The app is gone, hung, or has no such handler: trying again cannot help (or could repeat).
    static let noRetry: Set<String> = [
        "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
        "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout",
        "org.freedesktop.DBus.Error.TimedOut", "org.freedesktop.DBus.Error.Disconnected",
        "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod",
        "org.freedesktop.DBus.Error.UnknownInterface", "org.freedesktop.DBus.Error.InvalidArgs",
        "org.freedesktop.DBus.Error.AccessDenied",
    ]
}
