/// How precisely a filter names what it wants: when several registrations match one object, the
/// most specific filter wins, so an app that asked for exactly this object beats one that asked
/// for a whole family of objects. Equal specificity goes to the most recent registration.
///
/// Ordered by ``level`` first, then (between two path prefixes) by ``pathPrefixLength``:
/// 1. `android-package`: the object itself names the app (an Android application record).
/// 2. `external-type` and exact `media-type`: a data format defined for a purpose, named whole.
/// 3. `uri-scheme` + `uri-host` + `uri-path-prefix`: one part of one site; a longer prefix wins.
///    (Both prefixes match the same path, so the longer one is the more precise.)
/// 4. `uri-scheme` + `uri-host`: one site.
/// 5. `media-type` wildcard (`image/*`): a family of formats.
/// 6. `uri-scheme` alone: every link of a kind.
///
/// Host and path filters rank below exact types: a typed record is written for the apps that read
/// that format, while a link is also meant for any browser, so a typed record says more about
/// which app the object was made for.
public struct FilterSpecificity: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The rank of a filter's kind; higher is more specific.
    public enum Level: Int, Comparable, Hashable, Sendable {
        case uriScheme = 1
        case mediaTypeWildcard = 2
        case uriHost = 3
        case uriPathPrefix = 4
        case exactType = 5
        case androidPackage = 6

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public let level: Level
    /// For ``Level/uriPathPrefix``: the normalised prefix's length in Unicode scalars; 0 otherwise.
    public let pathPrefixLength: Int

    public init(level: Level, pathPrefixLength: Int = 0) {
        self.level = level
        self.pathPrefixLength = level == .uriPathPrefix ? pathPrefixLength : 0
    }

    public static func < (lhs: FilterSpecificity, rhs: FilterSpecificity) -> Bool {
        (lhs.level, lhs.pathPrefixLength) < (rhs.level, rhs.pathPrefixLength)
    }

    public var description: String {
        level == .uriPathPrefix ? "\(level) (\(pathPrefixLength))" : "\(level)"
    }
}
