import NDEF

/// One kind of object an app asks to receive. Built only through the validating factories (or
/// ``init(fields:)`` for the D-Bus dictionary), so every filter in a registry is well formed and
/// stored in the normalised form matching compares against.
///
/// How a filter matches a record:
/// - URI: the record's URI (a `uri` or `absolute-uri` record, or a smart poster's link) must be
///   well formed (see the `Docs/dbus-api.md` section "Which handler gets an object"). Scheme and host
///   compare case-insensitively; the host exactly (`example.com` does not match
///   `www.example.com`); the port and user information are ignored. The path prefix matches on a
///   segment boundary: `/posters` matches `/posters`, `/posters/` and `/posters/summer`, not
///   `/posters-old`; a prefix ending in `/` matches only below it. Paths compare byte for byte
///   (case-sensitively) after normalisation (dot segments removed, escapes of unreserved characters decoded).
/// - Media type: the record's type without parameters, case-insensitively; `image/*` matches every
///   `image/…` type. A text record counts as `text/plain`.
/// - External type: the record's `domain:type`, case-insensitively (NFC Forum RTD 1.0).
/// - Android package: an Android application record naming exactly this package (case-sensitive).
public struct HandlerFilter: Hashable, Sendable, CustomStringConvertible {
    /// The filter's one kind, normalised: scheme, host, media and external types lowercased, path
    /// prefix normalised (`nil` for no prefix, and for `/`, which matches every path).
    public enum Kind: Hashable, Sendable {
        case uri(scheme: String, host: String?, pathPrefix: String?)
        /// `type/subtype`, or `type/*` for a whole family.
        case mediaType(String)
        case externalType(String)
        case androidPackage(String)
    }

    /// The keys of a filter's dictionary in `RegisterHandler` (Docs/dbus/org.nfcscan.Scanner1.xml).
    public enum Key: String, CaseIterable, Sendable {
        case uriScheme = "uri-scheme"
        case uriHost = "uri-host"
        case uriPathPrefix = "uri-path-prefix"
        case mediaType = "media-type"
        case externalType = "external-type"
        case androidPackage = "android-package"
    }

    public let kind: Kind

    /// Longest accepted values, in UTF-8 bytes. Types fit a record's one-byte type length.
    public static let maximumSchemeLength = URIScheme.maximumLength
    public static let maximumHostLength = 255
    public static let maximumPathPrefixLength = 1024
    public static let maximumTypeLength = 255

    private init(_ kind: Kind) { self.kind = kind }

    /// Links with `scheme`, optionally only on `host`, optionally only under `pathPrefix`
    /// (which needs a host).
    public static func uri(scheme: String, host: String? = nil, pathPrefix: String? = nil) throws(FilterError) -> HandlerFilter {
        try check(scheme, key: .uriScheme, maximum: maximumSchemeLength)
        guard ParsedURI.isValidScheme(scheme) else { throw .invalidScheme(scheme) }
        guard !ParsedURI.unsafeSchemes.contains(scheme.lowercased()) else { throw .unsafeScheme(scheme) }
        var normalisedHost: String?
        if let host {
            try check(host, key: .uriHost, maximum: maximumHostLength)
            // A host is valid when a URI built around it parses back to exactly that host.
            guard let parsed = ParsedURI("x://\(host)/"), !parsed.hasUserInfo, parsed.host == host.lowercased() else {
                throw .invalidHost(host)
            }
            normalisedHost = parsed.host
        }
        var normalisedPrefix: String?
        if let pathPrefix {
            guard host != nil else { throw .pathPrefixWithoutHost }
            try check(pathPrefix, key: .uriPathPrefix, maximum: maximumPathPrefixLength)
            guard pathPrefix.utf8.first == UInt8(ascii: "/"), !pathPrefix.unicodeScalars.contains(where: { $0 == "?" || $0 == "#" }),
                  let parsed = ParsedURI("x://h\(pathPrefix)") else {
                throw .invalidPathPrefix(pathPrefix)
            }
            normalisedPrefix = parsed.path == "/" ? nil : parsed.path
        }
        return HandlerFilter(.uri(scheme: scheme.lowercased(), host: normalisedHost, pathPrefix: normalisedPrefix))
    }

    /// Media records of `type` (`text/vcard`), or of a family (`image/*`).
    public static func mediaType(_ type: String) throws(FilterError) -> HandlerFilter {
        try check(type, key: .mediaType, maximum: maximumTypeLength)
        let lower = type.lowercased()
        if lower == "*/*" { throw .mediaTypeMatchesEverything }
        let parts = lower.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, isRestrictedName(parts[0]), isRestrictedName(parts[1]) || parts[1] == "*" else {
            throw .invalidMediaType(type)
        }
        return HandlerFilter(.mediaType(lower))
    }

    /// NFC Forum external records of `type` (`example.com:ticket`).
    public static func externalType(_ type: String) throws(FilterError) -> HandlerFilter {
        try check(type, key: .externalType, maximum: maximumTypeLength)
        let lower = type.lowercased()
        if lower == "android.com:pkg" { throw .reservedExternalType }
        guard let colon = lower.firstIndex(of: ":") else { throw .invalidExternalType(type) }
        let domain = lower[..<colon], name = lower[lower.index(after: colon)...]
        guard !domain.isEmpty, !name.isEmpty,
              domain.unicodeScalars.allSatisfy({ isASCIIAlphanumeric($0) || $0 == "-" || $0 == "." }),
              name.unicodeScalars.allSatisfy({ isASCIIAlphanumeric($0) || "()+,-.:=@;$_!*'%".unicodeScalars.contains($0) }) else {
            throw .invalidExternalType(type)
        }
        return HandlerFilter(.externalType(lower))
    }

