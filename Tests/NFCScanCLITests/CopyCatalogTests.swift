import Foundation
@testable import NFCCopy
import Testing
import TestSupport

/// The gettext catalogs (po/): the template made from the message table, every language complete
/// and following ../shared/guidance/nfc.md, and the program reading what they say through libintl.
@Suite struct CopyCatalogTests {
    static func read(_ relative: String) throws -> POFile {
        try POFile(String(contentsOfFile: Repository.path(relative), encoding: .utf8))
    }

    static var linguas: [String] {
        get throws {
            try String(contentsOfFile: Repository.path("po/LINGUAS"), encoding: .utf8).split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
    }

    @Test func theTemplateListsEveryMessageInOrder() throws {
        let template = try Self.read("po/nfcscan.pot")
        let listed = template.entries.map { [$0.context ?? "", $0.id, $0.idPlural ?? "", $0.notes.joined(separator: " ")] }
        let messages = CopyMessage.all.map { [$0.context, $0.english, $0.englishPlural ?? "", $0.note] }
        #expect(listed == messages, "po/nfcscan.pot differs from CopyMessage.all: run make pot (and list a new message in CopyMessage.all)")
        #expect(Set(CopyMessage.all.map(\.lookupKey)).count == CopyMessage.all.count, "a msgctxt and msgid twice")
        for message in CopyMessage.all where message.englishPlural != nil {
            #expect(CopyMessage.placeholders(in: message.english).contains("count") || message.context == "holds", "\(message.context)")
        }
    }

    @Test func everyLanguageHasItsCatalog() throws {
        #expect(try Self.linguas == ScanCopy.Language.allCases.map(\.catalogName),
                "po/LINGUAS lists the catalogs, ScanCopy.Language the languages nfcscan chooses from: the same, in the same order")
    }

    /// A message missing from a catalog, or translated fuzzy, fails here: people would read English.
    @Test(arguments: ScanCopy.Language.allCases)
    func everyCatalogIsCompleteAndFollowsTheRules(language: ScanCopy.Language) throws {
        let catalog = try Self.read("po/\(language.catalogName).po")
        let findings = CopyRules.check(catalog)
        #expect(findings.isEmpty, "po/\(language.catalogName).po:\n\(findings.map(\.description).joined(separator: "\n"))")
        if language != .english {
            #expect(catalog.header["Language"] == language.catalogName)
        }
    }

    @Test func theEnglishCatalogIsTheMessagesThemselves() throws {
        let english = try Self.read("po/en.po")
        for entry in english.entries {
            let expected = entry.idPlural.map { [entry.id, $0] } ?? [entry.id]
            #expect(entry.strings == expected, "po/en.po \(entry.context ?? ""): change the English in Sources/NFCCopy/CopyMessages.swift, then make pot")
        }
        #expect(english.pluralCount == 2)
    }

