import Authenticity
import DBusValues
import DesktopEntries
import NDEF
import NDEFReport
import NFCBusAPI
import NFCCopy
@testable import NFCDaemon
import NFCDispatch
import NFCObjects
import NFCReaders
@testable import NFCScanKit
import NFCTags
import Systemd
import Testing

/// nfcscand's decisions, in process: inputs in, effects out, no bus, no clock, no sleeps.
@Suite struct DaemonCoreTests {
    typealias Rig = CoreRig

    static func handler(_ name: String = "Posters", host: String = "example.com") throws -> HandlerRequest {
        try HandlerRequest(appName: name, filterFields: [["uri-scheme": "https", "uri-host": host]])
    }

    @Test func startingPublishesTheScannerAndOpensTheReaders() {
        var core = DaemonCore()
        let effects = core.handle(.started)
        #expect(effects.contains { if case .publish(let object) = $0 { object.path == ScannerAPI.path } else { false } })
        #expect(effects.contains(.startReading(generation: 1)))
        #expect(core.pausedReasons == [.noReader])
        _ = core.handle(.reading(generation: 1, .opened))
        #expect(core.pausedReasons == [.noReader], "opened with no reader: no-reader")
        var rig = Rig()
        #expect(rig.paused == [])
        #expect(rig.core.readers.count == 1)

        rig.send(.reading(generation: 1, .readerRemoved(rig.readerID, problem: "unplugged")))
        #expect(rig.paused == ["no-reader"])
        let token = Rig.Token()
        let again = rig.send(.reading(generation: 1, .readerAdded(ObjectIdentifier(token), name: "Second", backend: .libnfc)))
        #expect(again.contains(.observe(.reader(name: "Second"))), "observers hear of a reader before its first object")
    }

    /// The camera and rfkill answer from this machine at once: their first reports come before
    /// the readers open, so a camera in use at start pauses reading before any object is read.
    /// A source that never reports holds the readers back for the settle deadline only.
    @Test func theReadersOpenOnceTheLocalSourcesHaveSpoken() {
        var core = DaemonCore(configuration: .init(awaitedSources: [.camera, .rfkill]))
        let started = core.handle(.started)
        #expect(!started.contains(.startReading(generation: 1)))
        #expect(started.contains(.armTimer(.conditionsSettle, after: DaemonCore.settleDeadline)))
        #expect(core.pausedReasons == [.noReader], "not reading yet")
        #expect(!core.handle(.condition(.camera, holds: true)).contains(.startReading(generation: 1)))
        let rfkill = core.handle(.condition(.rfkill, holds: nil))
        #expect(rfkill.contains(.cancelTimer(.conditionsSettle)))
        #expect(!rfkill.contains(.startReading(generation: 1)), "the camera is in use: the readers stay closed")
        #expect(core.pausedReasons == [.camera])
        #expect(core.handle(.condition(.camera, holds: false)).contains(.startReading(generation: 1)))

        var late = DaemonCore(configuration: .init(awaitedSources: [.rfkill]))
        _ = late.handle(.started)
        #expect(late.handle(.timerFired(.conditionsSettle)).contains(.startReading(generation: 1)))
    }

