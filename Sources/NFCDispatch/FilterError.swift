import NDEFReport

/// Why a handler filter was refused. The descriptions are D-Bus error messages for the app's
/// developer: they name the key at fault and what a valid value looks like.
public enum FilterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// None of `uri-scheme`, `media-type`, `external-type`, `android-package`.
    case noKind
    /// More than one of them (the keys, in the documented order).
    case severalKinds([String])
    case unknownKey(String)
    /// `uri-host` or `uri-path-prefix` without `uri-scheme`.
    case uriPartWithoutScheme(String)
    case pathPrefixWithoutHost
    case empty(String)
    case tooLong(key: String, length: Int, maximum: Int)
    case invalidScheme(String)
    /// A scheme whose links are never delivered (``ParsedURI/unsafeSchemes``).
    case unsafeScheme(String)
    case invalidHost(String)
    case invalidPathPrefix(String)
    case invalidMediaType(String)
    /// `*/*`: a filter matching every media type would take objects meant for other apps.
    case mediaTypeMatchesEverything
    case invalidExternalType(String)
    /// `android.com:pkg` as an external type: that is what `android-package` is for.
    case reservedExternalType
    case invalidAndroidPackage(String)

    public var description: String {
        switch self {
        case .noKind:
            "a filter needs exactly one of \(Self.kindKeys); it has none"
        case .severalKinds(let keys):
            "a filter needs exactly one of \(Self.kindKeys); it has \(keys.joined(separator: " and ")): use one filter for each"
        case .unknownKey(let key):
            "unknown filter key \"\(Self.show(key))\"; known keys: \(HandlerFilter.Key.allCases.map(\.rawValue).joined(separator: ", "))"
        case .uriPartWithoutScheme(let key):
            "\(key) needs uri-scheme in the same filter"
        case .pathPrefixWithoutHost:
            "uri-path-prefix needs uri-host in the same filter"
        case .empty(let key):
            "\(key) is empty"
        case .tooLong(let key, let length, let maximum):
            "\(key) is \(length) bytes long; at most \(maximum)"
        case .invalidScheme(let value):
            "uri-scheme \"\(Self.show(value))\" is not a URI scheme: a letter, then letters, digits, '+', '-' or '.', without ':' (e.g. \"https\")"
        case .unsafeScheme(let value):
            "uri-scheme \"\(Self.show(value))\" is never delivered: links of that kind run code, show local files or reach other machines on an object's word"
        case .invalidHost(let value):
            "uri-host \"\(Self.show(value))\" is not a host alone: no scheme, user, port or path (e.g. \"example.com\" or \"[::1]\")"
        case .invalidPathPrefix(let value):
            "uri-path-prefix \"\(Self.show(value))\" must be a path starting with '/', without query, fragment, spaces or control characters (e.g. \"/posters\")"
        case .invalidMediaType(let value):
            "media-type \"\(Self.show(value))\" must be type/subtype or type/* without parameters (e.g. \"text/vcard\" or \"image/*\")"
        case .mediaTypeMatchesEverything:
            "media-type \"*/*\" would match every media record; name a type (\"text/vcard\") or a family (\"image/*\")"
        case .invalidExternalType(let value):
            "external-type \"\(Self.show(value))\" must be domain:type (e.g. \"example.com:ticket\")"
        case .reservedExternalType:
            "external-type \"android.com:pkg\" names Android application records; use android-package with the package name"
        case .invalidAndroidPackage(let value):
            "android-package \"\(Self.show(value))\" is not a package name: dot-separated names of letters, digits and '_' (e.g. \"com.example.app\")"
        }
    }

    private static var kindKeys: String {
        [HandlerFilter.Key.uriScheme, .mediaType, .externalType, .androidPackage].map(\.rawValue).joined(separator: ", ")
    }

    /// A value the app sent, safe to put in a log line and short enough to read.
    static func show(_ value: String) -> String { DisplayText.sanitized(value, maxCharacters: 64) }
}