    @Test func theCheckerFindsWhatATranslatorMissed() throws {
        var text = try String(contentsOfFile: Repository.path("po/zh_CN.po"), encoding: .utf8)
        let edits = [
            // No translation yet, and a fuzzy one (msgmerge marks a changed message so).
            ("msgstr \"无法读取{object}。请重试。\"", "msgstr \"\""),
            ("msgctxt \"readerFailed\"", "#, fuzzy\nmsgctxt \"readerFailed\""),
            // A placeholder dropped, one the program does not know, a forbidden word, too long.
            ("msgstr \"{object}中没有内容。\"", "msgstr \"物品中没有内容。\""),
            ("msgstr \"请连接读卡器以扫描{object}。\"", "msgstr \"请连接读卡器以扫描{objet}。\""),
            ("msgstr \"将{object}靠近读卡器以了解更多信息。\"", "msgstr \"请轻触{object}标签以了解更多信息。\""),
            ("msgstr \"后台扫描已开启。\"", "msgstr \"后台扫描已开启，读卡器会在屏幕亮起时一直寻找附近的物品并显示通知。\""),
        ]
        for (old, new) in edits {
            #expect(text.contains(old), "\(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        // A message the catalog lacks altogether, and an entry for no message.
        text = text.replacingOccurrences(of: "msgctxt \"halfWritten\"", with: "msgctxt \"halfWrittenGone\"")
        let findings = CopyRules.check(try POFile(text)).map { "\($0.context): \($0.problem)" }
        let expected = [
            "readFailed: has no translation",
            "readerFailed: is marked fuzzy: its translation is not used",
            "empty: leaves out {object}",
            "connectReader: uses {objet}, which the program does not fill in",
            "connectReader: leaves out {object}",
            "halfWritten: has no translation",
            "halfWrittenGone: is no message of nfcscan's (run make pot to merge the catalog)",
        ]
        for problem in expected { #expect(findings.contains(problem), "\(problem) not in \(findings)") }
        #expect(findings.contains { $0.hasPrefix("firstPrompt:") && $0.contains("uses the word \"轻触\"") })
        #expect(findings.contains { $0.hasPrefix("firstPrompt:") && $0.contains("uses the word \"标签\"") })
        #expect(findings.contains { $0.hasPrefix("backgroundOn:") && $0.contains("columns wide") })
        #expect(findings.count == expected.count + 3, "\(findings)")
    }

    /// What the program reads through libintl is what the catalog says (a stale .mo fails here).
    @Test(arguments: ScanCopy.Language.allCases.filter { $0 != .english })
    func theProgramReadsWhatTheCatalogSays(language: ScanCopy.Language) throws {
        let words = CopyTranslations.of(language)
        let file = try #require(words.file, "no \(language.catalogName)/LC_MESSAGES/nfcscan.mo in \(Gettext.searchPath): run make mo")
        let catalog = try Self.read("po/\(language.catalogName).po")
        for message in CopyMessage.all {
            let entry = try #require(catalog.entry(context: message.context, id: message.english))
            if message.englishPlural == nil {
                #expect(words.text(message) == entry.strings[0], "\(file): \(message.context): run make mo")
            } else {
                for count in [0, 1, 2, 5, 11, 21, 101, 1_000_001] {
                    let said = words.text(message, count: count, ["count": "{count}", "used": "{used}", "capacity": "{capacity}"])
                    #expect(entry.strings.contains(said), "\(file): \(message.context) for \(count): \(said)")
                    if catalog.pluralCount == 1 { #expect(said == entry.strings[0]) }
                }
            }
        }
    }

    /// A load sets the thread's locale and LANGUAGE only while it runs (Gettext says why).
    @Test func readingACatalogLeavesTheProcessAsItWas() throws {
        let found = try #require(Gettext.catalogFile("zh_CN"), "run make mo")
        let language = getenv("LANGUAGE").map { String(cString: $0) }
        let locale = uselocale(nil)
        let words = try #require(Gettext.translations(of: [.firstPrompt, .brokerWaiting], catalog: "zh_CN", in: found.directory))
        #expect(words.strings[CopyMessage.firstPrompt.lookupKey] == "将{object}靠近读卡器以了解更多信息。")
        #expect(words.plurals[CopyMessage.brokerWaiting.lookupKey]?.count == Gettext.pluralTableSize)
        #expect(getenv("LANGUAGE").map { String(cString: $0) } == language)
        #expect(uselocale(nil) == locale)
        // Another language right after: glibc keeps what it looked up by message and locale name
        // (C.UTF-8 both times), so without being told to forget it would answer in Chinese again.
        let english = try #require(Gettext.catalogFile("en"))
        let again = try #require(Gettext.translations(of: [.firstPrompt], catalog: "en", in: english.directory))
        #expect(again.strings[CopyMessage.firstPrompt.lookupKey] == CopyMessage.firstPrompt.english)
    }

    @Test func anObjectsNameIsTranslatedWhenTheCatalogKnowsIt() {
        #expect(ScanCopy.catalog(for: .simplifiedChinese, object: "Poster").firstPrompt == "将海报靠近读卡器以了解更多信息。")
        #expect(ScanCopy.catalog(for: .simplifiedChinese, object: "product label").laterPrompt == "现在将另一个商品贴纸靠近读卡器。")
        #expect(ScanCopy.catalog(for: .simplifiedChinese, object: "门票").reading == "正在读取门票，请保持不动。")
        #expect(ScanCopy.catalog(object: "Poster").firstPrompt == "Hold the Poster near the reader to learn more.")
        #expect(ScanCopy.catalog(object: "object").laterPrompt == "Now hold another object near the reader.")
    }

    @Test func countsTakeTheLanguagesPluralForms() {
        let english = ScanCopy.catalog(), chinese = ScanCopy.catalog(for: .simplifiedChinese)
        #expect(english.brokerWaiting(1) == "1 scan is waiting to be sent.")
        #expect(english.brokerWaiting(0) == "0 scans are waiting to be sent.")
        #expect(english.brokerDropped(10_000) == "10000 scans were lost: there was no room to keep them.")
        #expect(chinese.brokerWaiting(1) == "1次扫描等待发送。")
        #expect(chinese.brokerDropped(10_000) == "没有空间保存，已丢失10000次扫描。")
        #expect(ScanCopy.writeCatalog().holds(used: 45, capacity: 137) == "It holds 45 of 137 bytes.")
        #expect(ScanCopy.writeCatalog().holds(used: 0, capacity: 1) == "It holds 0 of 1 byte.")
        #expect(ScanCopy.writeCatalog(for: .simplifiedChinese).holds(used: 45, capacity: 137) == "已用 45 字节，共 137 字节。")
        for count in [0, 1, 99, 100, 199, 200, 201, 12_345] {
            #expect(Gettext.pluralIndex(count) % 100 == count % 100 && Gettext.pluralIndex(count) < Gettext.pluralTableSize)
            #expect(count >= 100 ? Gettext.pluralIndex(count) >= 100 : Gettext.pluralIndex(count) == count)
        }
    }

    /// Values read from an object are filled in once, never read as a template.
    @Test func placeholdersAreFilledInOnePass() {
        #expect(CopyMessage.fill("Open the link in {app}?", ["app": "{object} %s %@ {app}"]) == "Open the link in {object} %s %@ {app}?")
        #expect(CopyMessage.fill("{a}{b} {c} { {", ["a": "1", "b": "2"]) == "12 {c} { {")
        #expect(CopyMessage.placeholders(in: "The {object} holds {value}. {object} {not one} {}") == ["object", "value"])
        #expect(ScanCopy.catalog(object: "{app}").handlerFailed(app: "{object}") == "The {app} couldn't be sent to {object}. Try again.")
    }

    @Test func catalogsAreSearchedForInOrder() {
        #expect(Gettext.searchPath(override: "/opt/locale", executable: "/usr/local/bin/nfcscan")
                == ["/opt/locale", "/usr/local/share/locale", "/usr/share/locale"])
        #expect(Gettext.searchPath(override: nil, executable: "/src/nfcscan/.build/x86_64-unknown-linux-gnu/debug/nfcscan")
                == ["/src/nfcscan/.build/x86_64-unknown-linux-gnu/share/locale", "/src/nfcscan/.build/share/locale", "/usr/share/locale"])
        // Only an absolute directory: a relative one would depend on where nfcscan was started.
        #expect(Gettext.searchPath(override: "po", executable: nil) == ["/usr/share/locale"])
        #expect(Gettext.searchPath(override: "", executable: "nfcscan") == ["/usr/share/locale"])
        #expect(Gettext.catalogFile("xx_XX") == nil)
    }
}
