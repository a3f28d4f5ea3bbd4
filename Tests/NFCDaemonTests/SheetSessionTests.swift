import DBusValues
import NFCBusAPI
import NFCCopy
@testable import NFCDaemon
import NFCDispatch
import NFCObjects
import ScanSheet
import Testing

/// nfcscand's own scan sheet and the questions it asks (issue 21), as the core decides them: who is
/// asking (calls wait for the caller's identity), whether the app may use the reader (the
/// permission store's grant, else asked once for a sandboxed app), and the person's consent
/// before any write's first command.
@Suite struct SheetSessionTests {
    typealias Rig = CoreRig

    static let desktop = DaemonCore.Configuration(showsSheet: true)
    static let link = try! WriteSessionOptions(["uri": .string("https://example.com/new"), "object": .string("poster")])
    static let lock = try! WriteSessionOptions(["lock": .boolean(true), "object": .string("poster")])
    static let poster = try! ScanSessionOptions(["object": .string("poster")])

    static func views(_ effects: [DaemonEffect]) -> [SheetView] {
        effects.compactMap { if case .showSheet(_, let view) = $0 { view } else { nil } }
    }

    static func closing(_ effects: [DaemonEffect]) -> [SheetView?] {
        effects.compactMap { if case .closeSheet(_, let view) = $0 { .some(view) } else { nil } }
    }

    static func invalidated(_ effects: [DaemonEffect]) -> String? {
        for case .signal(_, _, "Invalidated", let arguments, _) in effects { return arguments.first?.stringValue }
        for case .signal(_, _, "Ended", let arguments, _) in effects { return arguments.first?.stringValue }
        return nil
    }

    // MARK: Who is asking

    @Test func callsWaitForTheCallersIdentityAndAreHandledInOrder() {
        var rig = Rig()
        let first = rig.core.handle(.request(1, caller: ":1.50", .listApps))
        #expect(first == [.identify(":1.50")], "nothing is answered before the caller is known")
        #expect(rig.core.handle(.request(2, caller: ":1.50", .startSession(.init()))).isEmpty, "a second call waits behind the first")
        let answered = rig.core.handle(.identified(":1.50", Rig.app(for: ":1.50")))
        let replies = answered.compactMap { if case .reply(let call, _) = $0 { call } else { nil } }
        #expect(replies == [1, 2])
        #expect(rig.core.callers[":1.50"]?.key == "org.example.App150")
    }

