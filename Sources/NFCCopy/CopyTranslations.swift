import Synchronization

/// One language's words for every ``CopyMessage``: English is the messages themselves; any other
/// language is read from its gettext catalog through libintl (``Gettext``) the first time it is
/// asked for, and kept for the life of the process. A message the catalog lacks (or a catalog
/// that is not there) reads in English, as gettext does.
public final class CopyTranslations: Sendable {
    public let language: ScanCopy.Language
    /// The catalog file the words came from; nil for English, or when none was found.
    public let file: String?
    private let strings: [String: String]
    private let plurals: [String: [String]]
    /// Lower-cased English object name → its name in this language.
    private let objectNames: [String: String]

    private init(language: ScanCopy.Language, file: String?, strings: [String: String], plurals: [String: [String]]) {
        self.language = language
        self.file = file
        self.strings = strings
        self.plurals = plurals
        var names: [String: String] = [:]
        for message in CopyMessage.all where message.kind == .objectName {
            if let name = strings[message.lookupKey], !name.isEmpty { names[message.english.lowercased()] = name }
        }
        objectNames = names
    }

    private static let loaded = Mutex<[ScanCopy.Language: CopyTranslations]>([:])

    /// The words of `language`, read from its catalog on first use.
    public static func of(_ language: ScanCopy.Language) -> CopyTranslations {
        if language == .english {
            return english
        }
        if let known = loaded.withLock({ $0[language] }) { return known }
        let translations = load(language)
        return loaded.withLock { cache in
            if let known = cache[language] { return known }   // another thread was first
            cache[language] = translations
            return translations
        }
    }

    private static let english = CopyTranslations(language: .english, file: nil, strings: [:], plurals: [:])

    private static func load(_ language: ScanCopy.Language) -> CopyTranslations {
        guard let found = Gettext.catalogFile(language.catalogName),
              let words = Gettext.translations(of: CopyMessage.all, catalog: language.catalogName, in: found.directory) else {
            return CopyTranslations(language: language, file: nil, strings: [:], plurals: [:])
        }
        return CopyTranslations(language: language, file: found.file, strings: words.strings, plurals: words.plurals)
    }

    /// Reads every language's catalog now. nfcscand calls it as it starts, before its threads:
    /// reading one sets LANGUAGE for a moment (see ``Gettext``).
    public static func loadAll() {
        for language in ScanCopy.Language.allCases { _ = of(language) }
    }

    /// `message` in this language with its placeholders filled in from `values`.
    func text(_ message: CopyMessage, _ values: [String: String] = [:]) -> String {
        CopyMessage.fill(strings[message.lookupKey] ?? message.english, values)
    }

    /// `message`, a message that counts, in its form for `count`; `{count}` is filled in too.
    func text(_ message: CopyMessage, count: Int, _ values: [String: String] = [:]) -> String {
        let template: String
        if let forms = plurals[message.lookupKey] {
            template = forms[Gettext.pluralIndex(count)]
        } else {
            template = count == 1 ? message.english : message.englishPlural ?? message.english
        }
        var values = values
        values["count"] = values["count"] ?? String(count)
        return CopyMessage.fill(template, values)
    }

    /// The name of the object a person holds, in this language: a name the catalog has ("poster"
    /// in any case → "海报"), else `name` as it was given.
    func objectName(_ name: String) -> String {
        objectNames[name.lowercased()] ?? name
    }

    /// What this language calls an object when nobody said what it is ("item").
    var genericObjectName: String { text(.objectItem) }
}
