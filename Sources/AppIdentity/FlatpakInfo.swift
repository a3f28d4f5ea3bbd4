import DesktopEntries

/// What `/.flatpak-info` says about a sandboxed app: Flatpak writes the file (a GLib key file)
/// into every sandbox's root, read-only, and the app cannot change it; xdg-desktop-portal reads
/// the app ID from it (through `/proc/PID/root`), and so does nfcscand.
///
/// Flatpak lays it out as
///
///     [Application]
///     name=org.gnome.Calculator
///     runtime=runtime/org.gnome.Platform/x86_64/46
///
///     [Instance]
///     instance-id=3372089519
///     app-path=/var/lib/flatpak/app/org.gnome.Calculator/x86_64/stable/…/files
///     branch=stable
///     arch=x86_64
///     flatpak-version=1.14.4
///     session-bus-proxy=true
///     …
///     [Context]
///     shared=network;ipc;
///     …
///     [Session Bus Policy]
///     org.gtk.vfs.*=talk
///
/// (`[Runtime] name=` instead of `[Application]` when a runtime itself is run, `flatpak run
/// --runtime`; the portal takes that name as the app ID too, and so does this.)
///
/// Untrusted input in the sense of the architecture's "Untrusted callers": bounded before it is
/// read as text (``maximumBytes``), read by `DesktopEntryFile` with GLib's key names and the
/// desktop entry's strictness (a repeated group or key, a line that is neither, bytes that are
/// not UTF-8 refuse the file: one file never means two apps), never trapping on any bytes.
public struct FlatpakInfo: Sendable, Equatable, Hashable {
    public enum Kind: Sendable, Equatable, Hashable {
        /// `[Application]`: an app.
        case application
        /// `[Runtime]`: a runtime run on its own.
        case runtime
    }

    public let kind: Kind
    /// `name=`, an ``ApplicationID``.
    public let appID: String
    /// `[Application] runtime=`: `runtime/org.gnome.Platform/x86_64/46`.
    public let runtime: String?
    /// `[Instance] instance-id=`: the sandbox's instance (Flatpak 1.3 and later).
    public let instanceID: String?
    /// `[Instance] branch=`, `arch=`, `flatpak-version=`.
    public let branch: String?
    public let arch: String?
    public let flatpakVersion: String?

    /// A real file is one to three kilobytes; more than this is refused before it is read.
    public static let maximumBytes = 64 * 1024

    public init(bytes: some Collection<UInt8>) throws(FlatpakInfoProblem) {
        guard bytes.count <= Self.maximumBytes else {
            throw FlatpakInfoProblem(line: 0, "the file is \(bytes.count) bytes; at most \(Self.maximumBytes)")
        }
        let file: DesktopEntryFile
        do { file = try DesktopEntryFile(bytes: bytes, keys: .keyFile) } catch {
            throw FlatpakInfoProblem(line: error.line, error.detail)
        }
        let application = file.group("Application"), runtime = file.group("Runtime")
        let group: DesktopEntryFile.Group
        switch (application, runtime) {
        case (let application?, nil): group = application; kind = .application
        case (nil, let runtime?): group = runtime; kind = .runtime
        case (_?, let runtime?): throw FlatpakInfoProblem(line: runtime.line, "both [Application] and [Runtime]")
        case (nil, nil): throw FlatpakInfoProblem(line: 0, "no [Application] group")
        }
        guard let name = group.entry("name") else { throw FlatpakInfoProblem(line: group.line, "[\(group.name)] has no name") }
        guard let id = DesktopEntryValue.string(name.rawValue), ApplicationID.isValid(id) else {
            throw FlatpakInfoProblem(line: name.line, "the name is not an application ID")
        }
        appID = id
        let instance = file.group("Instance")
        self.runtime = try Self.string(application?.entry("runtime"))
        instanceID = try Self.string(instance?.entry("instance-id"))
        branch = try Self.string(instance?.entry("branch"))
        arch = try Self.string(instance?.entry("arch"))
        flatpakVersion = try Self.string(instance?.entry("flatpak-version"))
    }

    /// A string value unescaped (`\s`, `\n`, `\t`, `\r`, `\\`), nil when absent or empty.
    private static func string(_ entry: DesktopEntryFile.Entry?) throws(FlatpakInfoProblem) -> String? {
        guard let entry else { return nil }
        guard let value = DesktopEntryValue.string(entry.rawValue) else {
            throw FlatpakInfoProblem(line: entry.line, "\(entry.key) holds an escape that is not one")
        }
        return value.isEmpty ? nil : value
    }
}

/// Why `/.flatpak-info` was not read, with the line at fault (0: the file as a whole).
public struct FlatpakInfoProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let detail: String

    public init(line: Int, _ detail: String) {
        self.line = line
        self.detail = detail
    }

    public var description: String { line > 0 ? "/.flatpak-info line \(line): \(detail)" : "/.flatpak-info: \(detail)" }
}
