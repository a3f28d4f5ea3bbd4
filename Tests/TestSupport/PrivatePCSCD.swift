import Foundation

/// scripts/private-pcscd.sh running the built `nfcsim vpcd` with `arguments` inside its own
/// namespaces: a pcscd of the test's own whose vpcd reader ("nfcsim 00 00") holds the object the
/// arguments describe, so no pcscd on the machine can change what a test sees. `--keep`: pcscd
/// stays after nfcsim ends, so clients see the card leave. Stopped by its PID (the script puts
/// back the signals Foundation's Process blocks, and cleans up on SIGTERM).
public final class PrivatePCSCD: @unchecked Sendable {
    /// The script, with pcscd and nfcsim under it; its output is theirs.
    public let child: WatchedChild
    /// PCSCLITE_CSOCK_NAME for clients (the client library reads it once per process).
    public let socket: String

    /// What the script needs: pcscd, unshare and ip on the machine, the vpcd driver unpacked by
    /// scripts/install-deps.sh, and the built nfcsim.
    public static func requireAll() throws {
        for name in ["pcscd", "unshare", "ip"] { _ = try Repository.installed(name) }
        guard FileManager.default.fileExists(atPath: Repository.path(".deps/vpcd/usr/lib/pcsc/drivers/serial/libifdvpcd.so")) else {
            throw Missing(what: "the vpcd driver is not unpacked in .deps/vpcd")
        }
        try Repository.requireBuilt(Repository.nfcsim)
    }

    /// Starts it and waits (10 s at most) until pcscd listens. `debug`: pcscd logs every client
    /// call (`pcscd: … BEGIN_TRANSACTION for client 11, rv=SCARD_S_SUCCESS`) into ``log``.
    public init(nfcsim arguments: [String], debug: Bool = false) throws {
        try Self.requireAll()
        child = try WatchedChild("/bin/bash", [Repository.path("scripts/private-pcscd.sh"), "--keep"] + (debug ? ["--debug"] : [])
                                 + ["--", Repository.nfcsim, "vpcd"] + arguments,
                                 name: "private-pcscd.sh")
        socket = try child.announced("PCSCLITE_CSOCK_NAME=")
    }

    /// The environment a PC/SC client needs to use it.
    public var environment: [String: String] { ["PCSCLITE_CSOCK_NAME": socket] }

    /// Everything the script, pcscd and nfcsim printed so far.
    public var log: String { child.log }

    /// Waits (bounded) for an output line starting with `prefix`.
    public func waitForLine(startingWith prefix: String, timeout: Double) -> String? {
        child.waitForLine(startingWith: prefix, timeout: timeout)
    }

    /// SIGTERM (recorded as an issue if it did not stop on it), then SIGKILL; returns the whole output.
    @discardableResult
    public func stop() -> String { child.stop() }
}