    /// The issue's descriptor exhaustion: inhibitors are bounded per connection and overall.
    @Test func inhibitorsAreBoundedPerConnectionAndOverall() {
        var rig = Rig()
        func inhibit(_ caller: String) -> BusAnswer? {
            let request = rig.request(.inhibit(who: "Wallet", why: "paying"), from: caller)
            return request.effects.contains { if case .grantInhibitor = $0 { true } else { false } } ? nil : Rig.answer(request.effects, request.call)
        }
        for index in 0..<DaemonCore.maximumInhibitorsPerOwner { #expect(inhibit(":1.1") == nil, "\(index)") }
        if case .error(let name, _)? = inhibit(":1.1") { #expect(name == ScannerAPI.ErrorName.limitsExceeded) } else { Issue.record("a ninth inhibitor") }
        var granted = DaemonCore.maximumInhibitorsPerOwner
        var caller = 2
        while granted < DaemonCore.maximumInhibitors {
            for _ in 0..<DaemonCore.maximumInhibitorsPerOwner where granted < DaemonCore.maximumInhibitors {
                #expect(inhibit(":1.\(caller)") == nil)
                granted += 1
            }
            caller += 1
        }
        guard case .error(let name, let message)? = inhibit(":1.999") else { Issue.record("one inhibitor over the bound"); return }
        #expect(name == ScannerAPI.ErrorName.limitsExceeded && message.contains("\(DaemonCore.maximumInhibitors)"))
    }

    /// The reported crash's sequence, a thousand times: the pauses are right after every step,
    /// the readers come back after every release, and no step passes through no-reader.
    @Test func inhibitReleaseSessionInvalidateRounds() {
        var rig = Rig()
        var generation = 1
        var sessionsSeen = Set<String>()
        for round in 0..<1000 {
            let inhibit = rig.request(.inhibit(who: "Wallet", why: "paying"))
            guard case .grantInhibitor(inhibit.call, let id)? = inhibit.effects.first(where: {
                if case .grantInhibitor = $0 { true } else { false }
            }) else { Issue.record("round \(round): no inhibitor granted"); return }
            #expect(inhibit.effects.contains(.stopReading(generation: generation)))
            #expect(rig.paused == ["reader-in-use"], "round \(round) inhibited")
            #expect(rig.core.readers.isEmpty)

            let released = rig.send(.inhibitorReleased(id))
            #expect(released.contains(.dropInhibitor(id)))
            generation += 1
            #expect(released.contains(.startReading(generation: generation)))
            #expect(rig.paused == [], "round \(round): released, readers reopening: not no-reader")
            // The old generation's late news is ignored; the new one brings the reader back at the same path.
            rig.send(.reading(generation: generation - 1, .readerRemoved(rig.readerID, problem: nil)))
            let back = rig.send(.reading(generation: generation, .readerAdded(rig.readerID, name: "ACS ACR122U", backend: .pcsc)))
            #expect(back.contains { if case .publish(let object) = $0 { object.path == "\(ScannerAPI.readersPath)/1" } else { false } })
            rig.send(.reading(generation: generation, .opened))
            #expect(rig.paused == [])

            let start = rig.request(.startSession(ScanSessionOptions()))
            guard case .values(let values)? = Rig.answer(start.effects, start.call), let path = values.first?.stringValue else {
                Issue.record("round \(round): no session"); return
            }
            sessionsSeen.insert(path)
            #expect(rig.paused == ["scan-session"])
            let session = Int(path.split(separator: "/").last!)!
            let invalidate = rig.request(.invalidate(session: session, message: ""))
            #expect(Rig.answer(invalidate.effects, invalidate.call) == .values([]))
            #expect(invalidate.effects.contains(.unpublish(path: path)))
            #expect(invalidate.effects.contains(.cancelTimer(.sessionTimeout(session))))
            #expect(rig.paused == [])
        }
        #expect(sessionsSeen.count == 1000)
        #expect(rig.core.inhibitors.isEmpty && rig.core.sessions.all.isEmpty)
    }

    @Test func anObjectIsOfferedAndDeliveredOnceWithRetriesOnlyAfterAnAnswer() throws {
        var rig = Rig()
        let register = rig.request(.register(handlerPath: "/org/example/Handler", try Self.handler()), from: ":1.20")
        #expect(Rig.answer(register.effects, register.call) == .values([.uint32(1)]))

        let scanned = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/poster"))))
        guard case .notify(let showID, let content, replacing: 0)? = scanned.first(where: { if case .notify = $0 { true } else { false } }) else {
            Issue.record("no offer: \(scanned)"); return
        }
        #expect(content.appName == "Posters")
        #expect(scanned.contains { if case .observe(.detected(_, "04112233445566", _, session: nil)) = $0 { true } else { false } })
        rig.send(.completed(showID, .shown(7)))
        #expect(rig.core.offers[7] != nil)

        let chosen = rig.send(.notification(.actionInvoked(id: 7, actionKey: "default")))
        guard case .handleScan(let delivery, ":1.20", "/org/example/Handler", _)? = chosen.first else {
            Issue.record("not delivered: \(chosen)"); return
        }
        // The app answered "busy": it did not take the object, so it is asked again after a while.
        let busy = rig.send(.completed(delivery, .refused(name: "org.example.Error.Busy", message: "busy")))
        #expect(busy.contains(.armTimer(.deliveryRetry(delivery), after: .milliseconds(500))))
        #expect(!busy.contains { if case .handleScan = $0 { true } else { false } })
        let again = rig.send(.timerFired(.deliveryRetry(delivery)))
        #expect(again.contains { if case .handleScan(delivery, _, _, _) = $0 { true } else { false } })
        let done = rig.send(.completed(delivery, .done("HandleScan")))
        #expect(done.contains(.closeNotification(7)))
        #expect(done.contains(.observe(.delivered(notification: 7, app: "Posters", success: true))))
        #expect(rig.core.deliveries.isEmpty)
        // A second click on the same notification delivers nothing.
        #expect(rig.send(.notification(.actionInvoked(id: 7, actionKey: "default"))).allSatisfy {
            if case .handleScan = $0 { false } else { true }
        })
    }

    /// Issue 12: a vCard that is not UTF-8 beside a link made the whole object undecodable, so
    /// nothing was offered. The link is offered; the card is reported with its `error`.
    @Test func aBadPayloadDoesNotHideTheRestFromTheOffer() throws {
        var rig = Rig()
        _ = rig.request(.register(handlerPath: "/org/example/Handler", try Self.handler()), from: ":1.20")
        let card = Array("BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Jos".utf8) + [0xE9] + Array("\r\nEND:VCARD\r\n".utf8)
        let message = NDEFMessage(NDEFRecord(tnf: .media, type: "text/vcard", payload: card),
                                  URIRecord(uri: "https://example.com/poster").record())
        let scanned = rig.send(.reading(generation: 1, .scanned(Rig.object(message))))
        guard case .notify(_, let content, replacing: 0)? = scanned.first(where: { if case .notify = $0 { true } else { false } }) else {
            Issue.record("no offer: \(scanned)"); return
        }
        #expect(content.appName == "Posters")
        guard case .observe(.detected(_, _, let report, session: nil))? = scanned.first(where: {
            if case .observe(.detected) = $0 { true } else { false }
        }) else { Issue.record("not observed: \(scanned)"); return }
        let records = report["records"]?.arrayValue ?? []
        #expect(records.count == 2)
        #expect(records.first?["error"] != nil)
        #expect(records.last?["uri"]?.stringValue == "https://example.com/poster")
    }

    /// A notification server that leaves and another that comes number their notifications each
    /// from 1: the old server's ids name nothing now, so an old offer's action delivers nothing.
    /// An observer (the broker publisher) must tell the app's objects from background ones.
    @Test func anObjectReadForASessionIsObservedAsTheSessions() throws {
        var rig = Rig()
        let start = rig.request(.startSession(ScanSessionOptions()))
        guard case .values(let values)? = Rig.answer(start.effects, start.call), let path = values.first?.stringValue,
              let session = Int(path.split(separator: "/").last ?? "") else {
            Issue.record("no session: \(start.effects)"); return
        }
        let scanned = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/poster"))))
        let observed = scanned.compactMap { effect -> Int?? in
            if case .observe(.detected(_, _, _, let session)) = effect { session } else { nil }
        }
        #expect(observed == [session], "\(scanned)")
    }

