import NDEF
import NDEFReport
import NFCDispatch
import Testing

/// Which registration an object goes to, and who may change the registry.
@Suite struct HandlerRegistryTests {
    @Test func theMostSpecificFilterWinsWhateverTheOrder() throws {
        let object = try report(Records.uri("https://example.com/posters/summer"), Records.media("image/png"),
                                Records.external("example.com:ticket"), Records.app("com.example.concerts"))
        let ranked: [(app: String, filters: [HandlerFilter])] = [
            ("Package", [try .androidPackage("com.example.concerts")]),
            ("External", [try .externalType("example.com:ticket")]),
            ("LongPrefix", [try .uri(scheme: "https", host: "example.com", pathPrefix: "/posters/summer")]),
            ("Prefix", [try .uri(scheme: "https", host: "example.com", pathPrefix: "/posters")]),
            ("Host", [try .uri(scheme: "https", host: "example.com")]),
            ("Images", [try .mediaType("image/*")]),
            ("Scheme", [try .uri(scheme: "https")]),
        ]
        // Registered least specific first and most specific first: the same winner each time,
        // and removing the winner hands the object to the next in rank.
        for entries in [ranked, ranked.reversed()] {
            var (registry, ids) = try makeRegistry(entries)
            var expected = ranked.map(\.app)
            while let first = expected.first {
                #expect(winner(registry, object) == first)
                let index = entries.firstIndex { $0.app == first }!
                try registry.unregister(ids[index], by: ":1.1")
                expected.removeFirst()
            }
            #expect(registry.match(object) == nil)
        }
    }

    @Test func exactMediaTypeAndExternalTypeTieSoTheNewestWins() throws {
        let object = try report(Records.contact("Ann"), Records.external("example.com:ticket"))
        let (older, _) = try makeRegistry([("Contacts", [try .mediaType("text/vcard")]), ("Tickets", [try .externalType("example.com:ticket")])])
        #expect(winner(older, object) == "Tickets")
        let (newer, _) = try makeRegistry([("Tickets", [try .externalType("example.com:ticket")]), ("Contacts", [try .mediaType("text/vcard")])])
        #expect(winner(newer, object) == "Contacts")
    }

    @Test func equalFiltersGoToTheMostRecentRegistration() throws {
        let object = try report(Records.uri("https://example.com/a"))
        let filter = try HandlerFilter.uri(scheme: "https", host: "example.com")
        var (registry, ids) = try makeRegistry([("First", [filter]), ("Second", [filter]), ("Third", [filter])])
        #expect(winner(registry, object) == "Third")
        try registry.unregister(ids[2], by: ":1.1")
        #expect(winner(registry, object) == "Second")
        let again = try registry.register(HandlerRequest(appName: "First", filters: [filter]), owner: ":1.9", handlerPath: "/a")
        #expect(registry.match(object)?.app.registration?.id == again)
    }

    @Test func theMatchNamesTheFilterAndTheRecord() throws {
        let object = try report(Records.text("Concert"), Records.poster("https://example.com/p", title: "Summer"), Records.media("image/png"))
        let images = try HandlerFilter.mediaType("image/png")
        let (registry, ids) = try makeRegistry([("Viewer", [try .uri(scheme: "mailto"), images])])
        let match = try #require(registry.match(object))
        #expect(match.app.registration?.id == ids[0])
        #expect(match.filter == images)
        #expect(match.recordIndex == 2)
        #expect(registry.match(try report(Records.text("x"))) == nil)
        // A smart poster's link is its record's link.
        let (links, _) = try makeRegistry([("Browser", [try .uri(scheme: "https")])])
        #expect(links.match(object)?.recordIndex == 1)
    }

    @Test func recordsThatFailedToDecodeMatchNothing() throws {
        // A vCard that is not UTF-8 is reported with an error and no kind.
        let broken = NDEFRecord(tnf: .media, type: "text/vcard", payload: [0xFF, 0xFE])
        let object = try MessageReport().report(NDEFMessage(decoding: NDEFMessage(broken).encoded()))
        #expect(object["records"]?.arrayValue?.first?["error"] != nil)
        let (registry, _) = try makeRegistry([("Contacts", [try .mediaType("text/vcard")])])
        #expect(registry.match(object) == nil)
    }

