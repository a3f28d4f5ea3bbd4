import DBusValues
import NDEF
import NFCBusAPI
import NFCCopy
@testable import NFCDaemon
import NFCObjects
import NFCScanKit
import NFCTags
import Systemd
import Testing

/// The D-Bus write session's decisions (DaemonCore+Writes, WriteSessionOptions), in process:
/// options checked as untrusted input, the queue it shares with scan sessions, owner-only control,
/// cancel, timeout and every way it ends.
@Suite struct WriteSessionTests {
    typealias Rig = CoreRig

    static func options(_ values: [String: DBusValue]) -> Result<WriteSessionOptions, ScanSessionOptions.Refusal> {
        Result { () throws(ScanSessionOptions.Refusal) in try WriteSessionOptions(values) }
    }

    static func refusal(_ values: [String: DBusValue]) -> String? {
        if case .failure(let refusal) = options(values) { return refusal.description }
        return nil
    }

    static func bytes(_ bytes: [UInt8]) -> DBusValue { .array(elementSignature: "y", bytes.map(DBusValue.byte)) }

    static let link = try! WriteSessionOptions(["uri": .string("https://example.com/new"), "object": .string("poster")])

    // MARK: Options

    @Test func eachKindOfContentBecomesItsWrite() throws {
        #expect(try WriteSessionOptions(["uri": .string("https://example.com/new")]).write == .link("https://example.com/new"))
        let text = try WriteSessionOptions(["text": .string("Summer concert"), "text-language": .string("en-GB")])
        #expect(text.write == .text("Summer concert", language: "en-GB"))
        #expect(text.write.action == .save(.text))
        let encoded = NDEFMessage(URIRecord(uri: "https://example.com/a").record(), URIRecord(uri: "https://example.com/b").record()).encoded()
        let message = try WriteSessionOptions(["message": Self.bytes(encoded), "format": .boolean(true), "password": Self.bytes([1, 2, 3, 4])])
        #expect(message.write.message == encoded && message.write.action == .save(.information))
        #expect(message.write.options == WriteOptions(formatIfBlank: true, password: [1, 2, 3, 4]))
        let oneLink = try WriteSessionOptions(["message": Self.bytes(NDEFMessage(URIRecord(uri: "https://example.com/").record()).encoded())])
        #expect(oneLink.write.action == .save(.link), "a message of one link is prompted as a link")
        let erase = try WriteSessionOptions(["erase": .boolean(true), "lock": .boolean(true), "timeout": .uint32(5), "language": .string("zh_CN.UTF-8")])
        #expect(erase.write.message == [] && erase.write.lock && erase.write.action == .erase)
        #expect(erase.session.timeout == 5 && erase.session.language == .simplifiedChinese)
        let both = try WriteSessionOptions(["uri": .string("https://example.com/"), "text": .string("Summer concert")])
        #expect(both.write.action == .save(.information))
        #expect(both.write.message == NDEFMessage(URIRecord(uri: "https://example.com/").record(), try TextRecord(text: "Summer concert").record()).encoded(),
                "a link and a text: two records, the link first, as nfcscan write")
        let lockOnly = try WriteSessionOptions(["lock": .boolean(true)])
        #expect(lockOnly.write.message == nil && lockOnly.write.action == .lock)
        #expect(try WriteSessionOptions(["uri": .string("https://example.com/"), "erase": .boolean(false)]).write.lock == false)
    }

    @Test func untrustedOptionsAreRefusedNamingTheFault() {
        #expect(Self.refusal([:]) == "option \"message\" is missing: send one of message (ay), uri (s) and/or text (s), or erase (b), or lock (b) alone")
        #expect(Self.refusal(["lock": .boolean(false)])?.contains("is missing") == true, "lock false is no action")
        #expect(Self.refusal(["uri": .string("https://example.com/"), "erase": .boolean(true)]) == "option \"uri\" cannot go with erase: send one of message, uri and/or text, or erase")
        #expect(Self.refusal(["message": Self.bytes(Array(repeating: 0, count: 64 * 1024 + 1))]) == "option \"message\" must be 1 to 65536 bytes")
        #expect(Self.refusal(["message": Self.bytes([0xD1, 0x01, 0x09, 0x55])])?.hasPrefix("option \"message\" is not a well-formed message") == true)
        #expect(Self.refusal(["message": .string("https://example.com/")]) == "option \"message\" must be bytes (ay)")
        #expect(Self.refusal(["message": .array(elementSignature: "u", [.uint32(1)])]) == "option \"message\" must be bytes (ay)")
        #expect(Self.refusal(["erase": .boolean(true), "password": Self.bytes([1, 2, 3])]) == "option \"password\" must be 4 bytes")
        #expect(Self.refusal(["uri": .string("https://example.com/\n")]) == "option \"uri\" must be one line without control characters")
        #expect(Self.refusal(["uri": .string(String(repeating: "a", count: 8193))]) == "option \"uri\" must be at most 8192 bytes")
        #expect(Self.refusal(["uri": .string("")])?.contains("must not be empty") == true)
        #expect(Self.refusal(["text": .string("hi"), "text-language": .string("en GB")])?.hasPrefix("option \"text-language\" must be a language code") == true)
        #expect(Self.refusal(["erase": .string("yes")]) == "option \"erase\" must be a boolean (b)")
        #expect(Self.refusal(["erase": .boolean(true), "timeout": .uint32(0)]) == "option \"timeout\" must be between 1 and 3600 seconds")
        #expect(Self.refusal(["erase": .boolean(true), "multiple": .boolean(true)])?.hasPrefix("option \"multiple\" is not an option of StartWriteSession") == true)
        // Several faults: always the first in key order.
        for _ in 0..<20 {
            #expect(Self.refusal(["uri": .int32(1), "erase": .string("x"), "password": .string("p"), "zz": .boolean(true)]) == "option \"erase\" must be a boolean (b)")
        }
    }

    @Test func theBusAdapterDecodesStartAndCancel() {
        let start = APICalls.request(path: ScannerAPI.path, interface: ScannerAPI.interface, member: "StartWriteSession",
                                     signature: "a{sv}", arguments: [.vardict(["uri": .string("https://example.com/new"), "object": .string("poster")])])
        #expect(start == .success(.startWrite(Self.link)))
        let wrongSignature = APICalls.request(path: ScannerAPI.path, interface: ScannerAPI.interface, member: "StartWriteSession",
                                              signature: "s", arguments: [.string("https://example.com/")])
        #expect(wrongSignature == .failure(.init(name: ScannerAPI.ErrorName.invalidArgs, message: "StartWriteSession takes options (a{sv})")))
        #expect(APICalls.request(path: ScannerAPI.writesPath + "/3", interface: ScannerAPI.writeSessionInterface, member: "Cancel",
                                 signature: "", arguments: []) == .success(.cancelWrite(session: 3)))
        if case .failure(let refusal) = APICalls.request(path: ScannerAPI.writesPath + "/3", interface: ScannerAPI.writeSessionInterface,
                                                         member: "Invalidate", signature: "s", arguments: [.string("")]) {
            #expect(refusal.name == BusMethodCall.unknownMethod)
        } else {
            Issue.record("Invalidate is not a method of a write session")
        }
    }

    // MARK: The session

    static func ended(_ effects: [DaemonEffect]) -> (owner: String?, ending: String, message: String, details: [String: DBusValue])? {
        for case .signal(_, ScannerAPI.writeSessionInterface, "Ended", let arguments, let owner) in effects {
            guard arguments.count == 3, let ending = arguments[0].stringValue, let message = arguments[1].stringValue,
                  let details = arguments[2].stringKeyedValue else { return nil }
            return (owner, ending, message, details)
        }
        return nil
    }

    @Test func aWriteSessionArmsTheNextObjectAndEndsWithTheOutcome() {
        var rig = Rig()
        let start = rig.request(.startWrite(Self.link), from: ":1.30")
        let path = ScannerAPI.writesPath + "/1"
        #expect(Rig.answer(start.effects, start.call) == .values([.objectPath(path)]))
        guard case .publish(let object)? = start.effects.first(where: { if case .publish = $0 { true } else { false } }) else {
            Issue.record("no object: \(start.effects)"); return
        }
        #expect(object.kind == .writeSession && object.owner == ":1.30" && object.interface == ScannerAPI.writeSessionInterface)
        #expect(object.properties["AlertMessage"] == .string("Hold the poster near the reader to save the link."))
        #expect(object.properties["Action"] == .string("save-link"))
        #expect(start.effects.contains(.armWrite(session: 1, Self.link.write)))
        #expect(start.effects.contains(.armTimer(.sessionTimeout(1), after: .seconds(60))))
        #expect(start.effects.contains(.update(path: path, interface: ScannerAPI.writeSessionInterface, ["State": .string("active")])))
        #expect(rig.paused == ["scan-session"], "background reading pauses as for a scan sheet")

        // An object read before the write was armed is neither offered nor the session's.
        let early = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/old"))))
        #expect(!early.contains { if case .notify = $0 { true } else if case .signal = $0 { true } else { false } })
        #expect(!rig.send(.reading(generation: 1, .reading)).contains { if case .update = $0 { true } else { false } })

        let writing = rig.send(.reading(generation: 1, .writing(session: 1)))
        #expect(writing.contains(.confirmWrite(session: 1, go: true)))
        #expect(writing.contains(.cancelTimer(.sessionTimeout(1))), "the write is bounded by the link, not the session's clock")
        #expect(writing.contains(.update(path: path, interface: ScannerAPI.writeSessionInterface,
                                         ["State": .string("writing"), "AlertMessage": .string("Saving to the poster. Keep it still.")])))
        let cancel = rig.request(.cancelWrite(session: 1), from: ":1.30")
        #expect(Rig.answer(cancel.effects, cancel.call) == .error(name: ScannerAPI.ErrorName.busy,
                                                                  message: "the object is being written; the session ends with the outcome in a moment"))

        let done = rig.send(.reading(generation: 1, .written(session: 1, WriteResult(ending: .done, report: TagWriteReport(roundTrips: 9), written: true))))
        let ended = Self.ended(done)
        #expect(ended?.owner == ":1.30" && ended?.ending == "done" && ended?.message == "Saved. You can take the poster away.")
        #expect(ended?.details == ["written": .boolean(true), "locked": .boolean(false), "round-trips": .uint32(9),
                                   "changed": .boolean(true), "formatted": .boolean(false)])
        #expect(done.contains(.disarmWrite(session: 1)) && done.contains(.unpublish(path: path)))
        #expect(rig.paused == [], "background reading resumes")
        #expect(rig.core.sessions.all.isEmpty)
    }

    @Test func aScanAndAWriteNeverRunTogether() {
        var rig = Rig()
        _ = rig.request(.startSession(ScanSessionOptions()), from: ":1.20")
        let write = rig.request(.startWrite(Self.link), from: ":1.30")
        #expect(!write.effects.contains { if case .armWrite = $0 { true } else { false } }, "it waits behind the scan")
        #expect(!write.effects.contains { if case .armTimer = $0 { true } else { false } }, "its clock does not run while it waits")
        let scanned = rig.send(.reading(generation: 1, .scanned(Rig.object(uri: "https://example.com/poster"))))
        #expect(scanned.contains { if case .signal(_, ScannerAPI.sessionInterface, "Detected", _, ":1.20") = $0 { true } else { false } })
        #expect(scanned.contains(.armWrite(session: 2, Self.link.write)), "the scan ended (first read): the write is next")
        // And a scan waits behind a write.
        let scan = rig.request(.startSession(ScanSessionOptions()), from: ":1.20")
        #expect(!scan.effects.contains { if case .armTimer = $0 { true } else { false } })
        let failed = rig.send(.reading(generation: 1, .written(session: 2, WriteResult(ending: .tooLarge, error: .refused(.doesNotFit(needed: 200, available: 142))))))
        #expect(Self.ended(failed)?.ending == "too-large" && Self.ended(failed)?.message == "That's too much for the poster to hold.")
        #expect(Self.ended(failed)?.details["error"] == .string("refused: message needs 200 bytes, 142 free"))
        #expect(failed.contains(.armTimer(.sessionTimeout(3), after: .seconds(60))), "the scan waiting becomes active")
    }

    @Test func onlyItsAppControlsItAndItsLeavingCancelsIt() {
        var rig = Rig()
        _ = rig.request(.startWrite(Self.link), from: ":1.30")
        let foreign = rig.request(.cancelWrite(session: 1), from: ":1.99")
        #expect(Rig.answer(foreign.effects, foreign.call) == .error(name: ScannerAPI.ErrorName.accessDenied,
                                                                   message: "only the app that started write session 1 may use it"))
        let asScan = rig.request(.invalidate(session: 1, message: ""), from: ":1.30")
        if case .error(let name, _)? = Rig.answer(asScan.effects, asScan.call) { #expect(name == "org.freedesktop.DBus.Error.UnknownObject") }
        let unknown = rig.request(.cancelWrite(session: 7), from: ":1.30")
        if case .error(let name, _)? = Rig.answer(unknown.effects, unknown.call) { #expect(name == "org.freedesktop.DBus.Error.UnknownObject") }
        #expect(rig.core.sessions.active?.id == 1)

        let gone = rig.send(.peerGone(":1.30"))
        #expect(Self.ended(gone) == nil, "nobody left to tell")
        #expect(gone.contains(.disarmWrite(session: 1)) && gone.contains(.unpublish(path: ScannerAPI.writesPath + "/1")))
        #expect(rig.core.sessions.all.isEmpty && rig.paused == [])
        // Its write, had it begun, ends with nobody to tell.
        #expect(Self.ended(rig.send(.reading(generation: 1, .written(session: 1, WriteResult(ending: .done))))) == nil)
    }

    @Test func cancelTimeoutStopAndAirplaneModeEndItWithTheirSentences() {
        var rig = Rig()
        _ = rig.request(.startWrite(Self.link), from: ":1.30")
        let cancel = rig.request(.cancelWrite(session: 1), from: ":1.30")
        #expect(Rig.answer(cancel.effects, cancel.call) == .values([]))
        #expect(Self.ended(cancel.effects)?.ending == "user-canceled")
        #expect(Self.ended(cancel.effects)?.message == "Canceled. The poster wasn't changed.")

        var chinese = Self.link
        chinese.session.language = .simplifiedChinese
        _ = rig.request(.startWrite(chinese), from: ":1.30")
        let timeout = rig.send(.timerFired(.sessionTimeout(2)))
        #expect(Self.ended(timeout)?.ending == "timeout")
        #expect(Self.ended(timeout)?.message == ScanCopy.writeCatalog(for: .simplifiedChinese, object: "poster").writeEnded(.timedOut, .save(.link)))
        #expect(timeout.contains(.disarmWrite(session: 2)))

        _ = rig.request(.startWrite(Self.link), from: ":1.30")
        let airplane = rig.send(.condition(.rfkill, holds: true))
        #expect(Self.ended(airplane)?.ending == "radio-disabled")
        let refused = rig.request(.startWrite(Self.link), from: ":1.30")
        if case .error(let name, _)? = Rig.answer(refused.effects, refused.call) { #expect(name == ScannerAPI.ErrorName.radioDisabled) }
        rig.send(.condition(.rfkill, holds: false))

        _ = rig.request(.startWrite(Self.link), from: ":1.30")
        #expect(Self.ended(rig.send(.stop))?.ending == "terminated")
    }

    /// The readers restarted while the object was being written (a condition, RestartPolling of
    /// nobody): the write's outcome, from the older generation, still ends the session.
    @Test func anOutcomeFromAnEarlierGenerationStillEndsIt() {
        var rig = Rig()
        _ = rig.request(.startWrite(Self.link), from: ":1.30")
        rig.send(.reading(generation: 1, .writing(session: 1)))
        _ = rig.request(.inhibit(who: "Wallet", why: ""))
        #expect(rig.core.reading.running, "a session keeps the readers open")
        let done = rig.send(.reading(generation: 0, .written(session: 1, WriteResult(ending: .movedAwayTooSoon, error: .link(.objectRemoved(roundTrips: 3))))))
        #expect(Self.ended(done)?.ending == "moved-away")
        #expect(Self.ended(done)?.message == "The poster moved away too soon. Try again.")
    }

    /// The session timed out (or was canceled) after background reading took its write but before
    /// the loop heard of it: the write is called off and the object read as any other, so no app is
    /// told "timeout" of an object then written. Background reading always gets an answer.
    @Test func aWriteTakenAsTheSessionEndsIsCalledOff() {
        var rig = Rig()
        _ = rig.request(.startWrite(Self.link), from: ":1.30")
        let timeout = rig.send(.timerFired(.sessionTimeout(1)))
        #expect(Self.ended(timeout)?.ending == "timeout")
        let late = rig.send(.reading(generation: 1, .writing(session: 1)))
        #expect(late.contains(.confirmWrite(session: 1, go: false)))
        #expect(!late.contains { if case .update = $0 { true } else { false } })
        #expect(rig.send(.reading(generation: 7, .writing(session: 9))).contains(.confirmWrite(session: 9, go: false)))
        // A second take for the same session while it writes is refused too.
        _ = rig.request(.startWrite(Self.link), from: ":1.30")
        #expect(rig.send(.reading(generation: 1, .writing(session: 2))).contains(.confirmWrite(session: 2, go: true)))
        #expect(rig.send(.reading(generation: 1, .writing(session: 2))).contains(.confirmWrite(session: 2, go: false)))
    }

    /// The slot between the loop and background reading: taken once, dropped by its own session
    /// only, answered whether the answer comes before or after the taker waits, and refused once
    /// the loop has ended.
    @Test func theArmedWriteIsTakenOnceAndAnswered() async {
        let slot = ArmedWrite()
        slot.arm(1, Self.link.write)
        slot.disarm(2)
        #expect(slot.take()?.session == 1)
        #expect(slot.take() == nil, "taken once")
        slot.arm(3, Self.link.write)
        slot.disarm(3)
        #expect(slot.take() == nil)
        slot.confirm(1, true)
        #expect(await slot.confirmation(for: 1), "answered before the taker waited")
        async let waited = slot.confirmation(for: 4)
        // The answer may come before or after the wait begins: both give it.
        slot.confirm(4, false)
        #expect(await waited == false)
        async let last = slot.confirmation(for: 5)
        slot.close()
        #expect(await last == false, "the loop ended: refused")
        slot.arm(6, Self.link.write)
        #expect(slot.take() == nil)
    }

    @Test func theQueueIsBoundedForWritesToo() {
        var rig = Rig()
        for index in 0...ScanSessionQueue.maximumWaiting { _ = rig.request(.startWrite(Self.link), from: ":1.\(40 + index)") }
        let refused = rig.request(.startWrite(Self.link), from: ":1.99")
        #expect(Rig.answer(refused.effects, refused.call) == .error(name: ScannerAPI.ErrorName.systemBusy,
                                                                   message: "16 sessions are waiting already; try again later"))
    }
}