    /// `[authenticity] not-genuine = refuse`: an object whose chip is not genuine is neither
    /// offered, nor handed to a session, nor observed as detected (so not published); one whose
    /// chip could not be checked, or any object without the option, goes on as before.
    @Test func aStationThatRefusesNotGenuineChipsOffersAndHandsThemToNobody() throws {
        func copy(_ uri: String) -> ScannedObject {
            var object = Rig.object(uri: uri)
            object.authenticity = AuthenticityFindings(originality: .verdict(.notGenuine(reason: "its signature is all zeros")))
            return object
        }
        func offered(_ effects: [DaemonEffect]) -> Bool { effects.contains { if case .notify = $0 { true } else { false } } }
        func detected(_ effects: [DaemonEffect]) -> Bool { effects.contains { if case .observe(.detected) = $0 { true } else { false } } }

        var marking = Rig()
        _ = marking.request(.register(handlerPath: "/org/example/Handler", try Self.handler()), from: ":1.20")
        let marked = marking.send(.reading(generation: 1, .scanned(copy("https://example.com/poster"))))
        #expect(offered(marked) && detected(marked), "report (the default) offers it, genuine false")
        guard case .observe(.detected(_, _, let report, _))? = marked.first(where: { if case .observe(.detected) = $0 { true } else { false } }) else {
            Issue.record("not observed"); return
        }
        #expect(report["object"]?["genuine"] == .bool(false))

        var refusing = Rig(configuration: .init(notGenuine: .refuse))
        _ = refusing.request(.register(handlerPath: "/org/example/Handler", try Self.handler()), from: ":1.20")
        let refused = refusing.send(.reading(generation: 1, .scanned(copy("https://example.com/poster"))))
        #expect(!offered(refused) && !detected(refused), "\(refused)")
        #expect(refused.contains(.observe(.refused(reader: "ACS ACR122U", uid: "04112233445566", reason: "its signature is all zeros", session: nil))))
        let unchecked = refusing.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/badge"))))
        #expect(offered(unchecked) && detected(unchecked), "a chip that could not be checked is not refused")

        // A session reading it looks again: it is handed nothing.
        refusing.send(.reading(generation: 1, .departed(refusing.readerID)))
        let start = refusing.request(.startSession(ScanSessionOptions()))
        #expect(Rig.answer(start.effects, start.call) != nil)
        refusing.send(.reading(generation: 1, .reading))
        #expect(refusing.core.sessionReading != nil)
        let forSession = refusing.send(.reading(generation: 1, .scanned(copy("https://example.com/ticket"))))
        #expect(!forSession.contains { if case .signal(_, _, "Detected", _, _) = $0 { true } else { false } }, "\(forSession)")
        #expect(refusing.core.sessionReading == nil)
    }

    /// An object read in the background and still near its reader is reported once per arrival:
    /// a scan session started meanwhile (`nfcscan` while nfcscand runs) is handed it at once. One
    /// that left is not; one a session had is that session's (a later one uses RestartPolling).
    @Test func aSessionTakesTheObjectAlreadyNearAReader() {
        var rig = Rig()
        func detected(_ effects: [DaemonEffect]) -> [String] {
            effects.compactMap { effect -> String? in
                guard case .signal(_, ScannerAPI.sessionInterface, "Detected", let values, _) = effect,
                      let value = values.first, let report = ReportValue(busValue: value) else { return nil }
                return report["records"]?.arrayValue?.first?["uri"]?.stringValue
            }
        }
        rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/gone"))))
        rig.send(.reading(generation: 1, .departed(rig.readerID)))
        let first = rig.request(.startSession(ScanSessionOptions()))
        #expect(detected(first.effects).isEmpty, "the object left: the session waits")
        rig.request(.invalidate(session: 1, message: ""))
        rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/badge"))))
        let start = rig.request(.startSession(ScanSessionOptions()))
        #expect(detected(start.effects) == ["https://example.com/badge"], "\(start.effects)")
        #expect(start.effects.contains { if case .signal(_, _, "Invalidated", let values, _) = $0 { values.first == .string("first-read") } else { false } })
        let later = rig.request(.startSession(ScanSessionOptions()))
        #expect(detected(later.effects).isEmpty, "the badge was the earlier session's")
    }