    @Test func registrationNumbersIncreaseAndAreNeverReused() throws {
        var registry = HandlerRegistry()
        let request = try HandlerRequest(appName: "App", filters: [try .uri(scheme: "https")])
        let first = try registry.register(request, owner: ":1.1", handlerPath: "/a")
        let second = try registry.register(request, owner: ":1.1", handlerPath: "/a")
        #expect((first, second) == (1, 2))
        try registry.unregister(second, by: ":1.1")
        registry.removeAll(owner: ":1.1")
        #expect(try registry.register(request, owner: ":1.1", handlerPath: "/a") == 3)
        #expect(registry.registrations.map(\.id) == [3])
    }

    @Test func onlyTheOwnerMayUnregister() throws {
        var registry = HandlerRegistry()
        let request = try HandlerRequest(appName: "App", filters: [try .uri(scheme: "https")])
        let id = try registry.register(request, owner: ":1.1", handlerPath: "/a")
        #expect(throws: UnregistrationError.notOwner(id)) { try registry.unregister(id, by: ":1.2") }
        #expect(registry.registration(id) != nil)
        #expect(throws: UnregistrationError.unknownRegistration(99)) { try registry.unregister(99, by: ":1.1") }
        let removed = try registry.unregister(id, by: ":1.1")
        #expect(removed.id == id && removed.owner == ":1.1" && removed.handlerPath == "/a")
        #expect(throws: UnregistrationError.unknownRegistration(id)) { try registry.unregister(id, by: ":1.1") }
        #expect(UnregistrationError.notOwner(7).description == "registration 7 belongs to another connection; only its owner may unregister it")
    }

    @Test func removeAllTakesOnlyThatOwnersRegistrations() throws {
        var registry = HandlerRegistry()
        let request = try HandlerRequest(appName: "App", filters: [try .uri(scheme: "https")])
        let a1 = try registry.register(request, owner: ":1.1", handlerPath: "/a")
        let b = try registry.register(request, owner: ":1.2", handlerPath: "/b")
        let a2 = try registry.register(request, owner: ":1.1", handlerPath: "/c")
        #expect(registry.removeAll(owner: ":1.1").map(\.id) == [a1, a2])
        #expect(registry.registrations.map(\.id) == [b])
        #expect(registry.removeAll(owner: ":1.1").isEmpty)
        #expect(registry.match(try report(Records.uri("https://example.com")))?.app.registration?.owner == ":1.2")
    }

    @Test func limitsPerOwnerAndOverall() throws {
        var registry = HandlerRegistry()
        let request = try HandlerRequest(appName: "App", filters: [try .uri(scheme: "https")])
        for _ in 0..<HandlerRegistry.maximumRegistrationsPerOwner { _ = try registry.register(request, owner: ":1.1", handlerPath: "/a") }
        #expect(throws: RegistrationError.tooManyRegistrations(maximum: 32)) { try registry.register(request, owner: ":1.1", handlerPath: "/a") }
        _ = try registry.register(request, owner: ":1.2", handlerPath: "/a")
        var count = 0
        while registry.registrations.count < HandlerRegistry.maximumRegistrations {
            _ = try registry.register(request, owner: ":3.\(count / 32)", handlerPath: "/a")
            count += 1
        }
        #expect(throws: RegistrationError.registryFull(maximum: 1024)) { try registry.register(request, owner: ":2.0", handlerPath: "/a") }
    }

