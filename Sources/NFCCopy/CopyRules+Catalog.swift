extension CopyRules {
    /// Something wrong with one entry of a language's catalog.
    public struct CatalogFinding: Hashable, Sendable, CustomStringConvertible {
        /// The entry's msgctxt and msgid.
        public var context: String
        public var id: String
        public var problem: String

        public var description: String { "msgctxt \"\(context)\" msgid \"\(id)\": \(problem)" }
    }

    /// What the placeholders hold while a translation is checked: the widest value each takes in
    /// practice (a five-digit count, a site and path), "example" for the others; `{object}` is
    /// every object name of the catalog in turn.
    static let sampleValues = ["app": "Posters", "seconds": "59", "count": "10000", "used": "45", "capacity": "137", "link": "example.com/poster"]

    /// Every problem of one language's catalog (po/<language>.po) measured against the messages:
    /// - a message without a translation (an entry missing, a msgstr empty) or with a fuzzy one:
    ///   people would read English;
    /// - plural forms other than the header's `nplurals`;
    /// - an entry that is no message (the catalog was not merged: `make pot`);
    /// - a translation whose placeholders are not the English's (one left out, one unknown to the
    ///   program); only a plural form may leave out `{count}`;
    /// - a translation that breaks ``problems(in:isSentence:)`` once filled in: `{object}` as each
    ///   object name the catalog translates, the other placeholders as ``sampleValues``.
    public static func check(_ catalog: POFile, messages: [CopyMessage] = CopyMessage.all) -> [CatalogFinding] {
        var findings: [CatalogFinding] = []
        func report(_ context: String, _ id: String, _ problem: String) {
            let finding = CatalogFinding(context: context, id: id, problem: problem)
            if !findings.contains(finding) { findings.append(finding) }
        }
        var entries: [String: POFile.Entry] = [:]
        for entry in catalog.entries { entries[(entry.context ?? "") + "\u{4}" + entry.id] = entry }
        let known = Set(messages.map(\.lookupKey))
        for entry in catalog.entries where !known.contains((entry.context ?? "") + "\u{4}" + entry.id) {
            report(entry.context ?? "", entry.id, "is no message of nfcscan's (run make pot to merge the catalog)")
        }

        // The object names to fill {object} with: the catalog's own, else the English.
        var objectNames = messages.filter { $0.kind == .objectName }.map { message in
            entries[message.lookupKey].flatMap { $0.isFuzzy ? nil : $0.strings.first }.flatMap { $0.isEmpty ? nil : $0 } ?? message.english
        }
        if objectNames.isEmpty { objectNames = ["item"] }

        for message in messages {
            guard let entry = entries[message.lookupKey] else {
                report(message.context, message.english, "has no translation")
                continue
            }
            let expectedForms = message.englishPlural == nil ? 1 : catalog.pluralCount ?? 0
            if message.englishPlural != nil, catalog.pluralCount == nil {
                report(message.context, message.english, "counts, but the header has no Plural-Forms")
            }
            if entry.idPlural != message.englishPlural {
                report(message.context, message.english, "has msgid_plural \"\(entry.idPlural ?? "")\", not \"\(message.englishPlural ?? "")\" (run make pot)")
            }
            if entry.strings.isEmpty || entry.strings.contains(where: \.isEmpty) {
                report(message.context, message.english, "has no translation")
                continue
            }
            if entry.isFuzzy { report(message.context, message.english, "is marked fuzzy: its translation is not used") }
            if entry.strings.count != expectedForms {
                report(message.context, message.english, "has \(entry.strings.count) forms, not \(expectedForms)")
            }
            let english = Set(CopyMessage.placeholders(in: message.english) + CopyMessage.placeholders(in: message.englishPlural ?? ""))
            for translation in entry.strings {
                let used = Set(CopyMessage.placeholders(in: translation))
                for name in used.subtracting(english).sorted() {
                    report(message.context, message.english, "uses {\(name)}, which the program does not fill in")
                }
                for name in english.subtracting(used).sorted() where !(name == "count" && message.englishPlural != nil) {
                    report(message.context, message.english, "leaves out {\(name)}")
                }
                if message.kind == .objectName {
                    for problem in problems(in: translation, isSentence: false) {
                        report(message.context, message.english, "\"\(translation)\" \(problem)")
                    }
                    continue
                }
                // Each problem once; the width once, with the object name that makes it widest.
                var found: [Problem] = []
                var widest: (width: Int, text: String)?
                for name in used.contains("object") ? objectNames : [""] {
                    var values = Dictionary(uniqueKeysWithValues: english.map { ($0, sampleValues[$0] ?? "example") })
                    values["object"] = name
                    let text = CopyMessage.fill(translation, values)
                    for problem in problems(in: text, isSentence: message.kind == .sentence) {
                        if case .tooLong(let width) = problem {
                            if width > widest?.width ?? 0 { widest = (width, text) }
                        } else if !found.contains(problem) {
                            found.append(problem)
                        }
                    }
                }
                for problem in found { report(message.context, message.english, "\"\(translation)\" \(problem)") }
                if let widest { report(message.context, message.english, "\"\(widest.text)\" \(Problem.tooLong(widest.width))") }
            }
        }
        return findings
    }
}
