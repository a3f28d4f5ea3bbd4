import DesktopEntries

/// An installed app that declares, in its desktop entry, the objects it handles
/// (`X-NFCScan-Filters=`), so it can receive them while it is not running.
///
/// The declaration is read into the same ``HandlerRequest`` as `RegisterHandler`'s options, so
/// it has exactly the same keys, validation, limits and specificity: `Name` is the app name,
/// `Icon` the icon, the desktop file ID the desktop entry.
public struct AppDeclaration: Hashable, Sendable {
    /// How the app is started with an object.
    public enum Launch: Hashable, Sendable {
        /// `DBusActivatable=true`: `org.nfcscan.Handler1.HandleScan` on the app's bus name (the
        /// bus starts it from its D-Bus service file) at its object path.
        case dbusActivation(busName: String, objectPath: String)
        /// The `Exec` line, with the object's JSON in a private file (`%f`/`%F`) or the link (`%u`/`%U`).
        case exec(ExecCommandLine)
    }

    public static let filtersKey = "X-NFCScan-Filters"

    /// The desktop file ID.
    public let id: DesktopFileID
    public let request: HandlerRequest
    public let launch: Launch
    /// The desktop file it came from (`%k`, and the log).
    public let path: String

    public var appName: String { request.appName }
    public var filters: [HandlerFilter] { request.filters }

    /// The declaration in `entry`, nil when it declares nothing; throws when the declaration is
    /// malformed (the problem names the key's line) or the entry cannot be started with it.
    public init?(_ entry: DesktopEntry) throws(DesktopEntryProblem) {
        guard let (raw, line) = entry.value(of: Self.filtersKey) else { return nil }
        let fields: [[String: String]]
        do { fields = try Self.filterFields(raw) } catch { throw DesktopEntryProblem(line: line, "\(Self.filtersKey): \(error.detail)") }
        do {
            request = try HandlerRequest(appName: entry.name, appIcon: entry.icon, desktopEntry: entry.id.name, filterFields: fields)
        } catch {
            throw DesktopEntryProblem(line: line, "\(Self.filtersKey): \(error)")
        }
        if entry.dbusActivatable {
            guard let busName = entry.id.busName, let objectPath = entry.id.objectPath else {
                throw DesktopEntryProblem(line: entry.value(of: "DBusActivatable")?.line ?? 0,
                                          "DBusActivatable=true needs a desktop file ID that is a D-Bus name (org.example.App.desktop)")
            }
            launch = .dbusActivation(busName: busName, objectPath: objectPath)
        } else if let exec = entry.exec {
            launch = .exec(exec)
        } else {
            throw DesktopEntryProblem(line: 0, "no Exec line to start the app with")
        }
        id = entry.id
        path = entry.path
    }

    /// `X-NFCScan-Filters`'s value as RegisterHandler's filter dictionaries: filters separated by
    /// `;` (a list, `\;` escaping one inside a value), each a `,`-separated set of `key=value`
    /// (`\,` for a comma inside a value). Key names and values are checked by ``HandlerFilter``.
    public static func filterFields(_ raw: String) throws(DesktopEntryProblem) -> [[String: String]] {
        guard let filters = DesktopEntryValue.rawElements(raw) else { throw DesktopEntryProblem(line: 0, "not a list of filters") }
        guard !filters.isEmpty else { throw DesktopEntryProblem(line: 0, "no filter") }
        guard filters.count <= HandlerRegistry.maximumFiltersPerRegistration else {
            throw DesktopEntryProblem(line: 0, "\(filters.count) filters; at most \(HandlerRegistry.maximumFiltersPerRegistration)")
        }
        var result: [[String: String]] = []
        for (index, filter) in filters.enumerated() {
            var fields: [String: String] = [:]
            for pair in splitUnescaped(filter, on: ",") {
                guard let equals = pair.firstIndex(of: "=") else {
                    throw DesktopEntryProblem(line: 0, "filter \(index): \"\(FilterError.show(pair))\" is not key=value")
                }
                guard let key = DesktopEntryValue.string(String(pair[..<equals])),
                      let value = DesktopEntryValue.string(String(pair[pair.index(after: equals)...])) else {
                    throw DesktopEntryProblem(line: 0, "filter \(index): \"\(FilterError.show(pair))\" holds an escape other than \\, \\; \\s \\\\")
                }
                guard fields[key] == nil else { throw DesktopEntryProblem(line: 0, "filter \(index): \(FilterError.show(key)) appears twice") }
                fields[key] = value
            }
            result.append(fields)
        }
        return result
    }

    /// `text` split at every `separator` not preceded by `\` (that escape is undone; others are
    /// left for ``DesktopEntryValue/string(_:)``).
    private static func splitUnescaped(_ text: String, on separator: Character) -> [String] {
        var parts: [String] = [], current = "", escaped = false
        for character in text {
            if escaped {
                if character != separator { current.append("\\") }
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == separator {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaped { current.append("\\") }
        parts.append(current)
        return parts.filter { !$0.isEmpty }
    }
}
