/// Who a caller is, from what the kernel and the bus say of its process; pure (the daemon's
/// `CallerIdentification` reads the files and the credentials and hands them over).
///
/// The order: `/.flatpak-info` in the process's root wins (a sandboxed app: its app ID, sandbox
/// `.flatpak`); then the app unit the process runs in (`/proc/PID/cgroup`, ``SystemdScope``);
/// then nothing but the executable (`/proc/PID/exe`). A `/.flatpak-info` that is there but
/// cannot be read, or does not parse, leaves the caller `.unknown`: it may well be sandboxed, and
/// a sandboxed app must never pass for the host app its scope or executable would name.
public enum IdentityResolver {
    /// What `GetConnectionCredentials` gave: `ProcessID` and `UnixUserID`.
    public struct Credentials: Sendable, Equatable, Hashable {
        public let pid: UInt32
        public let uid: UInt32

        public init(pid: UInt32, uid: UInt32) {
            self.pid = pid
            self.uid = uid
        }
    }

    /// A file read for the resolver: there, not there, or not readable (why).
    public enum File: Sendable, Equatable {
        case contents([UInt8])
        /// No such file (ENOENT): for `/.flatpak-info`, the process is not sandboxed.
        case missing
        case unreadable(String)
    }

    /// The longest executable path taken (PATH_MAX).
    public static let maximumExecutableBytes = 4096

    /// - Parameters:
    ///   - cgroup: `/proc/PID/cgroup`, nil when it could not be read.
    ///   - flatpakInfo: `/proc/PID/root/.flatpak-info`.
    ///   - executable: what `readlink /proc/PID/exe` gave, nil when it failed.
    public static func resolve(credentials: Credentials, cgroup: [UInt8]?, flatpakInfo: File,
                               executable: [UInt8]?) -> AppIdentity {
        var problems: [String] = []
        let scope = cgroup.flatMap { bytes -> SystemdScope? in
            let scope = SystemdScope(cgroup: bytes)
            if scope == nil, hasAppUnit(bytes) { problems.append("the process's app unit does not name an application ID") }
            return scope
        }
        let path = executablePath(executable, problems: &problems)
        switch flatpakInfo {
        case .missing:
            return AppIdentity(pid: credentials.pid, uid: credentials.uid, appID: scope?.applicationID, sandbox: .none,
                               executable: path, scope: scope, problems: problems)
        case .unreadable(let why):
            problems.append("/.flatpak-info: \(why)")
        case .contents(let bytes):
            do {
                let info = try FlatpakInfo(bytes: bytes)
                return AppIdentity(pid: credentials.pid, uid: credentials.uid, appID: info.appID, sandbox: .flatpak,
                                   executable: path, flatpak: info, scope: scope, problems: problems)
            } catch {
                problems.append(error.description)
            }
        }
        return AppIdentity(pid: credentials.pid, uid: credentials.uid, appID: nil, sandbox: .unknown,
                           executable: path, scope: scope, problems: problems)
    }

    /// An absolute path of UTF-8 without NUL, at most ``maximumExecutableBytes``; the kernel's
    /// " (deleted)" suffix taken off.
    static func executablePath(_ bytes: [UInt8]?, problems: inout [String]) -> String? {
        guard let bytes else { return nil }
        guard bytes.count <= maximumExecutableBytes, bytes.first == UInt8(ascii: "/"), !bytes.contains(0),
              String(validating: bytes, as: UTF8.self) != nil else {
            problems.append("the executable's path is not an absolute UTF-8 path")
            return nil
        }
        // Compared as bytes: as Characters, a combining mark after `)` would hide the suffix.
        let deleted = Array(" (deleted)".utf8)
        let kept = bytes.count > deleted.count && bytes.suffix(deleted.count).elementsEqual(deleted) ? bytes.dropLast(deleted.count) : bytes[...]
        return String(decoding: kept, as: UTF8.self)
    }

    private static func hasAppUnit(_ bytes: [UInt8]) -> Bool {
        guard bytes.count <= SystemdScope.maximumBytes, let path = SystemdScope.systemdPath(bytes) else { return false }
        return path.split(separator: UInt8(ascii: "/")).contains(where: SystemdScope.isAppUnit)
    }
}