    /// A scan session's password reads objects only while it is active; an object that needs one
    /// sends the session looking again, its prompt saying why; the password is never shown.
    @Test func aScanSessionsPasswordReadsOnlyWhileItIsActive() throws {
        var rig = Rig()
        let options = try ScanSessionOptions(["object": .string("badge"), "password": .array(elementSignature: "y", [1, 2, 3, 4].map(DBusValue.byte))])
        let password = try #require(options.password)
        #expect(password.bytes == [1, 2, 3, 4])
        #expect("\(options)".contains("(a password)") && !"\(options)".contains("[1, 2, 3, 4]"), "\(options)")
        let first = rig.request(.startSession(ScanSessionOptions()), from: ":1.30")
        #expect(!first.effects.contains { if case .readPassword = $0 { true } else { false } }, "no password: none set")
        let waiting = rig.request(.startSession(options), from: ":1.31")
        #expect(!waiting.effects.contains(.readPassword(session: 2, password)), "not while it waits")
        let next = rig.send(.timerFired(.sessionTimeout(1)))
        #expect(next.contains(.readPassword(session: 2, password)), "\(next)")

        rig.send(.reading(generation: 1, .reading))
        let refused = rig.send(.reading(generation: 1, .needsPassword(wrong: true)))
        let alert = ScanCopy.catalog(object: "badge").wrongPassword
        #expect(refused.contains(.update(path: "\(ScannerAPI.sessionsPath)/2", interface: ScannerAPI.sessionInterface,
                                         ["State": .string("active"), "AlertMessage": .string(alert)])), "\(refused)")
        #expect(!refused.contains { "\($0)".contains("[1, 2, 3, 4]") })

        let read = rig.send(.reading(generation: 1, .readWithPassword(Rig.object(uri: "https://example.com/badge"), session: 2)))
        #expect(read.contains { if case .signal(_, _, "Detected", _, ":1.31") = $0 { true } else { false } }, "\(read)")

        #expect(read.contains(.dropReadPassword(session: 2)), "a single session ends with its first read: \(read)")
        // Read with its password as it ended: neither offered nor observed for anyone else.
        let late = rig.send(.reading(generation: 1, .readWithPassword(Rig.object(uri: "https://example.com/badge"), session: 2)))
        #expect(!late.contains { if case .notify = $0 { true } else if case .observe = $0 { true } else { false } }, "\(late)")
    }

    /// The publisher's state becomes the Broker property, announced only when it changes.
    @Test func theBrokerStatusIsAPropertyChangedOnlyWhenItChanges() {
        var rig = Rig()
        #expect(rig.core.scannerProperties["Broker"] == .dictionary(keySignature: "s", valueSignature: "v", []))
        var status = BrokerStatus(station: "door")
        status.pending = 2
        status.lastError = "Connection refused"
        let first = rig.send(.broker(status))
        #expect(first == [.update(path: ScannerAPI.path, interface: ScannerAPI.interface, ["Broker": status.busValue])])
        #expect(rig.send(.broker(status)).isEmpty)
        guard case .dictionary(_, _, let entries)? = rig.core.scannerProperties["Broker"] else { Issue.record("no Broker"); return }
        #expect(entries.map(\.key) == [.string("station"), .string("connected"), .string("pending"), .string("dropped"), .string("last-error")])
        #expect(entries.last?.value == .variant(.string("Connection refused")))
    }

    /// Whether notifications can be shown is a property (`nfcscan status` reads it): asked at
    /// start, then followed as a server comes and goes; announced only when it changes.
    @Test func whetherNotificationsCanBeShownIsAProperty() {
        var core = DaemonCore()
        let started = core.handle(.started)
        #expect(started.contains(.findNotificationServer), "\(started)")
        var rig = Rig()
        #expect(rig.core.scannerProperties["Notifications"] == .string("available"))
        let unavailable: [String: DBusValue] = ["Notifications": .string("unavailable")]
        #expect(rig.send(.notification(.serverFound(present: false))).contains(.update(path: ScannerAPI.path, interface: ScannerAPI.interface, unavailable)))
        #expect(rig.core.scannerProperties["Notifications"] == .string("unavailable"))
        #expect(!rig.send(.notification(.serverChanged(present: false))).contains { if case .update = $0 { true } else { false } })
        #expect(rig.send(.notification(.serverChanged(present: true)))
                .contains(.update(path: ScannerAPI.path, interface: ScannerAPI.interface, ["Notifications": .string("available")])))
    }

    @Test func aRestartedNotificationServerVoidsTheOldOffers() throws {
        var rig = Rig()
        _ = rig.request(.register(handlerPath: "/org/example/Handler", try Self.handler()), from: ":1.20")
        let scanned = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/poster"))))
        guard case .notify(let showID, _, _)? = scanned.first(where: { if case .notify = $0 { true } else { false } }) else {
            Issue.record("no offer: \(scanned)"); return
        }
        rig.send(.completed(showID, .shown(1)))
        rig.send(.notification(.serverChanged(present: false)))
        rig.send(.notification(.serverChanged(present: true)))
        #expect(rig.core.offers.isEmpty)
        #expect(rig.send(.notification(.actionInvoked(id: 1, actionKey: "default"))).allSatisfy {
            if case .handleScan = $0 { false } else { true }
        })
        // The next object is offered anew, not as a replacement of the void notification.
        let next = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/menu"))))
        #expect(next.contains { if case .notify(_, _, replacing: 0) = $0 { true } else { false } })
    }

    @Test func noAnswerIsNeverRetriedAndThePersonIsTold() throws {
        var rig = Rig()
        _ = rig.request(.register(handlerPath: "/org/example/Handler", try Self.handler()), from: ":1.20")
        let scanned = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/poster"))))
        guard case .notify(let showID, _, _)? = scanned.first(where: { if case .notify = $0 { true } else { false } }) else { return }
        rig.send(.completed(showID, .shown(3)))
        guard case .handleScan(let delivery, _, _, _)? = rig.send(.notification(.actionInvoked(id: 3, actionKey: "open"))).first else {
            Issue.record("not delivered"); return
        }
        let hung = rig.send(.completed(delivery, .refused(name: "org.freedesktop.DBus.Error.NoReply", message: "timed out")))
        #expect(!hung.contains { if case .armTimer = $0 { true } else { false } })
        #expect(hung.contains(.observe(.delivered(notification: 3, app: "Posters", success: false))))
        guard case .notify(_, let notice, 0)? = hung.first(where: { if case .notify = $0 { true } else { false } }) else {
            Issue.record("the person is not told"); return
        }
        #expect(CopyRules.problems(in: notice.summary).isEmpty)
        // Three answered refusals use up the retries; the fourth failure is final.
        let rig2Scan = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/other"))))
        guard case .notify(let show2, _, _)? = rig2Scan.first(where: { if case .notify = $0 { true } else { false } }) else { return }
        rig.send(.completed(show2, .shown(4)))
        guard case .handleScan(let second, _, _, _)? = rig.send(.notification(.actionInvoked(id: 4, actionKey: "open"))).first else { return }
        for _ in OfferBook.retryDelays {
            #expect(rig.send(.completed(second, .refused(name: "org.example.Error.Busy", message: ""))).contains {
                if case .armTimer = $0 { true } else { false }
            })
            rig.send(.timerFired(.deliveryRetry(second)))
        }
        let last = rig.send(.completed(second, .refused(name: "org.example.Error.Busy", message: "")))
        #expect(last.contains(.observe(.delivered(notification: 4, app: "Posters", success: false))))
    }

    @Test func aNotificationServerThatNeverAnswersBlocksNothing() throws {
        var rig = Rig()
        _ = rig.request(.register(handlerPath: "/org/example/Handler", try Self.handler()), from: ":1.20")
        // Notify goes out and never comes back; everything else is still decided at once.
        let scanned = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/poster"))))
        #expect(scanned.contains { if case .notify = $0 { true } else { false } })
        let start = rig.request(.startSession(ScanSessionOptions()))
        #expect(Rig.answer(start.effects, start.call) != nil)
        let inhibit = rig.request(.inhibit(who: "Wallet", why: ""))
        #expect(inhibit.effects.contains { if case .grantInhibitor = $0 { true } else { false } })
        // Its deadline passes: logged, and no offer is left half made.
        guard case .notify(let showID, _, _)? = scanned.first(where: { if case .notify = $0 { true } else { false } }) else { return }
        let late = rig.send(.completed(showID, .noAnswer("org.freedesktop.DBus.Error.NoReply")))
        #expect(late.contains { if case .log(.warning, let message, _) = $0 { message.contains("could not show") } else { false } })
        #expect(rig.core.offers.isEmpty)
    }

    @Test func sessionsTimeOutQueueAndEndWithAirplaneMode() {
        var rig = Rig()
        let first = rig.request(.startSession(ScanSessionOptions()), from: ":1.30")
        #expect(first.effects.contains(.armTimer(.sessionTimeout(1), after: .seconds(ScanSessionOptions.defaultTimeout))))
        for index in 0..<ScanSessionQueue.maximumWaiting {
            let waiting = rig.request(.startSession(ScanSessionOptions()), from: ":1.\(40 + index)")
            #expect(!waiting.effects.contains { if case .armTimer = $0 { true } else { false } })
        }
        let refused = rig.request(.startSession(ScanSessionOptions()), from: ":1.99")
        #expect(Rig.answer(refused.effects, refused.call) == .error(
            name: ScannerAPI.ErrorName.systemBusy, message: "16 scan sessions are waiting already; try again later"))
        // Another app may not end someone else's session.
        let foreign = rig.request(.invalidate(session: 1, message: ""), from: ":1.99")
        if case .error(let name, _)? = Rig.answer(foreign.effects, foreign.call) { #expect(name == ScannerAPI.ErrorName.accessDenied) }
        let timeout = rig.send(.timerFired(.sessionTimeout(1)))
        #expect(timeout.contains { if case .signal(_, _, "Invalidated", let args, ":1.30") = $0 { args.first == .string("timeout") } else { false } })
        #expect(timeout.contains(.armTimer(.sessionTimeout(2), after: .seconds(60))), "the next one waiting becomes active")
        // A stale timer of the ended session does nothing.
        #expect(!rig.send(.timerFired(.sessionTimeout(1))).contains { if case .signal = $0 { true } else { false } })

        let airplane = rig.send(.condition(.rfkill, holds: true))
        let ended = airplane.filter { if case .signal(_, _, "Invalidated", let args, _) = $0 { args.first == .string("radio-disabled") } else { false } }
        #expect(ended.count == ScanSessionQueue.maximumWaiting)
        #expect(rig.paused == ["airplane-mode"])
        #expect(airplane.contains(.stopReading(generation: 1)))
        let refusedNow = rig.request(.startSession(ScanSessionOptions()))
        if case .error(let name, _)? = Rig.answer(refusedNow.effects, refusedNow.call) { #expect(name == ScannerAPI.ErrorName.radioDisabled) }
        rig.send(.condition(.rfkill, holds: false))
        #expect(rig.paused == [], "cleared; readers reopening")
    }

    @Test func anAppThatLeavesTakesItsHandlersAndSessions() throws {
        var rig = Rig()
        _ = rig.request(.register(handlerPath: "/org/example/Handler", try Self.handler()), from: ":1.20")
        _ = rig.request(.startSession(ScanSessionOptions()), from: ":1.20")
        let gone = rig.send(.peerGone(":1.20"))
        #expect(!gone.contains { if case .signal = $0 { true } else { false } }, "nobody left to tell")
        #expect(gone.contains(.unpublish(path: "\(ScannerAPI.sessionsPath)/1")))
        #expect(rig.core.registry.registrations.isEmpty && rig.core.sessions.all.isEmpty)
        // The object that app would have wanted is offered to nobody (no web link for https? it is: the browser).
        let scanned = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/poster"))))
        guard case .notify(_, let content, _)? = scanned.first(where: { if case .notify = $0 { true } else { false } }) else {
            Issue.record("the web link is not offered"); return
        }
        #expect(content.appIcon == NotificationComposer.browserIcon)
    }

    @Test func stoppingEndsSessionsWithdrawsOffersAndReleasesTheReaders() throws {
        var rig = Rig()
        _ = rig.request(.register(handlerPath: "/org/example/Handler", try Self.handler()), from: ":1.20")
        let scanned = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/poster"))))
        guard case .notify(let showID, _, _)? = scanned.first(where: { if case .notify = $0 { true } else { false } }) else { return }
        rig.send(.completed(showID, .shown(9)))
        rig.send(.reading(generation: 1, .departed(rig.readerID)))  // (else the session would take it at once)
        _ = rig.request(.startSession(ScanSessionOptions()), from: ":1.30")
        let stop = rig.send(.stop)
        #expect(stop.contains { if case .signal(_, _, "Invalidated", let args, _) = $0 { args.first == .string("terminated") } else { false } })
        #expect(stop.contains(.stopReading(generation: 1)))
        #expect(stop.contains(.closeNotification(9)))
        #expect(stop.last == .finish)
        #expect(!rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/late")))).contains {
            if case .notify = $0 { true } else { false }
        })
    }

    /// Ten thousand objects offered and delivered: the core keeps nothing per object once it is done.
    @Test func stateStaysFlatOverTenThousandObjects() throws {
        var rig = Rig()
        _ = rig.request(.register(handlerPath: "/org/example/Handler", try Self.handler()), from: ":1.20")
        var notification: UInt32 = 100
        for index in 0..<10_000 {
            let scanned = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/\(index)"))))
            guard case .notify(let showID, _, _)? = scanned.first(where: { if case .notify = $0 { true } else { false } }) else {
                Issue.record("object \(index) not offered"); return
            }
            notification += 1
            rig.send(.completed(showID, .shown(notification)))
            guard case .handleScan(let delivery, _, _, _)? = rig.send(.notification(.actionInvoked(id: notification, actionKey: "default"))).first else {
                Issue.record("object \(index) not delivered"); return
            }
            rig.send(.completed(delivery, .done("HandleScan")))
            rig.send(.notification(.closed(id: notification, reason: 3)))
        }
        #expect(rig.core.offers.isEmpty && rig.core.deliveries.isEmpty && rig.core.showingCount == 0)
    }
}

