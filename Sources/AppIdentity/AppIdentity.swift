import DesktopEntries

/// Who a D-Bus caller is, as nfcscand learnt it from the bus and the kernel (never from what the
/// caller says of itself): what the sheet, notifications, `nfcscan apps`, logs and the observers
/// show, and what permissions are kept under (``key``). Made by ``IdentityResolver/resolve(credentials:cgroup:flatpakInfo:executable:)``.
///
/// How far to trust it: a sandboxed app cannot change its `/.flatpak-info`, nor leave the scope
/// Flatpak puts it in, so its app ID is its own. An unsandboxed process runs as the person and
/// could name itself anything (start itself in a scope named after another app, or under
/// `bwrap` with a `/.flatpak-info` of its making) — as it could already read the other app's
/// files or trace it; the identity tells the person's apps apart, it is not a wall between
/// programs running unconfined as the same user (the portals make the same trade).
public struct AppIdentity: Sendable, Equatable, Hashable {
    public enum Sandbox: Sendable, Equatable, Hashable {
        /// No `/.flatpak-info` in the process's root: an app on the host.
        case none
        /// A Flatpak sandbox (`/.flatpak-info` read; ``AppIdentity/flatpak`` holds it).
        case flatpak
        /// Whether the process is sandboxed could not be learnt: its root or its `/.flatpak-info`
        /// could not be read (a process that made itself undumpable, one of another user), or
        /// the file was there but unreadable as one. Such a caller has no app ID and no key.
        case unknown
    }

    public let pid: UInt32
    public let uid: UInt32
    /// The app ID: the Flatpak app's, else the systemd unit's; always an ``ApplicationID``.
    public let appID: String?
    public let sandbox: Sandbox
    /// `/proc/PID/exe` as an absolute path (a trailing " (deleted)", a binary replaced by an
    /// upgrade while it ran, taken off). For a sandboxed app, a path inside its sandbox (`/app/bin/…`).
    public let executable: String?
    /// What `/.flatpak-info` said, for a Flatpak app.
    public let flatpak: FlatpakInfo?
    /// The app unit the process runs in, when it has one (for logs; a Flatpak app's names the
    /// same ID, through the `flatpak` launcher).
    public let scope: SystemdScope?
    /// Why less is known than could be, for the log: an unreadable or malformed `/.flatpak-info`,
    /// an app unit whose name did not parse, an executable path that is not one.
    public let problems: [String]

    public init(pid: UInt32, uid: UInt32, appID: String?, sandbox: Sandbox, executable: String?,
                flatpak: FlatpakInfo? = nil, scope: SystemdScope? = nil, problems: [String] = []) {
        self.pid = pid
        self.uid = uid
        self.appID = appID
        self.sandbox = sandbox
        self.executable = executable
        self.flatpak = flatpak
        self.scope = scope
        self.problems = problems
    }

    /// What permissions are kept under, stable from one run of the app to the next:
    /// - the app ID when there is one (a Flatpak app's is always its app ID: its executable is a
    ///   path inside its sandbox, which every Flatpak app may have);
    /// - else, for an app on the host, its executable's path (`/usr/bin/foo`); note that every
    ///   script run by the same interpreter outside a desktop's app unit shares the interpreter's
    ///   (`/usr/bin/python3.11`);
    /// - else nil: the caller cannot be told apart from another (sandbox ``Sandbox/unknown``, or
    ///   no executable could be read), and nothing should be remembered for it.
    /// An app ID never holds `/` and a path always starts with one, so the two never meet.
    public var key: String? {
        switch sandbox {
        case .flatpak: appID
        case .none: appID ?? executable
        case .unknown: nil
        }
    }

    /// The desktop file ID to look the app's desktop entry up by: `<appID>.desktop`.
    public var desktopFileID: DesktopFileID? {
        appID.flatMap { DesktopFileID(relativePath: "\($0).desktop") }
    }

    /// What a person is shown as the app's name, in this order:
    /// 1. the `Name` of `entry`, when it is this app's (`<appID>.desktop`) and not empty;
    /// 2. the app ID;
    /// 3. the executable's file name (`foo` of `/usr/bin/foo`), control and bidirectional
    ///    formatting characters shown as U+FFFD;
    /// 4. the process (`pid N`; ``DisplayName/process(_:)`` lets the copy say it in the person's words).
    public func displayName(entry: DesktopEntry?) -> DisplayName {
        if let entry = matching(entry), !entry.name.isEmpty { return .entry(entry.name) }
        if let appID { return .appID(appID) }
        // By scalars, not characters: a `/` followed by a combining mark is one Character.
        if let executable, let file = executable.unicodeScalars.split(separator: "/").last {
            return .executable(Self.shown(file))
        }
        return .process(pid)
    }

    /// The icon a person is shown: the `Icon` of `entry` when it is this app's, else nil.
    public func icon(entry: DesktopEntry?) -> String? {
        matching(entry)?.icon.flatMap { $0.isEmpty ? nil : $0 }
    }

    private func matching(_ entry: DesktopEntry?) -> DesktopEntry? {
        guard let entry, let id = desktopFileID, entry.id == id else { return nil }
        return entry
    }

    private static func shown(_ text: Substring.UnicodeScalarView) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text {
            let hidden = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || (0x200E...0x200F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
                || (0x2066...0x2069).contains(scalar.value) || scalar.value == 0x061C
            out.append(hidden ? "\u{FFFD}" : scalar)
        }
        return String(out)
    }
}

/// The name a person is shown for a caller, and where it came from.
public enum DisplayName: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The desktop entry's `Name` (the person's own files: mark up and escape it as any text).
    case entry(String)
    case appID(String)
    /// The executable's file name.
    case executable(String)
    /// Nothing better: the process ID.
    case process(UInt32)

    /// The name as plain text; `pid N` for a process.
    public var text: String {
        switch self {
        case .entry(let text), .appID(let text), .executable(let text): text
        case .process(let pid): "pid \(pid)"
        }
    }

    public var description: String { text }
}
