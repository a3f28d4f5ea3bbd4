import Glibc

extension ScanCopy.Language {
    /// ``preferred(environment:)`` of this process's environment.
    public static func preferred() -> ScanCopy.Language {
        var environment: [String: String] = [:]
        for name in ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return preferred(environment: environment)
    }

    /// The language a person reading this program's output asked for, as gettext decides it:
    /// `LANGUAGE` (a `:`-separated list of preferences) unless the locale is C/POSIX, then
    /// `LC_ALL`, `LC_MESSAGES`, `LANG`. The first supported one wins; English otherwise.
    /// Traditional Chinese (zh_TW, zh_HK, zh-Hant) is not Simplified and falls through.
    public static func preferred(environment: [String: String]) -> ScanCopy.Language {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        var candidates: [String] = []
        if !locale.isEmpty, !Self.isPlainC(locale), let list = environment["LANGUAGE"], !list.isEmpty {
            candidates += list.split(separator: ":").map(String.init)
        }
        candidates.append(locale)
        for candidate in candidates {
            if let language = Self(localeName: candidate) { return language }
        }
        return .english
    }

    /// The catalog language for one locale name ("zh_CN.UTF-8", "zh-Hans", "en_GB"); nil when
    /// none fits.
    public init?(localeName: String) {
        let name = localeName.split(separator: ".").first.map(String.init)?.split(separator: "@").first.map(String.init) ?? ""
        let parts = name.replacingUnderscores.lowercased().split(separator: "-").map(String.init)
        guard let language = parts.first else { return nil }
        switch language {
        case "en": self = .english
        case "zh":
            let rest = Set(parts.dropFirst())
            if !rest.isDisjoint(with: ["hant", "tw", "hk", "mo"]) { return nil }
            self = .simplifiedChinese
        default: return nil
        }
    }

    /// The name of the language's gettext catalog: po/<name>.po, installed as
    /// <localedir>/<name>/LC_MESSAGES/nfcscan.mo (po/LINGUAS lists them).
    public var catalogName: String {
        switch self {
        case .english: "en"
        case .simplifiedChinese: "zh_CN"
        }
    }

    static func isPlainC(_ locale: String) -> Bool {
        locale == "C" || locale == "POSIX" || locale.hasPrefix("C.")
    }
}

extension String {
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? "-" : $0 }) }
}