/// Installed apps that declare filters in their desktop entry (issue 13).
@Suite struct DeclaredAppCoreTests {
    typealias Rig = CoreRig

    static func installed(dbus: Bool = true, exec: String = "posters %f") throws -> InstalledApps {
        let text = "[Desktop Entry]\nType=Application\nName=Posters\nIcon=poster\n" + (dbus ? "DBusActivatable=true\n" : "Exec=\(exec)\n")
            + "X-NFCScan-Filters=uri-scheme=https,uri-host=example.com\n"
        let entry = try DesktopEntry(id: DesktopFileID(relativePath: "org.example.Posters.desktop")!, path: "/apps/org.example.Posters.desktop",
                                     file: DesktopEntryFile(bytes: Array(text.utf8)))
        return InstalledApps(declarations: [try #require(try AppDeclaration(entry))], refusals: ["/apps/bad.desktop:3: no Name"])
    }

    /// Offers the object and chooses the notification; returns the effects of the choice.
    static func choose(_ rig: inout Rig, uri: String = "https://example.com/poster") -> [DaemonEffect] {
        let scanned = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: uri))))
        guard case .notify(let showID, let content, replacing: 0)? = scanned.first(where: { if case .notify = $0 { true } else { false } }) else {
            Issue.record("no offer: \(scanned)"); return []
        }
        #expect(content.appName == "Posters")
        #expect(content.summary == "Open the link in Posters?")
        rig.send(.completed(showID, .shown(7)))
        return rig.send(.notification(.actionInvoked(id: 7, actionKey: "default")))
    }

    @Test func anActivatableAppIsCalledAtItsBusNameWithTheSameRetries() throws {
        var rig = Rig()
        let added = rig.send(.applications(try Self.installed()))
        #expect(added.contains { if case .log(.info, let text, _) = $0 { text.contains("can receive objects") } else { false } })
        #expect(added.contains { if case .log(.warning, let text, _) = $0 { text.contains("/apps/bad.desktop:3") } else { false } })
        let chosen = Self.choose(&rig)
        guard case .handleScan(let delivery, "org.example.Posters", "/org/example/Posters", let scan)? = chosen.first else {
            Issue.record("not delivered: \(chosen)"); return
        }
        #expect(scan.stringKeyedValue?["desktop-entry"] == .string("org.example.Posters"))
        #expect(scan.stringKeyedValue?["registration"] == nil)
        let busy = rig.send(.completed(delivery, .refused(name: "org.example.Error.Busy", message: "busy")))
        #expect(busy.contains(.armTimer(.deliveryRetry(delivery), after: .milliseconds(500))))
        let again = rig.send(.timerFired(.deliveryRetry(delivery)))
        #expect(again.contains { if case .handleScan(delivery, "org.example.Posters", _, _) = $0 { true } else { false } })
        let done = rig.send(.completed(delivery, .done("HandleScan")))
        #expect(done.contains(.observe(.delivered(notification: 7, app: "Posters", success: true))))
    }

    @Test func anAppTheBusCannotStartIsNotRetried() throws {
        var rig = Rig()
        rig.send(.applications(try Self.installed()))
        guard case .handleScan(let delivery, _, _, _)? = Self.choose(&rig).first else { Issue.record("not delivered"); return }
        let failed = rig.send(.completed(delivery, .refused(name: "org.freedesktop.DBus.Error.Spawn.ChildExited", message: "exited")))
        #expect(!failed.contains { if case .armTimer = $0 { true } else { false } })
        #expect(failed.contains(.observe(.delivered(notification: 7, app: "Posters", success: false))))
    }

    @Test func theRunningAppReceivesItAtItsRegistration() throws {
        var rig = Rig()
        rig.send(.applications(try Self.installed()))
        let request = try HandlerRequest(appName: "Posters", desktopEntry: "org.example.Posters", filterFields: [["media-type": "text/vcard"]])
        rig.request(.register(handlerPath: "/org/example/Posters/Handler", request), from: ":1.30")
        guard case .handleScan(_, ":1.30", "/org/example/Posters/Handler", let scan)? = Self.choose(&rig).first else {
            Issue.record("not delivered to the running app"); return
        }
        #expect(scan.stringKeyedValue?["registration"] == .uint32(1))
    }

    @Test func anAppUninstalledWhileItsOfferShowsIsNotStarted() throws {
        var rig = Rig()
        rig.send(.applications(try Self.installed()))
        let scanned = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/poster"))))
        guard case .notify(let showID, _, _)? = scanned.first(where: { if case .notify = $0 { true } else { false } }) else {
            Issue.record("no offer"); return
        }
        rig.send(.completed(showID, .shown(7)))
        rig.send(.applications(InstalledApps()))
        let chosen = rig.send(.notification(.actionInvoked(id: 7, actionKey: "default")))
        #expect(!chosen.contains { if case .handleScan = $0 { true } else { false } })
        #expect(chosen.contains(.observe(.delivered(notification: 7, app: "Posters", success: false))))
    }

    @Test func aRemovedAppNoLongerReceivesObjects() throws {
        var rig = Rig()
        rig.send(.applications(try Self.installed()))
        let removed = rig.send(.applications(InstalledApps()))
        #expect(removed.contains { if case .log(.info, let text, _) = $0 { text.contains("no longer") } else { false } })
        let scanned = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/poster"))))
        guard case .notify(_, let content, _)? = scanned.first(where: { if case .notify = $0 { true } else { false } }) else {
            Issue.record("no offer"); return
        }
        #expect(content.appName != "Posters", "the link goes to the browser now")
    }

    @Test func listAppsNamesRunningAndInstalledAppsWithTheirFilters() throws {
        var rig = Rig()
        rig.send(.applications(try Self.installed()))
        rig.request(.register(handlerPath: "/h", try DaemonCoreTests.handler("Tickets", host: "tickets.example")), from: ":1.31")
        let list = rig.request(.listApps)
        guard case .values(let values)? = Rig.answer(list.effects, list.call), values.count == 2 else { Issue.record("no answer"); return }
        let apps = values[0].arrayValue?.compactMap(\.stringKeyedValue) ?? []
        #expect(apps.map { $0["app-name"]?.stringValue } == ["Tickets", "Posters"])
        #expect(apps[0]["registration"] == .uint32(1))
        #expect(apps[1]["launch"] == .string("dbus-activation"))
        #expect(apps[1]["running"] == .boolean(false))
        #expect(apps[1]["filters"] == .array(elementSignature: "a{sv}", [.vardict(["uri-scheme": .string("https"), "uri-host": .string("example.com")])]))
        #expect(values[1] == .strings(["/apps/bad.desktop:3: no Name"]))
    }

    @Test func anExecAppGetsTheObjectsJSONOrTheLinkAndIsNeverStartedTwice() throws {
        var rig = Rig()
        rig.send(.applications(try Self.installed(dbus: false, exec: "posters --open %f %i")))
        guard case .launch(let delivery, let launch)? = Self.choose(&rig).first else { Issue.record("not launched"); return }
        #expect(launch.exec.expanded(launch.values) == ["posters", "--open", "--icon", "poster"])
        #expect(launch.values.location == "/apps/org.example.Posters.desktop")
        #expect(launch.file?.suffix == "json")
        let json = String(decoding: launch.file?.contents ?? [], as: UTF8.self)
        #expect(json.contains("\"uri\": \"https://example.com/poster\"") || json.contains("\"uri\":\"https://example.com/poster\""))
        let failed = rig.send(.completed(delivery, .refused(name: nil, message: "posters is not an installed program")))
        #expect(!failed.contains { if case .armTimer = $0 { true } else { false } })
        #expect(failed.contains(.observe(.delivered(notification: 7, app: "Posters", success: false))))
        #expect(failed.contains { if case .notify(_, let content, _) = $0 { content.summary.contains("couldn't be sent to Posters") } else { false } })

        var linked = Rig()
        linked.send(.applications(try Self.installed(dbus: false, exec: "posters %U")))
        guard case .launch(let second, let link)? = Self.choose(&linked).first else { Issue.record("not launched"); return }
        #expect(link.exec.expanded(link.values) == ["posters", "https://example.com/poster"])
        #expect(link.file == nil, "a URI filter matched: the link, no file")
        let done = linked.send(.completed(second, .done("posters, process 42")))
        #expect(done.contains(.observe(.delivered(notification: 7, app: "Posters", success: true))))
    }
}

