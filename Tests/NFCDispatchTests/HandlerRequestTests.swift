import NFCDispatch
import Testing

/// What `RegisterHandler` refuses, and the messages its developer reads.
@Suite struct HandlerRequestTests {
    let https = try! HandlerFilter.uri(scheme: "https")

    @Test func namesAreTrimmedAndEmptyOptionalsMeanNone() throws {
        let request = try HandlerRequest(appName: "  Concerts\n", appIcon: "", desktopEntry: "org.example.Concerts.desktop", filters: [https])
        #expect(request.appName == "Concerts")
        #expect(request.appIcon == nil)
        #expect(request.desktopEntry == "org.example.Concerts")
        #expect(try HandlerRequest(appName: "A", desktopEntry: "", filters: [https]).desktopEntry == nil)
    }

    @Test func appNameAndIconAreChecked() {
        #expect(throws: RegistrationError.emptyAppName) { try HandlerRequest(appName: " \t", filters: [https]) }
        #expect(throws: RegistrationError.invalidCharacters(option: "app-name")) { try HandlerRequest(appName: "Evil\u{202E}ppA", filters: [https]) }
        #expect(throws: RegistrationError.invalidCharacters(option: "app-name")) { try HandlerRequest(appName: "A\u{1B}[2JB", filters: [https]) }
        #expect(throws: RegistrationError.tooLong(option: "app-name", length: 65, maximum: 64)) {
            try HandlerRequest(appName: String(repeating: "a", count: 65), filters: [https])
        }
        #expect(throws: RegistrationError.invalidCharacters(option: "app-icon")) { try HandlerRequest(appName: "A", appIcon: "x\ny", filters: [https]) }
        #expect(throws: RegistrationError.tooLong(option: "app-icon", length: 1025, maximum: 1024)) {
            try HandlerRequest(appName: "A", appIcon: String(repeating: "i", count: 1025), filters: [https])
        }
    }

    @Test func desktopEntryIsADesktopFileID() {
        for entry in ["org/example", "org example", ".desktop", "org.example.App;rm"] {
            #expect(throws: RegistrationError.invalidDesktopEntry(entry)) { try HandlerRequest(appName: "A", desktopEntry: entry, filters: [https]) }
        }
        #expect(throws: RegistrationError.invalidCharacters(option: "desktop-entry")) {
            try HandlerRequest(appName: "A", desktopEntry: "a\u{0}b", filters: [https])
        }
    }

    @Test func filtersAreRequiredAndBounded() throws {
        #expect(throws: RegistrationError.noFilters) { try HandlerRequest(appName: "A", filters: []) }
        #expect(throws: RegistrationError.noFilters) { try HandlerRequest(appName: "A", filterFields: []) }
        #expect(throws: RegistrationError.tooManyFilters(count: 65, maximum: 64)) {
            try HandlerRequest(appName: "A", filters: Array(repeating: https, count: 65))
        }
        // Counted before any is read.
        #expect(throws: RegistrationError.tooManyFilters(count: 100_000, maximum: 64)) {
            try HandlerRequest(appName: "A", filterFields: Array(repeating: ["bogus": "x"], count: 100_000))
        }
        #expect(try HandlerRequest(appName: "A", filters: Array(repeating: https, count: 64)).filters.count == 64)
    }

    @Test func aRefusedFilterIsNamedByItsIndex() throws {
        let fields: [[String: String]] = [["uri-scheme": "https"], ["media-type": "image/*"], ["media-type": "text"]]
        #expect(throws: RegistrationError.invalidFilter(index: 2, .invalidMediaType("text"))) {
            try HandlerRequest(appName: "A", filterFields: fields)
        }
        #expect(RegistrationError.invalidFilter(index: 2, .invalidMediaType("text")).description
                == #"filter 2: media-type "text" must be type/subtype or type/* without parameters (e.g. "text/vcard" or "image/*")"#)
        let request = try HandlerRequest(appName: "A", filterFields: Array(fields.prefix(2)))
        #expect(request.filters == [try .uri(scheme: "https"), try .mediaType("image/*")])
    }

    @Test func everyMessageIsOneReadableLine() throws {
        let errors: [RegistrationError] = [
            .emptyAppName, .invalidCharacters(option: "app-name"), .tooLong(option: "app-icon", length: 2000, maximum: 1024),
            .invalidDesktopEntry("a\u{1B}b"), .noFilters, .tooManyFilters(count: 65, maximum: 64),
            .invalidFilter(index: 0, .noKind), .invalidHandlerPath("x\n"), .emptyOwner, .tooManyRegistrations(maximum: 32),
            .registryFull(maximum: 1024), .registrationNumbersExhausted,
        ]
        for error in errors {
            #expect(!error.description.isEmpty)
            #expect(!error.description.unicodeScalars.contains { $0.properties.isWhitespace && $0 != " " })
            #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        }
    }
}