    @Test func aCallerThatCannotBeIdentifiedIsRefusedAndFloodsAreBounded() {
        var rig = Rig()
        _ = rig.core.handle(.request(1, caller: ":1.60", .listApps))
        for call in 2...DaemonCore.maximumUnidentifiedCalls { _ = rig.core.handle(.request(call, caller: ":1.60", .listApps)) }
        let over = rig.core.handle(.request(99, caller: ":1.60", .listApps))
        #expect(Rig.answer(over, 99) == .error(name: ScannerAPI.ErrorName.limitsExceeded,
                                                message: "\(DaemonCore.maximumUnidentifiedCalls) calls of this connection are waiting already"))
        let refused = rig.core.handle(.identified(":1.60", nil))
        #expect(refused.count(where: { if case .reply(_, .error(ScannerAPI.ErrorName.accessDenied, _)) = $0 { true } else { false } })
                == DaemonCore.maximumUnidentifiedCalls)
        #expect(rig.core.callers[":1.60"] == nil)
    }

    @Test func aConnectionThatLeavesBeforeItIsKnownIsForgotten() {
        var rig = Rig()
        _ = rig.core.handle(.request(1, caller: ":1.70", .listApps))
        _ = rig.core.handle(.peerGone(":1.70"))
        #expect(rig.core.handle(.identified(":1.70", Rig.app(for: ":1.70"))).isEmpty)
        #expect(rig.core.callers[":1.70"] == nil)
    }

    // MARK: Permission

    @Test func anUnsandboxedAppReadsAtOnceAndTheSheetShowsItsPrompt() {
        var rig = Rig(configuration: Self.desktop)
        let (call, effects) = rig.request(.startSession(Self.poster))
        #expect(Rig.answer(effects, call) == .values([.objectPath("/org/nfcscan/Scanner1/sessions/1")]))
        let view = Self.views(effects).last
        #expect(view?.message == "Hold the poster near the reader to learn more.")
        #expect(view?.app == "App :1.10" && view?.mark == .looking)
        #expect(view?.buttons == [.init(id: "cancel", label: "Cancel")])
    }

    @Test func aSandboxedAppIsAskedOnceAndItsAnswerIsKept() {
        var rig = Rig(configuration: Self.desktop)
        rig.apps[":1.10"] = Rig.app(for: ":1.10", sandboxed: true)
        let (_, effects) = rig.request(.startSession(Self.poster))
        let question = Self.views(effects).last
        #expect(question?.message == "Allow App :1.10 to use items you hold near the reader?")
        #expect(question?.buttons.map(\.id) == ["deny", "allow"] && question?.mark == .question)
        #expect(!effects.contains(.update(path: "/org/nfcscan/Scanner1/sessions/1", interface: ScannerAPI.sessionInterface,
                                          ["State": .string("active")])), "nothing is read before the answer")
        // An object that arrives meanwhile goes to nobody.
        let read = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/poster"))))
        #expect(!read.contains { if case .signal(_, _, "Detected", _, _) = $0 { true } else { false } })
        let allowed = rig.send(.sheet(session: 1, .pressed("allow")))
        #expect(allowed.contains(.storeGrant(app: "org.example.App110", .allowed)))
        #expect(Self.views(allowed).last?.mark == .looking)
        #expect(rig.core.grants["org.example.App110"] == .allowed)
        // Next time: no question.
        _ = rig.send(.sheet(session: 1, .pressed("cancel")))
        let (_, again) = rig.request(.startSession(Self.poster))
        #expect(Self.views(again).last?.mark == .looking)
    }

    // MARK: Web pages (issue 22)

    static let site = try! ScanSessionOptions(["origin": .string("https://shop.example:8443")])

    @Test func theWebHostsSessionsAreTheSitesAskedOnceAndKeptUnderTheOrigin() {
        var rig = Rig(configuration: Self.desktop)
        var host = Rig.app(for: ":1.10")
        host.mayNameSites = true
        rig.apps[":1.10"] = host
        let (_, effects) = rig.request(.startSession(Self.site))
        let question = Self.views(effects).last
        #expect(question?.message == "Allow shop.example:8443 to use items you hold near the reader?")
        #expect(question?.app == "shop.example:8443")
        let allowed = rig.send(.sheet(session: 1, .pressed("allow")))
        #expect(allowed.contains(.storeGrant(app: "https://shop.example:8443", .allowed)))
        #expect(rig.core.grants["org.example.App110"] == nil, "the browser's host itself is not allowed anything")
    }

    @Test func onlyTheWebHostMayNameASiteAndADeniedSiteIsRefusedAtOnce() {
        var rig = Rig(configuration: Self.desktop)
        let (call, effects) = rig.request(.startSession(Self.site))
        guard case .error(ScannerAPI.ErrorName.accessDenied, let message)? = Rig.answer(effects, call) else {
            Issue.record("\(effects)")
            return
        }
        #expect(message.contains("web host"))
        var host = Rig.app(for: ":1.11")
        host.mayNameSites = true
        rig.apps[":1.11"] = host
        rig.core.grants["https://shop.example:8443"] = .denied
        let write = try! WriteSessionOptions(["uri": .string("https://example.com"), "origin": .string("https://shop.example:8443")])
        let (refusedCall, refused) = rig.request(.startWrite(write), from: ":1.11")
        guard case .error(ScannerAPI.ErrorName.accessDenied, _)? = Rig.answer(refused, refusedCall) else {
            Issue.record("\(refused)")
            return
        }
        #expect(throws: ScanSessionOptions.Refusal.self) { try ScanSessionOptions(["origin": .string("http://example.com")]) }
    }

    @Test func dontAllowEndsTheSessionAndLaterCallsAreRefusedAtOnce() {
        var rig = Rig(configuration: Self.desktop)
        rig.apps[":1.10"] = Rig.app(for: ":1.10", sandboxed: true)
        _ = rig.request(.startSession(Self.poster))
        let denied = rig.send(.sheet(session: 1, .pressed("deny")))
        #expect(denied.contains(.storeGrant(app: "org.example.App110", .denied)))
        #expect(Self.invalidated(denied) == "not-allowed")
        #expect(Self.closing(denied) == [nil], "the person chose: the sheet closes at once")
        let (call, refused) = rig.request(.startWrite(Self.link))
        guard case .error(ScannerAPI.ErrorName.accessDenied, let message) = Rig.answer(refused, call) else {
            Issue.record("a denied app is refused at once")
            return
        }
        #expect(message.contains("nfcscan apps --allow org.example.App110"))
        #expect(Self.views(refused).isEmpty, "no sheet for a denied app")
    }

    @Test func aRefusedAppIsOfferedNothing() throws {
        var rig = Rig(configuration: Self.desktop)
        rig.apps[":1.10"] = Rig.app(for: ":1.10", sandboxed: true)
        _ = rig.send(.grants(["org.example.App110": .denied]))
        let handler = try HandlerRequest(appName: "Posters", filterFields: [["uri-scheme": "https"]])
        let (call, effects) = rig.request(.register(handlerPath: "/org/example/Posters", handler))
        #expect(Rig.answer(effects, call).map { if case .error(ScannerAPI.ErrorName.accessDenied, _) = $0 { true } else { false } } == true)
        #expect(rig.core.registry.registrations.isEmpty)
    }

    @Test func grantsFromTheStoreDecideAndNoDisplayMeansNoQuestion() {
        var rig = Rig(configuration: Self.desktop)
        rig.apps[":1.10"] = Rig.app(for: ":1.10", sandboxed: true)
        _ = rig.send(.grants(["org.example.App110": .allowed]))
        #expect(Self.views(rig.request(.startSession(Self.poster)).effects).last?.mark == .looking)
        _ = rig.send(.grants(["org.example.App110": .denied]))
        let (call, effects) = rig.request(.startSession(Self.poster), from: ":1.10")
        #expect(Rig.answer(effects, call).map { if case .error(ScannerAPI.ErrorName.accessDenied, _) = $0 { true } else { false } } == true)

        var kiosk = Rig()
        kiosk.apps[":1.10"] = Rig.app(for: ":1.10", sandboxed: true)
        let (kioskCall, kioskEffects) = kiosk.request(.startSession(Self.poster))
        #expect(Rig.answer(kioskEffects, kioskCall).map { if case .error(ScannerAPI.ErrorName.accessDenied, _) = $0 { true } else { false } } == true,
                "a sandboxed app without a grant where nothing can ask")
        let (unsandboxed, started) = kiosk.request(.startSession(Self.poster), from: ":1.11")
        #expect(Rig.answer(started, unsandboxed) == .values([.objectPath("/org/nfcscan/Scanner1/sessions/1")]))
        #expect(Self.views(started).isEmpty, "no sheet without a display")
    }

    @Test func aSandboxedAppMayNotStopBackgroundReading() {
        var rig = Rig(configuration: Self.desktop)
        rig.apps[":1.10"] = Rig.app(for: ":1.10", sandboxed: true)
        let (call, effects) = rig.request(.inhibit(who: "Wallet", why: "paying"))
        #expect(Rig.answer(effects, call) == .error(name: ScannerAPI.ErrorName.accessDenied,
                                                    message: "Inhibit: org.example.App110 runs in a sandbox, and may not stop background reading"))
        #expect(rig.core.inhibitors.isEmpty)
        let (hostCall, host) = rig.request(.inhibit(who: "Wallet", why: "paying"), from: ":1.11")
        #expect(host.contains(.grantInhibitor(hostCall, id: 1)), "an app outside a sandbox may")
    }

    // MARK: Consent

    @Test func aWriteAsksBeforeItsFirstCommandAndCancelChangesNothing() {
        var rig = Rig(configuration: Self.desktop)
        let (_, effects) = rig.request(.startWrite(Self.link))
        #expect(!effects.contains { if case .armWrite = $0 { true } else { false } }, "nothing is armed before the person chooses")
        let question = Self.views(effects).last
        #expect(question?.message == "App :1.10 wants to save a link to the poster.")
        #expect(question?.buttons == [.init(id: "cancel", label: "Cancel"), .init(id: "confirm", label: "Save", style: .suggested)])
        let canceled = rig.send(.sheet(session: 1, .pressed("cancel")))
        #expect(Self.invalidated(canceled) == "user-canceled")
        #expect(!canceled.contains { if case .armWrite = $0 { true } else { false } })
    }

    @Test func aLockIsConfirmedWithADestructiveButtonThenArmed() {
        var rig = Rig(configuration: Self.desktop)
        let (_, effects) = rig.request(.startWrite(Self.lock))
        let question = Self.views(effects).last
        #expect(question?.message == "App :1.10 wants to lock the poster.")
        #expect(question?.detail == "This can't be undone.")
        #expect(question?.buttons.last == .init(id: "confirm", label: "Lock", style: .destructive))
        let confirmed = rig.send(.sheet(session: 1, .pressed("confirm")))
        #expect(confirmed.contains { if case .armWrite(session: 1, _) = $0 { true } else { false } })
        #expect(Self.views(confirmed).last?.message == "Hold the poster near the reader to lock it.")
        // The write: no Cancel while the object is being written; the ending stays a moment.
        let writing = rig.send(.reading(generation: 1, .writing(session: 1)))
        #expect(Self.views(writing).last?.buttons == [] && Self.views(writing).last?.mark == .working)
        #expect(rig.send(.sheet(session: 1, .pressed("cancel"))).allSatisfy { if case .log = $0 { true } else { false } })
        let done = rig.send(.reading(generation: 1, .written(session: 1, WriteResult(ending: .done, written: false, locked: true))))
        #expect(Self.closing(done).first??.mark == .done)
        #expect(Self.closing(done).first??.message == "Locked. You can take the poster away.")
        #expect(Self.closing(done).first??.closeAfter == SheetViews.endingShown)
    }

    @Test func anObjectHeldNearWhileAskedIsLookedForAgainAfterTheAnswer() {
        var rig = Rig(configuration: Self.desktop)
        _ = rig.request(.startWrite(Self.link))
        // The person holds the poster near the reader while reading the question: it is read, kept from the session.
        _ = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/old"))))
        let confirmed = rig.send(.sheet(session: 1, .pressed("confirm")))
        let restart = confirmed.firstIndex(of: .stopReading(generation: 1))
        let reopened = confirmed.firstIndex(of: .startReading(generation: 2))
        let armed = confirmed.firstIndex { if case .armWrite(session: 1, _) = $0 { true } else { false } }
        #expect(restart != nil && reopened != nil && armed != nil, "the readers are opened anew, so the object near them is written")
        #expect((restart ?? 0) < (reopened ?? 0) && (reopened ?? 0) < (armed ?? 0))

        var canceled = Rig(configuration: Self.desktop)
        _ = canceled.request(.startWrite(Self.link))
        #expect(!canceled.send(.sheet(session: 1, .pressed("cancel"))).contains(.stopReading(generation: 1)), "a Cancel reopens nothing")
        var kiosk = Rig()
        #expect(!kiosk.request(.startWrite(Self.link)).effects.contains(.stopReading(generation: 1)), "nothing asked: nothing reopened")
    }

    @Test func theSheetClosingOrFailingEndsTheSession() {
        var rig = Rig(configuration: Self.desktop)
        _ = rig.request(.startSession(Self.poster))
        _ = rig.send(.sheet(session: 1, .shown))
        #expect(Self.invalidated(rig.send(.sheet(session: 1, nil))) == "user-canceled")
        _ = rig.request(.startSession(Self.poster))
        #expect(Self.invalidated(rig.send(.sheet(session: 2, nil))) == "unavailable", "a sheet that never showed")
    }

    @Test func theSheetFollowsReadingAndEndsWithDone() {
        var rig = Rig(configuration: Self.desktop)
        _ = rig.request(.startSession(Self.poster))
        let reading = rig.send(.reading(generation: 1, .reading))
        #expect(Self.views(reading).last?.message == "Reading the poster. Keep it still.")
        let read = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/poster"))))
        #expect(Self.closing(read).first??.message == "Done. You can take the poster away.")
        #expect(Self.closing(read).first??.mark == .done)
    }

    @Test func theSheetSpeaksTheSessionsLanguage() {
        var rig = Rig(configuration: Self.desktop)
        let options = try! WriteSessionOptions(["uri": .string("https://example.com/"), "object": .string("poster"), "language": .string("zh_CN")])
        let question = Self.views(rig.request(.startWrite(options)).effects).last
        #expect(question?.message == "“App :1.10”想要将链接保存到海报。")
        #expect(question?.buttons.map(\.label) == ["取消", "保存"])
    }

    /// Under systemd the sheet leaves the service's sandbox (its private /tmp and network
    /// namespace hide the X server; no JIT for GL): systemd-run hands it the daemon's pipes.
    @Test func underSystemdTheSheetRunsOutsideTheSandboxOnTheDaemonsPipes() {
        #expect(TransientUnit.sheetCommand("/usr/libexec/nfcscan/nfcscan-sheet", outside: false) == ["/usr/libexec/nfcscan/nfcscan-sheet"])
        let outside = TransientUnit.sheetCommand("/usr/libexec/nfcscan/nfcscan-sheet", outside: true,
                                                 environment: ["WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": "/run/user/1000", "HOME": "/home/ada"])
        #expect(outside == ["systemd-run", "--user", "--collect", "--quiet", "--pipe", "-p", "RuntimeMaxSec=3900",
                            "--setenv", "WAYLAND_DISPLAY=wayland-0", "--setenv", "XDG_RUNTIME_DIR=/run/user/1000",
                            "--", "/usr/libexec/nfcscan/nfcscan-sheet"], "the display's variables that are set, and no others")
    }
}
