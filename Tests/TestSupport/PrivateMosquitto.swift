import Foundation
import Glibc

/// Debian's mosquitto broker with a configuration of the test's own, listening on 127.0.0.1 only
/// (never beyond loopback) on a port that was free, so nothing on the machine (a system mosquitto
/// on 1883) can change what a test sees. `stop()` and `start()` again on the same port are a broker
/// outage; `persistent` keeps sessions and their queued messages across it (in its directory), so
/// a subscriber with a persistent session misses nothing while both were away.
public final class PrivateMosquitto: @unchecked Sendable {
    // @unchecked: `child` changes only in start()/stop(), which a test calls from one task.
    public let port: Int32
    /// Its configuration file and anything else a test adds (password file, certificates).
    public let directory: String
    public private(set) var child: WatchedChild?
    private let executable: String

    /// Starts a broker; `extraConfiguration` lines are appended to the listener's configuration
    /// (`allow_anonymous false`, `password_file …`). Waits (10 s at most) until it listens.
    /// Who may connect, and how.
    public struct Security: Sendable {
        /// A TLS listener: its certificate (for 127.0.0.1) is signed by a test CA made by openssl,
        /// `ca.pem` in `directory`; `other-ca.pem` is a CA that signed nothing (the wrong one), and
        /// `client.pem` / `client.key` a client certificate the test CA signed.
        public var tls = false
        /// Mutual TLS: a client without a certificate from the test CA is refused.
        public var requireClientCertificate = false
        /// Usernames and passwords (a password file made by mosquitto_passwd); empty: anyone.
        public var users: [String: String] = [:]

        public init(tls: Bool = false, requireClientCertificate: Bool = false, users: [String: String] = [:]) {
            self.tls = tls
            self.requireClientCertificate = requireClientCertificate
            self.users = users
        }
    }

    public init(persistent: Bool = false, security: Security = .init(), extraConfiguration: [String] = []) throws {
        executable = try Repository.installed("mosquitto")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfcscan-mosquitto-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        port = try Self.freeLoopbackPort()
        var access = ["allow_anonymous \(security.users.isEmpty)"]
        if !security.users.isEmpty {
            let passwd = try Repository.installed("mosquitto_passwd")
            let file = directory + "/passwords"
            for (user, password) in security.users.sorted(by: { $0.key < $1.key }) {
                let made = try BoundedProcess.run(passwd, (FileManager.default.fileExists(atPath: file) ? ["-b"] : ["-c", "-b"]) + [file, user, password], timeout: 10)
                guard made.status == 0 else { throw Missing(what: "mosquitto_passwd failed: \(made.output)") }
            }
            access.append("password_file \(file)")
        }
        if security.tls {
            try Self.makeCertificates(in: directory)
            access += ["cafile \(directory)/ca.pem", "certfile \(directory)/server.pem", "keyfile \(directory)/server.key"]
            if security.requireClientCertificate { access.append("require_certificate true") }
        }
        let persistence = persistent ? ["persistence true", "persistence_location \(directory)/", "autosave_interval 0"] : ["persistence false"]
        // Started as root, mosquitto would switch to the user "mosquitto", who cannot write the
        // test's directory (the persistence file): it stays the test's user.
        let user = getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) }.map { ["user \($0)"] } ?? []
        let configuration = ["listener \(port) 127.0.0.1"] + user + persistence + ["log_dest stderr",
                             "log_type error", "log_type warning", "log_type notice", "log_type information",
                             "log_timestamp false"] + access + extraConfiguration
        try (configuration.joined(separator: "\n") + "\n").write(toFile: directory + "/mosquitto.conf", atomically: true, encoding: .utf8)
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Starts it (again) on the same port and waits until it listens there.
    public func start() throws {
        guard child == nil else { return }
        let started = try WatchedChild(executable, ["-c", directory + "/mosquitto.conf"], name: "mosquitto", unblockingSignals: true)
        child = started
        // mosquitto says "mosquitto version V starting", opens its listener, then "mosquitto version V running".
        guard started.waitForLine(startingWith: "mosquitto version", containing: " running", timeout: 10) != nil else {
            let log = started.stop()
            child = nil
            throw Missing(what: "mosquitto did not start on 127.0.0.1:\(port): \(log)")
        }
    }

    /// SIGTERM until it ends (5 s at most, then WatchedChild's SIGKILL); returns what it logged.
    /// Once is not enough: mosquitto 2.0 installs its handler, logs "running", and only then sets
    /// the flag the handler clears, so a SIGTERM right after it started is lost.
    @discardableResult
    public func stop() -> String {
        guard let child else { return "" }
        self.child = nil
        let deadline = Date().addingTimeInterval(5)
        while child.process.isRunning, Date() < deadline {
            kill(child.process.processIdentifier, SIGTERM)
            var waited = 0
            while child.process.isRunning, waited < 20 { usleep(10_000); waited += 1 }   // up to 0.2 s per signal
        }
        return child.stop()
    }

    public var log: String { child?.log ?? "" }

    /// A test CA, a server certificate it signed for 127.0.0.1, a client certificate it signed,
    /// and another CA (EC keys: quick to make).
    static func makeCertificates(in directory: String) throws {
        let openssl = try Repository.installed("openssl")
        let script = """
            set -e
            cd "$1"
            for ca in ca other-ca; do
              "$2" req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=nfcscan test $ca" \\
                -keyout $ca.key -out $ca.pem 2>/dev/null
            done
            for who in server client; do
              "$2" req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=$who" -keyout $who.key -out $who.csr 2>/dev/null
              printf 'subjectAltName=IP:127.0.0.1\\n' >$who.ext
              "$2" x509 -req -in $who.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile $who.ext -out $who.pem 2>/dev/null
            done
            """
        let made = try BoundedProcess.run("/bin/sh", ["-c", script, "sh", directory, openssl], timeout: 30)
        guard made.status == 0 else { throw Missing(what: "openssl could not make the test certificates: \(made.output)") }
    }

    /// A TCP port on 127.0.0.1 the kernel just handed out and that nothing holds now.
    public static func freeLoopbackPort() throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Missing(what: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw Missing(what: "no free port on 127.0.0.1: \(String(cString: strerror(errno)))") }
        return Int32(UInt16(bigEndian: address.sin_port))
    }
}
