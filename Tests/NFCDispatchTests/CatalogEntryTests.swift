import NFCCopy
import Testing

/// The daemon's notification copy is in the catalog and follows ../shared/guidance/nfc.md.
@Suite struct CatalogEntryTests {
    static let notificationKeys = ["notificationSender", "notificationOpenLink", "notificationOpenApp", "actionOpen",
                                   "actionOpenInBrowser", "handlerFailed", "browserFailed", "notificationHolds.incompleteLink"]
        + OfferedContent.allCases.flatMap { ["notificationOpen.\($0)", "notificationHolds.\($0)"] }

    @Test(arguments: [nil, "poster", "product label"] as [String?])
    func everyNotificationEntryFollowsTheRules(object: String?) {
        for language in ScanCopy.Language.allCases {
            let entries = ScanCopy.entries(of: ScanCopy.catalog(for: language, object: object))
            for key in Self.notificationKeys {
                guard let entry = entries.first(where: { $0.key == key }) else {
                    Issue.record("\(language): \(key) is not in ScanCopy.entries")
                    continue
                }
                let problems = CopyRules.problems(in: entry.text, isSentence: entry.isSentence)
                #expect(problems.isEmpty, "\(language) \(key): \"\(entry.text)\" \(problems)")
            }
        }
    }

    @Test func summariesAreQuestionsAndButtonsOneOrTwoWordsLong() {
        let copy = ScanCopy.catalog()
        #expect(copy.notificationOpenLink("https://example.com/poster") == "Open https://example.com/poster?")
        for content in OfferedContent.allCases { #expect(copy.notificationOpen(content, in: "Maps").hasSuffix(" in Maps?")) }
        #expect(copy.actionOpen == "Open")
        #expect(copy.actionOpenInBrowser == "Open in Browser")
        #expect(copy.handlerFailed(app: "Contacts") == "The item couldn't be sent to Contacts. Try again.")
    }
}
