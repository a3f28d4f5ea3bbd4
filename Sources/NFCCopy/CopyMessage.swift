/// One message of the copy catalogs: an entry of po/nfcscan.pot.
///
/// The English text is the msgid and the source of truth (``CopyMessage/all`` lists every one, in
/// CopyMessages.swift); each language's words are its msgstr in po/<language>.po. A value the
/// program fills in is a named placeholder, `{object}`, `{app}`, `{count}`, which a translation may
/// move anywhere in its sentence; ``fill(_:_:)`` replaces them in one pass, so a value (read from
/// an object, untrusted) is never read as a template or a format.
public struct CopyMessage: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        /// A complete sentence: a capital letter first, ending punctuation (``CopyRules``).
        case sentence
        /// A label ("Link: {link}", "59 s") or a button: no sentence rules, words and width only.
        case label
        /// The name of an object a person holds near the reader ("poster"): the msgctxt `object`.
        case objectName
    }

    public let kind: Kind
    /// The msgctxt: the message's stable name ("firstPrompt", "writeEnded.too-large"); `object`
    /// for every object name.
    public let context: String
    /// The msgid: the English words.
    public let english: String
    /// The msgid_plural of a message that counts: the English for any count but one. Its
    /// translations are the language's plural forms (ngettext), chosen by `{count}`.
    public let englishPlural: String?
    /// What a translator should know (the entry's `#.` comment).
    public let note: String

    init(_ kind: Kind, _ context: String, _ english: String, plural: String? = nil, note: String = "") {
        self.kind = kind
        self.context = context
        self.english = english
        self.englishPlural = plural
        self.note = note
    }

    /// What gettext looks the message up by: msgctxt, then EOT, then msgid.
    var lookupKey: String { context + "\u{4}" + english }

    /// The placeholders in `text` (`{object}` gives "object"), each once, in order of appearance.
    public static func placeholders(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            let name = String(after[..<close])
            if !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "_") }), !names.contains(name) {
                names.append(name)
            }
            rest = after[after.index(after: close)...]
        }
        return names
    }

    /// `template` with every `{name}` that `values` names replaced by its value, left to right in
    /// one pass: a value that itself holds `{app}` stays as it is. A brace that starts no known
    /// placeholder is kept.
    public static func fill(_ template: String, _ values: [String: String]) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let value = values[String(after[..<close])] {
                result += value
                rest = after[after.index(after: close)...]
            } else {
                result.append("{")
                rest = after
            }
        }
        result += rest
        return result
    }
}