/// Content no app asked for goes to the person's default app for it, or NetworkManager, once
/// the person chooses the notification (issue 13).
@Suite struct DefaultAppCoreTests {
    typealias Rig = CoreRig

    static func app(_ id: String, _ name: String, exec: String, types: String) throws -> DesktopEntry {
        let text = "[Desktop Entry]\nType=Application\nName=\(name)\nExec=\(exec)\nMimeType=\(types)\n"
        return try DesktopEntry(id: #require(DesktopFileID(relativePath: id + ".desktop")), path: "/apps/\(id).desktop",
                                file: DesktopEntryFile(bytes: Array(text.utf8)))
    }

    static func defaults() throws -> PersonalDefaults {
        PersonalDefaults(applications: DefaultApplications(lists: [MimeAppsList(defaults: ["x-scheme-handler/mailto": ["mutt.desktop"]])]),
                         index: ApplicationIndex(entries: [
                            try app("mutt", "Mutt", exec: "mutt %u", types: "x-scheme-handler/mailto;"),
                            try app("contacts", "Contacts", exec: "contacts %f", types: "text/vcard;"),
                         ]))
    }

    /// Offers `records` and chooses the notification; the offer's summary and the choice's effects.
    static func choose(_ rig: inout Rig, _ records: [NDEFRecord]) -> (summary: String?, effects: [DaemonEffect]) {
        let scanned = rig.send(.reading(generation: 1, .scanned(Rig.object(NDEFMessage(records: records)))))
        guard case .notify(let showID, let content, _)? = scanned.first(where: { if case .notify = $0 { true } else { false } }) else {
            return (nil, [])
        }
        rig.send(.completed(showID, .shown(9)))
        return (content.summary, rig.send(.notification(.actionInvoked(id: 9, actionKey: "default"))))
    }

