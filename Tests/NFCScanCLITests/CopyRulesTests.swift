import NDEF
import NDEFReport
import NFCCopy
import NFCScanKit
import Testing

/// Every string a person reads follows ../shared/guidance/nfc.md.
@Suite struct CopyRulesTests {
    static let objects: [String?] = [nil, "poster", "badge", "toy", "product label"]

    /// Each catalog's entries (reading, writing, the sheet) in every language, for `object`.
    typealias Entries = @Sendable (ScanCopy.Language, String?) -> [(key: String, text: String, isSentence: Bool)]
    static let catalogs: [(name: String, entries: Entries)] = [
        ("scan", { ScanCopy.entries(of: ScanCopy.catalog(for: $0, object: $1)) }),
        ("write", { ScanCopy.writeEntries(of: ScanCopy.writeCatalog(for: $0, object: $1)) }),
        ("sheet", { ScanCopy.sheetEntries(of: ScanCopy.sheetCatalog(for: $0, object: $1)) }),
    ]

    @Test(arguments: objects)
    func everyEntryFollowsTheRules(object: String?) {
        for catalog in Self.catalogs {
            for language in ScanCopy.Language.allCases {
                for entry in catalog.entries(language, object) {
                    let problems = CopyRules.problems(in: entry.text, isSentence: entry.isSentence)
                    #expect(problems.isEmpty, "\(catalog.name) \(language) \(entry.key) for \(object ?? "no object"): \"\(entry.text)\" \(problems)")
                }
            }
        }
    }

    @Test func sheetQuestionsNameTheAppAndTheObject() {
        let poster = ScanCopy.sheetCatalog(object: "poster")
        #expect(poster.askPermission(app: "Posters") == "Allow Posters to use items you hold near the reader?")
        #expect(poster.consent(.save(.link), app: "Posters") == "Posters wants to save a link to the poster.")
        #expect(poster.lockDetail(.lock) == "This can't be undone.")
        #expect(poster.actionConfirm(.lock, lock: true) == "Lock")
        let chinese = ScanCopy.sheetCatalog(for: .simplifiedChinese, object: "poster")
        #expect(chinese.consent(.save(.link), app: "Posters") == "“Posters”想要将链接保存到海报。")
    }

    @Test func writePromptsNameTheObjectAndWhatIsSaved() {
        let poster = ScanCopy.writeCatalog(object: "poster")
        #expect(poster.writePrompt(.save(.link)) == "Hold the poster near the reader to save the link.")
        #expect(poster.writeEnded(.done, .save(.link)) == "Saved. You can take the poster away.")
        let chinese = ScanCopy.writeCatalog(for: .simplifiedChinese, object: "poster")
        #expect(chinese.writePrompt(.save(.link)) == "将海报靠近读卡器以保存链接。")
        #expect(chinese.writeEnded(.done, .save(.link)) == "已保存。可以将海报移开了。")
    }

    @Test func promptsFollowTheGuidelinesPattern() {
        let poster = ScanCopy.catalog(object: "poster")
        #expect(poster.firstPrompt == "Hold the poster near the reader to learn more.")
        #expect(poster.laterPrompt == "Now hold another poster near the reader.")
        let generic = ScanCopy.catalog()
        #expect(generic.firstPrompt == "Hold the item near the reader.")
        #expect(generic.laterPrompt == "Now hold another item near the reader.")
        #expect(ScanCopy.catalog(object: "").firstPrompt == generic.firstPrompt)
    }

    @Test func chinesePromptsFollowTheGuidelinesPattern() {
        let poster = ScanCopy.catalog(for: .simplifiedChinese, object: "poster")
        #expect(poster.firstPrompt == "将海报靠近读卡器以了解更多信息。")
        #expect(poster.laterPrompt == "现在将另一个海报靠近读卡器。")
        let named = ScanCopy.catalog(for: .simplifiedChinese, object: "门票")
        #expect(named.firstPrompt == "将门票靠近读卡器以了解更多信息。")
        #expect(ScanCopy.catalog(for: .simplifiedChinese).laterPrompt == "现在将另一个物品靠近读卡器。")
    }

    @Test func theChineseCheckerCatchesWhatTheGuidelinesForbid() {
        #expect(CopyRules.problems(in: "请轻触NFC标签。") == [.bannedWord("nfc"), .bannedWord("轻触"), .bannedWord("标签")])
        #expect(CopyRules.problems(in: "使用近场通信扫描海报。") == [.bannedWord("近场通信")])
        #expect(CopyRules.problems(in: "将海报靠近读卡器") == [.noEndingPunctuation])
        #expect(CopyRules.problems(in: String(repeating: "将海报靠近读卡器。", count: 4)) == [.tooLong(72)])
        #expect(CopyRules.problems(in: "将海报靠近读卡器以了解更多信息。").isEmpty)
    }

    @Test(arguments: [
        (["LANG": "zh_CN.UTF-8"], ScanCopy.Language.simplifiedChinese),
        (["LANG": "zh_SG.UTF-8"], .simplifiedChinese),
        (["LANG": "zh_TW.UTF-8"], .english),
        (["LANG": "de_DE.UTF-8", "LANGUAGE": "zh_CN:en"], .simplifiedChinese),
        (["LANG": "C", "LANGUAGE": "zh_CN"], .english),
        (["LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"], .english),
        (["LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_GB.UTF-8"], .simplifiedChinese),
        (["LANG": "zh-Hans"], .simplifiedChinese),
        ([:], .english),
    ])
    func theLanguageComesFromTheLocale(environment: [String: String], expected: ScanCopy.Language) {
        #expect(ScanCopy.Language.preferred(environment: environment) == expected)
    }