    /// The attack on ListApps: connections registering the largest handlers they may. What
    /// one connection and all of them keep is bounded in bytes, so the listing stays a few MiB.
    @Test func registrationsAreBoundedInBytesPerConnectionAndOverall() throws {
        let long = String(repeating: "a", count: 1000)
        let filters = try (0..<64).map { n in try HandlerFilter.uri(scheme: "https", host: "h\(n).example", pathPrefix: "/" + long) }
        let request = try HandlerRequest(appName: String(repeating: "N", count: 64), appIcon: String(repeating: "i", count: 1024), filters: filters)
        #expect(request.weight > 64 * 1000)
        var registry = HandlerRegistry()
        var accepted = 0
        do {
            while true {
                _ = try registry.register(request, owner: ":1.1", handlerPath: "/a")
                accepted += 1
            }
        } catch {
            #expect(error == .tooLarge(maximum: HandlerRegistry.maximumBytesPerOwner))
        }
        #expect(accepted == HandlerRegistry.maximumBytesPerOwner / request.weight)
        var owner = 2
        var refusal: RegistrationError?
        while refusal == nil || refusal == .tooLarge(maximum: HandlerRegistry.maximumBytesPerOwner) {
            refusal = nil
            do { _ = try registry.register(request, owner: ":1.\(owner)", handlerPath: "/a") } catch { refusal = error; owner += 1 }
        }
        #expect(refusal == .registryFull(maximum: HandlerRegistry.maximumRegistrations))
        #expect(registry.registrations.reduce(0) { $0 + $1.request.weight } <= HandlerRegistry.maximumBytes)
    }

    @Test func ownerAndHandlerPathAreChecked() throws {
        var registry = HandlerRegistry()
        let request = try HandlerRequest(appName: "App", filters: [try .uri(scheme: "https")])
        #expect(throws: RegistrationError.emptyOwner) { try registry.register(request, owner: "", handlerPath: "/a") }
        for path in ["", "a", "/a/", "//a", "/a-b", "/a/b c"] {
            #expect(throws: RegistrationError.invalidHandlerPath(path)) { try registry.register(request, owner: ":1.1", handlerPath: path) }
        }
        for path in ["/", "/org/example/App_1"] { _ = try registry.register(request, owner: ":1.1", handlerPath: path) }
    }

    @Test func aHostileObjectAgainstAFullRegistryStaysCheap() throws {
        // 2000 distinct links, media types and external types against 1024 registrations of 64 filters each.
        let records = (0..<2000).flatMap { n in
            [Records.uri("https://example.com/p\(n)"), Records.media("image/x\(n)"), Records.external("example.com:t\(n)")]
        }
        let object = try report(records)
        var registry = HandlerRegistry()
        let filters = try (0..<64).map { n -> HandlerFilter in
            switch n % 4 {
            case 0: try .uri(scheme: "https", host: "example\(n).com")
            case 1: try .mediaType("image/y\(n)")
            case 2: try .externalType("example.com:u\(n)")
            default: try .androidPackage("com.example.a\(n)")
            }
        }
        // As many as the registry keeps (its byte bound comes first for filters this long).
        var index = 0
        while (try? registry.register(HandlerRequest(appName: "App", filters: filters), owner: ":1.\(index / 32)", handlerPath: "/a")) != nil {
            index += 1
        }
        #expect(registry.registrations.count > 700)
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(registry.match(object) == nil) }
        #expect(elapsed < .seconds(5))
    }

    @Test func pathPrefixesWalkOnlyTheirSitesDistinctPaths() throws {
        // Path prefixes against a message of many distinct paths on their site: bounded by the
        // records considered, and repeated paths count once.
        let records = (0..<2000).map { Records.uri("https://example.com/p\($0 % 300)") }
        let object = try report(records)
        var registry = HandlerRegistry()
        let filters = try (0..<64).map { try HandlerFilter.uri(scheme: "https", host: "example.com", pathPrefix: "/q\($0)") }
        for index in 0..<HandlerRegistry.maximumRegistrationsPerOwner {
            _ = try registry.register(HandlerRequest(appName: "App\(index)", filters: filters), owner: ":1.1", handlerPath: "/a")
        }
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(registry.match(object) == nil) }
        #expect(elapsed < .seconds(5))
        // Records past the first 256 are not matched (/p299 first appears at record 299).
        _ = try registry.register(HandlerRequest(appName: "Late", filters: [try .uri(scheme: "https", host: "example.com", pathPrefix: "/p299")]),
                                  owner: ":1.2", handlerPath: "/a")
        #expect(registry.match(object) == nil)
        let early = try report(Records.uri("https://example.com/p0"), Records.uri("https://example.com/p299/x"))
        #expect(registry.match(early)?.app.appName == "Late")
        #expect(registry.match(early)?.recordIndex == 1)
    }
}
