import NDEFReport

/// A gettext PO file (po/nfcscan.pot, po/<language>.po) as far as the copy checks read one: each
/// entry's msgctxt, msgid, msgid_plural, msgstr (or msgstr[n]), flags and extracted comments.
/// Obsolete entries (`#~`) are left out; the header (msgid "") is ``header``.
public struct POFile: Sendable {
    public struct Entry: Hashable, Sendable {
        public var context: String?
        public var id: String
        public var idPlural: String?
        /// The msgstr, or msgstr[0], msgstr[1], … of a plural entry.
        public var strings: [String]
        /// `#,` flags: `fuzzy`, `python-brace-format`, …
        public var flags: [String]
        /// `#.` lines: notes for the translator.
        public var notes: [String]
        /// The entry's first line in the file.
        public var line: Int

        public var isFuzzy: Bool { flags.contains("fuzzy") }
    }

    public struct SyntaxError: Error, CustomStringConvertible {
        public var line: Int
        public var problem: String
        public var description: String { "line \(line): \(problem)" }
    }

    /// The header's fields ("Plural-Forms" → "nplurals=1; plural=0;").
    public var header: [String: String] = [:]
    public var entries: [Entry] = []

    public init(_ text: String) throws(SyntaxError) {
        var entry: Entry?
        var field: WritableKeyPath<Entry, String>?
        var flags: [String] = []
        var notes: [String] = []
        var number = 0

        func finish() {
            if var entry {
                entry.flags = flags
                entry.notes = notes
                if entry.id.isEmpty, entry.context == nil {
                    for line in (entry.strings.first ?? "").split(separator: "\n") {
                        guard let colon = line.firstIndex(of: ":") else { continue }
                        header[String(line[..<colon])] = line[line.index(after: colon)...].trimmingWhitespace
                    }
                } else {
                    entries.append(entry)
                }
            }
            entry = nil
            field = nil
            flags = []
            notes = []
        }

        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = rawLine.trimmingWhitespace
            if line.isEmpty { finish(); continue }
            // An entry ends at the first line of the next one, blank line or not.
            if entry?.strings.isEmpty == false, line.hasPrefix("#") || line.hasPrefix("msgctxt") || line.hasPrefix("msgid ") {
                finish()
            }
            if line.hasPrefix("#~") { continue }
            if line.hasPrefix("#,") {
                flags += line.dropFirst(2).split(separator: ",").map { $0.trimmingWhitespace }
                continue
            }
            if line.hasPrefix("#.") {
                notes.append(line.dropFirst(2).trimmingWhitespace)
                continue
            }
            if line.hasPrefix("#") { continue }
            if line.hasPrefix("\"") {
                guard let field, entry != nil else { throw SyntaxError(line: number, problem: "a string continues nothing") }
                entry![keyPath: field] += try Self.unquote(line[...], line: number)
                continue
            }
            let keyword = String(line.prefix { $0 != " " && $0 != "\t" })
            let value = try Self.unquote(line.dropFirst(keyword.count).trimmingWhitespace[...], line: number)
            switch keyword {
            case "msgctxt":
                entry = Entry(context: value, id: "", idPlural: nil, strings: [], flags: [], notes: [], line: number)
                field = \.context!
            case "msgid":
                if entry == nil { entry = Entry(context: nil, id: "", idPlural: nil, strings: [], flags: [], notes: [], line: number) }
                entry!.id = value
                field = \.id
            case "msgid_plural":
                guard entry != nil else { throw SyntaxError(line: number, problem: "msgid_plural without a msgid") }
                entry!.idPlural = value
                field = \.idPlural!
            case "msgstr":
                guard entry != nil else { throw SyntaxError(line: number, problem: "msgstr without a msgid") }
                entry!.strings = [value]
                field = \.strings[0]
            default:
                guard keyword.hasPrefix("msgstr["), keyword.hasSuffix("]"),
                      let index = Int(keyword.dropFirst(7).dropLast()), entry != nil, index == entry!.strings.count else {
                    throw SyntaxError(line: number, problem: "unexpected \(keyword)")
                }
                entry!.strings.append(value)
                field = \.strings[index]
            }
        }
        finish()
    }

    /// The entry for `context` and `id`.
    public func entry(context: String?, id: String) -> Entry? {
        entries.first { $0.context == context && $0.id == id }
    }

    /// The number of plural forms the header gives (Plural-Forms: nplurals=…).
    public var pluralCount: Int? {
        guard let forms = header["Plural-Forms"] else { return nil }
        for part in forms.split(separator: ";") {
            let field = part.trimmingWhitespace
            if field.hasPrefix("nplurals=") { return Int(field.dropFirst("nplurals=".count).trimmingWhitespace) }
        }
        return nil
    }

    /// A PO string literal's text: `"…"` with C escapes.
    static func unquote(_ literal: Substring, line: Int) throws(SyntaxError) -> String {
        guard literal.count >= 2, literal.first == "\"", literal.last == "\"" else {
            throw SyntaxError(line: line, problem: "not a quoted string: \(literal)")
        }
        var result = ""
        var escaped = false
        for character in literal.dropFirst().dropLast() {
            if escaped {
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "\"", "\\": result.append(character)
                default: throw SyntaxError(line: line, problem: "unknown escape \\\(character)")
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                throw SyntaxError(line: line, problem: "a quote inside a string")
            } else {
                result.append(character)
            }
        }
        if escaped { throw SyntaxError(line: line, problem: "a string ends in a backslash") }
        return result
    }
}
