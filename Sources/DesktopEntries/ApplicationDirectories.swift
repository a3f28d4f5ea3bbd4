/// Where desktop entries are looked for (XDG Base Directory Specification): `applications`
/// below `$XDG_DATA_HOME` (default `~/.local/share`), then below each of `$XDG_DATA_DIRS`
/// (default `/usr/local/share:/usr/share`), in that order of precedence. Relative paths are
/// ignored, as the spec says; a directory named twice counts once, at its first place.
public struct ApplicationDirectories: Sendable, Equatable {
    /// Most important first.
    public let paths: [String]

    public init(paths: [String]) { self.paths = paths }

    public init(environment: [String: String]) {
        var data: [String] = []
        if let home = environment["XDG_DATA_HOME"], home.hasPrefix("/") {
            data.append(home)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            data.append(home + "/.local/share")
        }
        let dirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share/:/usr/share/"
        data += dirs.split(separator: ":").map(String.init)
        var seen: Set<String> = []
        paths = data.filter { $0.hasPrefix("/") }.map { Self.trimmingSlashes($0) + "/applications" }.filter { seen.insert($0).inserted }
    }

    private static func trimmingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path == "/" ? "" : String(path)
    }
}