    @Test func theCheckerCatchesWhatTheGuidelinesForbid() {
        #expect(CopyRules.problems(in: "Tap your phone to the NFC tag.").contains(.bannedWord("tap")))
        #expect(CopyRules.problems(in: "Tap your phone to the NFC tag.").contains(.bannedWord("nfc")))
        #expect(CopyRules.problems(in: "Tap your phone to the NFC tag.").contains(.bannedWord("tag")))
        #expect(CopyRules.problems(in: "Touch the poster.") == [.bannedWord("touch")])
        #expect(CopyRules.problems(in: "Reading the NDEF message from the RFID UID.").count == 3)
        #expect(CopyRules.problems(in: "The reader session ended.") == [.bannedWord("reader session")])
        #expect(CopyRules.problems(in: "Hold the poster near the reader") == [.noEndingPunctuation])
        #expect(CopyRules.problems(in: "hold the poster near the reader.") == [.noCapital])
        #expect(CopyRules.problems(in: String(repeating: "Hold it near. ", count: 6)).contains(.tooLong(83)))
        #expect(CopyRules.problems(in: "  ") == [.empty])
        // Whole words only: "vintage" and "stage" are not "tag"; labels need no full stop.
        #expect(CopyRules.problems(in: "Hold the vintage stage poster near the reader.").isEmpty)
        #expect(CopyRules.problems(in: "Link: example.com", isSentence: false).isEmpty)
    }
}

/// What a person is told an object holds.
@Suite struct ContentDescriptionTests {
    static func lines(_ records: NDEFRecord..., object: String? = "poster", hyperlinks: Bool = false) throws -> [String] {
        let report = MessageReport().report(NDEFMessage(records: records))
        return ContentDescription.lines(for: report, copy: ScanCopy.catalog(object: object), hyperlinks: hyperlinks)
    }

    @Test func linksTextsContactsAndNetworksInPlainWords() throws {
        #expect(try Self.lines(URIRecord(uri: "https://www.example.com/poster").record()) == ["Link: https://www.example.com/poster"])
        #expect(try Self.lines(URIRecord(uri: "https://example.com/").record()) == ["Link: https://example.com/"])
        #expect(try Self.lines(URIRecord(uri: "tel:+15551234").record()) == ["Phone number: +15551234"])
        #expect(try Self.lines(URIRecord(uri: "mailto:a@example.com?subject=x").record()) == ["Email address: a@example.com"])
        #expect(try Self.lines(TextRecord(text: "Summer concert").record()) == ["Text: Summer concert"])
        let card = NDEFRecord(tnf: .media, type: Array("text/vcard".utf8),
                              payload: Array("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Jane Doe\r\nEND:VCARD\r\n".utf8))
        #expect(try Self.lines(card) == ["Contact: Jane Doe"])
        #expect(try Self.lines(NDEFRecord(tnf: .external, type: Array("android.com:pkg".utf8), payload: Array("com.example.app".utf8)))
                == ["App: com.example.app"])
        #expect(try Self.lines() == ["The poster holds nothing."])
    }

    @Test func hostileTextIsNeutralised() throws {
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{202E}moc.elgoog"
        let lines = try Self.lines(TextRecord(text: hostile).record(), URIRecord(uri: "https://evil.example/\u{202E}gpj.exe").record())
        for line in lines {
            #expect(!line.unicodeScalars.contains { DisplayText.isUnsafe($0) }, "\(line)")
        }
        #expect(lines[0] == "Text: \\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{202e}moc.elgoog")
        #expect(lines[1] == "Link: https://evil.example/\\u{202e}gpj.exe")
    }

    /// A working link, an unprotected one and one nothing opens read differently (issue 23: a
    /// link saved without https:// read back looking like a working one).
    @Test func aLinkIsShownWithItsSchemeAndOneWithoutIsCalledIncomplete() throws {
        #expect(try Self.lines(URIRecord(uri: "https://example.com/menu").record()) == ["Link: https://example.com/menu"])
        #expect(try Self.lines(URIRecord(uri: "http://example.com/menu").record()) == ["Link: http://example.com/menu"])
        #expect(try Self.lines(URIRecord(uri: "example.com/menu").record()) == ["Incomplete link (it won't open): example.com/menu"])
        // User information first would name the wrong site: the host it goes to is shown.
        #expect(try Self.lines(URIRecord(uri: "https://bank.example@evil.example/login").record()) == ["Link: https://evil.example/login"])
        #expect(LinkText("https://example.com/a@b") == .whole("https://example.com/a@b"))
    }

    /// On a terminal that shows them, a web link is clickable (OSC 8); nothing from the object
    /// gets into the escape sequence, and only http(s) links are made clickable.
    @Test func aWebLinkIsAClickableLinkOnlyWhenAskedAndOnlyWhenSafe() throws {
        #expect(try Self.lines(URIRecord(uri: "https://example.com/menu").record(), hyperlinks: true)
                == ["Link: \u{1B}]8;;https://example.com/menu\u{1B}\\https://example.com/menu\u{1B}]8;;\u{1B}\\"])
        // A link carrying an escape, a BEL or a bidirectional override is shown escaped, never linked.
        for hostile in ["https://evil.example/\u{1B}\\x", "https://evil.example/\u{07}", "https://evil.example/\u{202E}gpj.exe"] {
            let line = try #require(try Self.lines(URIRecord(uri: hostile).record(), hyperlinks: true).first)
            #expect(!line.contains("\u{1B}"), "\(line)")
            #expect(!line.unicodeScalars.contains { DisplayText.isUnsafe($0) }, "\(line)")
        }
        #expect(try Self.lines(URIRecord(uri: "javascript:alert(1)").record(), hyperlinks: true) == ["Link: javascript:alert(1)"])
    }
}
