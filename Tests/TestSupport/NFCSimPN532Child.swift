/// The built `nfcsim pn532` as a child process: a PN532 on a pseudo-terminal holding the object
/// its arguments describe, for tests of the whole command-line path (nfcsim's own argument
/// handling and log included). Stopped by its PID (SIGTERM, then SIGKILL); every wait is bounded.
public final class NFCSimPN532Child: @unchecked Sendable {
    public let child: WatchedChild
    /// LIBNFC_DEVICE for clients.
    public let connstring: String

    /// Starts it and waits (10 s at most) until it prints its connstring.
    public init(_ arguments: [String]) throws {
        child = try WatchedChild(try Repository.requireBuilt(Repository.nfcsim), ["pn532"] + arguments, name: "nfcsim pn532")
        connstring = try child.announced("LIBNFC_DEVICE=")
    }

    /// Everything nfcsim printed so far.
    public var log: String { child.log }

    @discardableResult
    public func stop() -> String { child.stop() }
}