    /// Objects carrying an Android application record for `package` (`com.example.app`).
    public static func androidPackage(_ package: String) throws(FilterError) -> HandlerFilter {
        try check(package, key: .androidPackage, maximum: maximumTypeLength)
        let names = package.split(separator: ".", omittingEmptySubsequences: false)
        let valid = names.allSatisfy { name in
            guard let first = name.unicodeScalars.first, first == "_" || isASCIILetter(first) else { return false }
            return name.unicodeScalars.allSatisfy { isASCIIAlphanumeric($0) || $0 == "_" }
        }
        guard valid else { throw .invalidAndroidPackage(package) }
        return HandlerFilter(.androidPackage(package))
    }

    /// A filter from its D-Bus dictionary (string values, keys as in ``Key``): exactly one of
    /// `uri-scheme`, `media-type`, `external-type`, `android-package`; `uri-host` and
    /// `uri-path-prefix` only beside `uri-scheme`. Unknown keys are refused, so a misspelt key
    /// fails loudly instead of widening the filter.
    public init(fields: [String: String]) throws(FilterError) {
        for key in fields.keys.sorted() where Key(rawValue: key) == nil { throw .unknownKey(key) }
        func value(_ key: Key) -> String? { fields[key.rawValue] }
        let kinds: [Key] = [.uriScheme, .mediaType, .externalType, .androidPackage].filter { value($0) != nil }
        for part in [Key.uriHost, .uriPathPrefix] where value(part) != nil && value(.uriScheme) == nil {
            throw .uriPartWithoutScheme(part.rawValue)
        }
        guard let only = kinds.first else { throw .noKind }
        guard kinds.count == 1 else { throw .severalKinds(kinds.map(\.rawValue)) }
        switch only {
        case .mediaType: self = try .mediaType(value(.mediaType) ?? "")
        case .externalType: self = try .externalType(value(.externalType) ?? "")
        case .androidPackage: self = try .androidPackage(value(.androidPackage) ?? "")
        default: self = try .uri(scheme: value(.uriScheme) ?? "", host: value(.uriHost), pathPrefix: value(.uriPathPrefix))
        }
    }

    /// The filter as `RegisterHandler`'s dictionary (normalised values): what ``init(fields:)``
    /// reads back to this filter, and what listings show.
    public var fields: [String: String] {
        switch kind {
        case .mediaType(let type): [Key.mediaType.rawValue: type]
        case .externalType(let type): [Key.externalType.rawValue: type]
        case .androidPackage(let package): [Key.androidPackage.rawValue: package]
        case .uri(let scheme, let host, let prefix):
            [Key.uriScheme.rawValue: scheme].merging([Key.uriHost.rawValue: host, Key.uriPathPrefix.rawValue: prefix].compactMapValues { $0 }) { a, _ in a }
        }
    }

    /// See ``FilterSpecificity`` for the order and why.
    public var specificity: FilterSpecificity {
        switch kind {
        case .androidPackage: FilterSpecificity(level: .androidPackage)
        case .externalType: FilterSpecificity(level: .exactType)
        case .mediaType(let type): FilterSpecificity(level: type.hasSuffix("/*") ? .mediaTypeWildcard : .exactType)
        case .uri(_, let host, let prefix):
            if let prefix { FilterSpecificity(level: .uriPathPrefix, pathPrefixLength: prefix.unicodeScalars.count) }
            else if host != nil { FilterSpecificity(level: .uriHost) }
            else { FilterSpecificity(level: .uriScheme) }
        }
    }

    /// `path` equals `prefix`, or continues it after a `/` (the prefix's own last character, or the
    /// next one). Byte for byte: two spellings of one letter are different paths to a server too.
    static func path(_ path: String, isUnder prefix: String) -> Bool {
        guard path.utf8.starts(with: prefix.utf8) else { return false }
        if path.utf8.count == prefix.utf8.count || prefix.hasSuffix("/") { return true }
        return path.utf8.dropFirst(prefix.utf8.count).first == UInt8(ascii: "/")
    }

    /// The filter as its D-Bus dictionary would spell it, for logs.
    public var description: String {
        switch kind {
        case .uri(let scheme, let host, let prefix):
            "uri-scheme=\(scheme)" + (host.map { " uri-host=\($0)" } ?? "") + (prefix.map { " uri-path-prefix=\($0)" } ?? "")
        case .mediaType(let type): "media-type=\(type)"
        case .externalType(let type): "external-type=\(type)"
        case .androidPackage(let package): "android-package=\(package)"
        }
    }

    private static func check(_ value: String, key: Key, maximum: Int) throws(FilterError) {
        if value.isEmpty { throw .empty(key.rawValue) }
        let length = value.utf8.count
        if length > maximum { throw .tooLong(key: key.rawValue, length: length, maximum: maximum) }
    }

    /// RFC 6838 §4.2 restricted-name: a letter or digit, then up to 126 of those or `!#$&-^_.+`.
    private static func isRestrictedName(_ name: Substring) -> Bool {
        guard let first = name.unicodeScalars.first, isASCIIAlphanumeric(first), name.utf8.count <= 127 else { return false }
        return name.unicodeScalars.allSatisfy { isASCIIAlphanumeric($0) || "!#$&-^_.+".unicodeScalars.contains($0) }
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        isASCIILetter(scalar) || ("0"..."9").contains(scalar)
    }
}