    @Test func aLinkGoesToTheDefaultAppForItsScheme() throws {
        var rig = Rig()
        rig.send(.defaults(try Self.defaults()))
        let (summary, chosen) = Self.choose(&rig, [URIRecord(uri: "mailto:hello@example.com").record()])
        #expect(summary == "Write to hello@example.com?")
        guard case .launch(let id, let launch)? = chosen.first else { Issue.record("not started: \(chosen)"); return }
        #expect(launch.app == "Mutt" && launch.values.urls == ["mailto:hello@example.com"] && launch.file == nil)
        #expect(launch.exec.expanded(launch.values) == ["mutt", "mailto:hello@example.com"])
        let done = rig.send(.completed(id, .done("mutt, process 42")))
        #expect(done.contains(.observe(.delivered(notification: 9, app: "Mutt", success: true))))
    }

    @Test func aContactCardGoesToTheContactsAppAsAFile() throws {
        var rig = Rig()
        rig.send(.defaults(try Self.defaults()))
        let card = Array("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Jane Doe\r\nEND:VCARD\r\n".utf8)
        let (summary, chosen) = Self.choose(&rig, [NDEFRecord(tnf: .media, type: "text/vcard", payload: card)])
        #expect(summary == "Add Jane Doe to Contacts?")
        guard case .launch(let id, let launch)? = chosen.first else { Issue.record("not started: \(chosen)"); return }
        #expect(launch.file == AppLaunch.File(contents: card, suffix: "vcf"))
        let failed = rig.send(.completed(id, .refused(name: nil, message: "contacts is not an installed program")))
        #expect(failed.contains(.observe(.delivered(notification: 9, app: "Contacts", success: false))))
        #expect(failed.contains { if case .notify(_, let content, _) = $0 { content.summary.contains("couldn't be sent to Contacts") } else { false } })
    }

