import NFCCopy
import Testing

/// Temporary: the gettext catalogs say exactly what the Swift catalogs said.
@Suite struct CatalogEquivalenceTests {
    static let objects: [String?] = [nil, "", "poster", "Poster", "POSTER", "badge", "toy", "product label", "label", "sticker",
                                     "card", "ticket", "item", "object", "book", "门票", "vintage stage poster", "{app}"]

    func old(_ language: ScanCopy.Language, _ object: String?) -> any ScanCopyCatalog & WriteCopyCatalog {
        let name = object.flatMap { $0.isEmpty ? nil : $0 }
        switch language {
        case .english: return EnglishScanCopy(object: name)
        case .simplifiedChinese: return SimplifiedChineseScanCopy(object: name)
        }
    }

    @Test(arguments: ScanCopy.Language.allCases)
    func everyStringIsTheSame(language: ScanCopy.Language) {
        var compared = 0
        for object in Self.objects {
            let before = old(language, object)
            let after = CatalogCopy(language: language, object: object)
            for value in ["example", "{object}", "Ann {name} Smith", ""] {
                let a = ScanCopy.entries(of: before), b = ScanCopy.entries(of: after)
                #expect(a.map(\.key) == b.map(\.key))
                for (x, y) in zip(a, b) { #expect(x.text == y.text, "\(language) \(object ?? "nil") \(x.key)"); compared += 1 }
                let c = ScanCopy.writeEntries(of: before), d = ScanCopy.writeEntries(of: after)
                for (x, y) in zip(c, d) { #expect(x.text == y.text, "\(language) \(object ?? "nil") \(x.key)"); compared += 1 }
                for content in OfferedContent.allCases {
                    #expect(before.notificationOpen(content, in: value) == after.notificationOpen(content, in: value))
                    #expect(before.notificationHolds(content, value) == after.notificationHolds(content, value))
                    compared += 2
                }
                for (_, offer) in DefaultAppOffer.samples(value) {
                    #expect(before.notificationDefault(offer) == after.notificationDefault(offer))
                    #expect(before.action(offer) == after.action(offer))
                    compared += 2
                }
                let pairs: [(String, String)] = [
                    (before.link(value), after.link(value)), (before.phoneNumber(value), after.phoneNumber(value)),
                    (before.emailAddress(value), after.emailAddress(value)), (before.text(value), after.text(value)),
                    (before.title(value), after.title(value)), (before.wifiNetwork(value), after.wifiNetwork(value)),
                    (before.contact(value), after.contact(value)), (before.app(value), after.app(value)),
                    (before.bluetoothDevice(value), after.bluetoothDevice(value)),
                    (before.notificationOpenLink(value), after.notificationOpenLink(value)),
                    (before.notificationOpenApp(value), after.notificationOpenApp(value)),
                    (before.handlerFailed(app: value), after.handlerFailed(app: value)),
                    (before.networkFailed(value), after.networkFailed(value)),
                    (before.brokerConnected(station: value), after.brokerConnected(station: value)),
                ]
                for (x, y) in pairs { #expect(x == y); compared += 1 }
            }
            for count in [0, 1, 2, 3, 5, 11, 21, 99, 100, 101, 199, 200, 201, 1_001, 10_000, 123_456_789] {
                #expect(before.brokerWaiting(count) == after.brokerWaiting(count), "\(count)")
                #expect(before.brokerDropped(count) == after.brokerDropped(count), "\(count)")
                #expect(before.secondsLeft(count) == after.secondsLeft(count))
                for used in [0, 45] where count != 1 {
                    #expect(before.holds(used: used, capacity: count) == after.holds(used: used, capacity: count))
                }
                compared += 4
            }
            for ending in WriteEnding.allCases {
                for action in WriteAction.allCases { #expect(before.writeEnded(ending, action) == after.writeEnded(ending, action)); compared += 1 }
            }
            for action in WriteAction.allCases { #expect(before.busy(action) == after.busy(action)); compared += 1 }
        }
        print("CatalogEquivalenceTests: \(language): \(compared) strings compared")
    }
}
