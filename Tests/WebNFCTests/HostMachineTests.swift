import AppIdentity
import NDEFReport
import Testing
@testable import WebNFC

/// One page's sessions, as the web host decides them.
@Suite struct HostMachineTests {
    let site = WebOrigin("https://example.com")!

    func machine(focused: Bool = true) -> HostMachine {
        var machine = HostMachine()
        _ = machine.handle(.page(.hello(origin: site, language: "en")))
        _ = machine.handle(.page(.focus(active: focused, visible: focused)))
        return machine
    }

    static let report = ReportValue.object([
        .init("records", .array([])), .init("object", .object([.init("uid", .string("0411"))])),
    ])

    @Test func aScanResolvesOnceTheSessionIsActiveAndDeliversReadings() {
        var machine = machine()
        #expect(machine.handle(.page(.scan(id: 1))) == [.startScan(session: 1, origin: site, language: "en")])
        #expect(machine.handle(.scanActive(session: 1)) == [.send(.started(id: 1))])
        #expect(machine.handle(.scanDetected(session: 1, Self.report)) == [.send(.reading(id: 1, serialNumber: "04:11", records: []))])
        #expect(machine.handle(.scanReadFailed(session: 1)) == [.send(.readingError(id: 1))])
        // A timeout is nfcscand's bound, not the page's: the scan goes on in a new session.
        #expect(machine.handle(.scanEnded(session: 1, reason: "timeout")) == [.startScan(session: 2, origin: site, language: "en")])
        #expect(machine.handle(.scanActive(session: 2)) == [])
    }

    @Test func nothingStartsBeforeThePageIsVisibleAndFocused() {
        var machine = machine(focused: false)
        #expect(machine.handle(.page(.scan(id: 1))) == [])
        #expect(machine.handle(.page(.focus(active: true, visible: true))) == [.startScan(session: 1, origin: site, language: "en")])
    }

    @Test func aHiddenPageStopsReceivingAtOnceAndResumesWhenBack() {
        var machine = machine()
        _ = machine.handle(.page(.scan(id: 1)))
        _ = machine.handle(.scanActive(session: 1))
        // Losing the focus alone (to nfcscand's sheet) keeps the session.
        #expect(machine.handle(.page(.focus(active: false, visible: true))) == [])
        #expect(machine.handle(.page(.focus(active: false, visible: false))) == [.stopScan(session: 1)])
        #expect(machine.handle(.scanDetected(session: 1, Self.report)) == [])
        #expect(machine.handle(.scanEnded(session: 1, reason: "user-canceled")) == [])
        #expect(machine.handle(.page(.focus(active: true, visible: true))) == [.startScan(session: 2, origin: site, language: "en")])
    }

    @Test func aWritePausesTheScanAndRunsAlone() {
        var machine = machine()
        _ = machine.handle(.page(.scan(id: 1)))
        _ = machine.handle(.scanActive(session: 1))
        let records = [WebRecord(recordType: "text", lang: "en", data: [0x41])]
        let actions = machine.handle(.page(.write(id: 2, records: records, overwrite: true)))
        #expect(actions.first == .stopScan(session: 1))
        guard case .startChange(2, .write(let bytes, true), _, _)? = actions.last else {
            Issue.record("\(actions)")
            return
        }
        #expect(bytes == [0xd1, 0x01, 0x04, 0x54, 0x02, 0x65, 0x6e, 0x41])
        #expect(machine.handle(.changeEnded(session: 2, ending: "done")) == [.send(.done(id: 2)), .startScan(session: 3, origin: site, language: "en")])
    }

    @Test func endingsBecomeTheSpecificationsErrors() {
        var machine = machine()
        _ = machine.handle(.page(.makeReadOnly(id: 5)))
        #expect(machine.handle(.changeEnded(session: 1, ending: "read-only")) ==
            [.send(.error(id: 5, name: .notAllowed, message: "the object is read-only"))])
        _ = machine.handle(.page(.scan(id: 6)))
        #expect(machine.handle(.sessionRefused(session: 2, error: "org.freedesktop.DBus.Error.AccessDenied")) ==
            [.send(.error(id: 6, name: .notAllowed, message: "the person did not allow this site to use the reader"))])
        #expect(machine.handle(.page(.write(id: 7, records: [WebRecord(recordType: ":x", data: [1])], overwrite: true))).first.map {
            if case .send(.error(7, .typeError, _)) = $0 { true } else { false }
        } == true)
    }

    @Test func aPageMayHaveOnlyAFewChangesWaiting() {
        var machine = machine(focused: false)
        for id in 1...HostMachine.maximumPendingChanges { #expect(machine.handle(.page(.makeReadOnly(id: id))) == []) }
        #expect(machine.handle(.page(.makeReadOnly(id: 99))) ==
            [.send(.error(id: 99, name: .invalidState, message: "this page has \(HostMachine.maximumPendingChanges) changes waiting already"))])
    }

    @Test func anAbortedOperationEndsItsSessionUnreported() {
        var machine = machine()
        _ = machine.handle(.page(.scan(id: 1)))
        #expect(machine.handle(.page(.cancel(id: 1))) == [.stopScan(session: 1)])
        _ = machine.handle(.page(.makeReadOnly(id: 2)))
        #expect(machine.handle(.page(.cancel(id: 2))) == [.cancelChange(session: 2)])
        #expect(machine.handle(.changeEnded(session: 2, ending: "user-canceled")) == [])
    }

    @Test func aSecondScanIsAnInvalidStateAndTheProtocolIsKept() {
        var machine = machine()
        _ = machine.handle(.page(.scan(id: 1)))
        #expect(machine.handle(.page(.scan(id: 2))) == [.send(.error(id: 2, name: .invalidState, message: "this page scans already"))])
        #expect(machine.handle(.page(.hello(origin: site, language: nil))) == [.exit("hello came twice")])
        var fresh = HostMachine()
        #expect(fresh.handle(.page(.scan(id: 1))) == [.exit("the first message was not hello")])
    }
}