    @Test func anAppThatAskedComesBeforeTheDefault() throws {
        var rig = Rig()
        rig.send(.defaults(try Self.defaults()))
        rig.request(.register(handlerPath: "/org/example/Mail", try HandlerRequest(appName: "Mailer", filterFields: [["uri-scheme": "mailto"]])),
                    from: ":1.40")
        let (summary, chosen) = Self.choose(&rig, [URIRecord(uri: "mailto:hello@example.com").record()])
        #expect(summary == "Open the email address in Mailer?")
        #expect(chosen.contains { if case .handleScan(_, ":1.40", _, _) = $0 { true } else { false } })
    }

    @Test func contentWithoutADefaultAppIsNotOffered() throws {
        var rig = Rig()
        rig.send(.defaults(try Self.defaults()))
        let scanned = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "tel:+15550100"))))
        #expect(!scanned.contains { if case .notify = $0 { true } else { false } })
        #expect(scanned.contains { if case .log(.info, let text, _) = $0 { text.contains("no app asked") } else { false } })
    }

    @Test func aNetworkIsJoinedThroughNetworkManagerOnlyWhenItAnswers() throws {
        let wifi = try WiFiSimpleConfig(attributes: [.init(type: WiFiSimpleConfig.AttributeType.credential, value: try WiFiSimpleConfig(attributes: [
            .init(type: WiFiSimpleConfig.AttributeType.ssid, value: Array("CafeGuest".utf8)),
            .init(type: WiFiSimpleConfig.AttributeType.authenticationType, value: [0x00, 0x20]),
            .init(type: WiFiSimpleConfig.AttributeType.networkKey, value: Array("correct horse".utf8)),
        ]).payload)])
        let record = NDEFRecord(tnf: .media, type: "application/vnd.wfa.wsc", payload: wifi.payload)
        var rig = Rig()
        #expect(Self.choose(&rig, [record]).summary == nil, "no NetworkManager: nothing offered")
        var joined = Rig()
        joined.send(.condition(.networkManager, holds: false))
        let (summary, chosen) = Self.choose(&joined, [record])
        #expect(summary == "Join the network CafeGuest?")
        guard case .joinNetwork(let id, let network)? = chosen.first else { Issue.record("not joined: \(chosen)"); return }
        #expect(network.security == .wpaPersonal(passphrase: "correct horse"))
        let refused = joined.send(.completed(id, .refused(name: "org.freedesktop.NetworkManager.PermissionDenied", message: "no")))
        #expect(refused.contains { if case .notify(_, let content, _) = $0 { content.summary == "Couldn't join the network CafeGuest. Try again." } else { false } })
        #expect(!refused.contains { if case .log(_, let text, _) = $0 { text.contains("correct horse") } else { false } })
    }
}
