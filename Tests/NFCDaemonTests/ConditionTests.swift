import Foundation
import Glibc
import Logging
@testable import NFCDaemon
import NFCScanKit
import POSIXEvents
import ServiceLifecycle
import Testing

/// How the sources' words become each condition's state, the kernel's rfkill records, and the
/// kiosk configuration file.
@Suite struct ConditionBoardTests {
    @Test func aConditionWithoutAnAnsweringSourceIsUnknownAndNeverAPause() {
        var board = ConditionBoard()
        #expect(board.states == [.camera: .unknown, .airplaneMode: .unknown, .lockedAfterRestart: .unknown, .screenOff: .unknown])
        #expect(board.holding.isEmpty)
        let changed1 = board.record(.rfkill, holds: nil)
        #expect(changed1 == false)
        #expect(board.state(of: .airplaneMode) == .unknown)
    }

    @Test func anySourceSayingSoMakesItHoldAndItClearsWhenAllAnswerNo() {
        var board = ConditionBoard()
        let changed2 = board.record(.networkManager, holds: false)
        #expect(changed2)
        #expect(board.state(of: .airplaneMode) == .clear)
        let changed3 = board.record(.rfkill, holds: true)
        #expect(changed3)
        #expect(board.holding == [.airplaneMode])
        // NetworkManager leaving the bus does not clear what rfkill says.
        let changed4 = board.record(.networkManager, holds: nil)
        #expect(changed4 == false)
        #expect(board.holds(.airplaneMode))
        let changed5 = board.record(.rfkill, holds: false)
        #expect(changed5)
        #expect(board.state(of: .airplaneMode) == .clear)
        let changed6 = board.record(.rfkill, holds: nil)
        #expect(changed6)
        #expect(board.state(of: .airplaneMode) == .unknown)
    }

    @Test func screenOffHasTwoSourcesAndTheHoldingListKeepsTheCodesOrder() {
        var board = ConditionBoard()
        board.record(.screenSaver, holds: true)
        board.record(.logindIdle, holds: false)
        board.record(.camera, holds: true)
        #expect(board.holding == [.camera, .screenOff])
    }

    @Test func anIgnoredConditionStaysIgnoredWhateverItsSourcesSay() {
        var board = ConditionBoard(ignored: [.screenOff])
        let changed7 = board.record(.logindIdle, holds: true)
        #expect(changed7 == false)
        #expect(board.state(of: .screenOff) == .ignored)
        #expect(board.holding.isEmpty)
    }

    @Test func networkManagersAirplaneModeIsWifiAndMobileRadiosOff() {
        #expect(ConditionSources.radiosOff(["WirelessEnabled": .boolean(true), "WwanEnabled": .boolean(false)]) == false)
        #expect(ConditionSources.radiosOff(["WirelessEnabled": .boolean(false), "WwanEnabled": .boolean(true)]) == false)
        #expect(ConditionSources.radiosOff(["WirelessEnabled": .boolean(false), "WwanEnabled": .boolean(false)]) == true)
        #expect(ConditionSources.radiosOff(["WirelessEnabled": .boolean(true), "WirelessHardwareEnabled": .boolean(false),
                                  "WwanEnabled": .variant(.boolean(false))]) == true)
        #expect(ConditionSources.radiosOff([:]) == nil)
    }

    @Test func theDesktopsSwitchIsAirplaneModeSetByThePersonOrByHardware() {
        #expect(ConditionSources.desktopAirplaneMode(["AirplaneMode": .boolean(false), "HardwareAirplaneMode": .boolean(false)]) == false)
        #expect(ConditionSources.desktopAirplaneMode(["AirplaneMode": .variant(.boolean(true))]) == true)
        #expect(ConditionSources.desktopAirplaneMode(["AirplaneMode": .boolean(false), "HardwareAirplaneMode": .boolean(true)]) == true)
        #expect(ConditionSources.desktopAirplaneMode(["HasAirplaneMode": .boolean(true)]) == nil)
    }
}

@Suite struct RfkillTests {
    static func record(_ index: UInt32, type: UInt8, op: UInt8, soft: Bool, hard: Bool = false) -> [UInt8] {
        withUnsafeBytes(of: index.littleEndian, Array.init) + [type, op, soft ? 1 : 0, hard ? 1 : 0]
    }

    @Test func recordsDecodeAndUnknownOperationsAreSkipped() {
        #expect(RfkillWatch.Event(Self.record(3, type: 1, op: 2, soft: true)) ==
            RfkillWatch.Event(Self.record(3, type: 1, op: 2, soft: true)))
        let event = RfkillWatch.Event(Self.record(0x0102_0304, type: 5, op: 0, soft: false, hard: true))
        #expect(event?.index == 0x0102_0304 && event?.type == 5 && event?.operation == .add && event?.hard == true)
        #expect(RfkillWatch.Event(Self.record(1, type: 1, op: 9, soft: true)) == nil)
        #expect(RfkillWatch.Event([0, 0, 0]) == nil)
    }

    @Test func airplaneModeIsEveryRadioBlocked() {
        var radios: [UInt32: RfkillWatch.Radio] = [:]
        #expect(RfkillWatch.airplaneMode(radios) == false)
        for bytes in [Self.record(0, type: 1, op: 0, soft: false), Self.record(1, type: 2, op: 0, soft: false)] {
            RfkillWatch.apply(RfkillWatch.Event(bytes)!, to: &radios)
        }
        RfkillWatch.apply(RfkillWatch.Event(Self.record(0, type: 1, op: 2, soft: true))!, to: &radios)
        #expect(RfkillWatch.airplaneMode(radios) == false)
        RfkillWatch.apply(RfkillWatch.Event(Self.record(1, type: 2, op: 2, soft: false, hard: true))!, to: &radios)
        #expect(RfkillWatch.airplaneMode(radios) == true)
        RfkillWatch.apply(RfkillWatch.Event(Self.record(0, type: 0, op: 3, soft: false))!, to: &radios)
        #expect(RfkillWatch.airplaneMode(radios) == false, "CHANGE_ALL unblocks Wi-Fi; the switch still blocks Bluetooth")
        RfkillWatch.apply(RfkillWatch.Event(Self.record(0, type: 1, op: 1, soft: false))!, to: &radios)
        #expect(RfkillWatch.airplaneMode(radios) == true, "the one radio left is blocked")
    }

    /// The watch reads records as the kernel writes them (here into a FIFO), even split across writes.
    @Test func theWatchFollowsTheDevicesRecords() async throws {
        let path = NSTemporaryDirectory() + "nfcscan-rfkill-\(getpid())"
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let writer = open(path, O_RDWR | O_NONBLOCK)
        defer { close(writer) }
        let initial = Self.record(0, type: 1, op: 0, soft: true) + Self.record(1, type: 2, op: 0, soft: true)
        #expect(write(writer, initial, initial.count) == initial.count)
        let (states, continuation) = AsyncStream.makeStream(of: Bool?.self)
        let loop = try PollLoop()
        loop.start(name: "rfkill-test")
        defer { loop.cancel() }
        let watch = RfkillWatch(path: path, loop: loop, logger: Logger(label: "test")) { continuation.yield($0) }
        // Made, not running: the device is not even open yet (the writer holds the FIFO once).
        #expect(Self.descriptors(to: path) == 1)
        let running = Task { await watch.run() }
        var iterator = states.makeAsyncIterator()
        #expect(await iterator.next() == true, "both radios were blocked at open")
        #expect(Self.descriptors(to: path) == 2)
        let change = Self.record(1, type: 2, op: 2, soft: false)
        #expect(write(writer, change, 3) == 3)
        #expect(write(writer, Array(change[3...]), 5) == 5)
        #expect(await iterator.next() == false)
        running.cancel()
        await running.value
        // The loop closes the device once no poll uses it.
        for _ in 0..<100 where Self.descriptors(to: path) != 1 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(Self.descriptors(to: path) == 1, "the watch's descriptor went back to the loop when it ended")
        await #expect(throws: SourceUnavailable.self) {
            try await RfkillWatch(path: path + "-absent", loop: loop, logger: Logger(label: "test")) { _ in }.watch()
        }
    }

    /// How many of this process's descriptors are open on `path`.
    static func descriptors(to path: String) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path }.count
    }
}

/// The condition watches as nfcscand's service group runs them.
@Suite struct ConditionWatchServiceTests {
    /// A source this machine lacks leaves its condition unknown and must not end the group (that
    /// would stop nfcscand); a graceful shutdown then ends every watch and the group returns.
    @Test func anAbsentSourceWaitsForTheGroupAndAGracefulShutdownEndsEveryWatch() async throws {
        let directory = NSTemporaryDirectory() + "nfcscan-watches-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let loop = try PollLoop()
        loop.start(name: "watches-test")
        defer { loop.cancel() }
        let reports = LockedValue<[String]>([])
        let logger = Logger(label: "test")
        let camera = CameraWatch(pattern: directory + "/video*", loop: loop, logger: logger) { held in
            reports.withLock { $0.append("camera \(held.map(String.init) ?? "cannot tell")") }
        }
        let absent = RfkillWatch(path: directory + "/no-rfkill", loop: loop, logger: logger) { held in
            reports.withLock { $0.append("rfkill \(held.map(String.init) ?? "cannot tell")") }
        }
        #expect(reports.withLock { $0 }.isEmpty, "made, a watch reports nothing")
        let group = ServiceGroup(services: [camera, absent], logger: logger)
        let running = Task { try await group.run() }
        // The absent source says it cannot tell (so the daemon need not wait for it), then fails.
        for _ in 0..<200 where reports.withLock({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(Set(reports.withLock { $0 }) == ["camera false", "rfkill cannot tell"])
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(reports.withLock { $0 }.count == 2)
    }
}

@Suite struct DaemonSettingsTests {
    @Test func aKioskIgnoresConditionsAndCommentsAndBlankLinesAreFine() throws {
        let settings = try DaemonSettings.parse("""
            # a reception desk
            [background]

            ignore = screen-off ,locked-after-restart
            """)
        #expect(settings.ignoredConditions == [.screenOff, .lockedAfterRestart])
        #expect(try DaemonSettings.parse("[background]\nignore =\n").ignoredConditions.isEmpty)
    }

    @Test func mistakesNameTheLineAndWhatIsAllowed() {
        #expect(throws: DaemonSettings.Problem(path: "nfcscand.conf", line: 2,
                                               detail: "\"scan-session\" cannot be ignored; the conditions a kiosk may ignore are: camera, airplane-mode, locked-after-restart, screen-off")) {
            try DaemonSettings.parse("[background]\nignore = scan-session\n")
        }
        #expect(throws: DaemonSettings.Problem.self) { try DaemonSettings.parse("ignore = camera") }
        #expect(throws: DaemonSettings.Problem.self) { try DaemonSettings.parse("[foreground]") }
        #expect(throws: DaemonSettings.Problem.self) { try DaemonSettings.parse("[background]\nignored = camera") }
        #expect(throws: DaemonSettings.Problem.self) { try DaemonSettings.parse("[background]\njust words") }
    }

    @Test func aStationRefusesObjectsWhoseChipIsNotGenuineOnlyWhenTold() throws {
        #expect(try DaemonSettings.parse("").notGenuine == .report)
        #expect(try DaemonSettings.parse("[authenticity]\nnot-genuine = report\n").notGenuine == .report)
        #expect(try DaemonSettings.parse("[authenticity]\n# a shop's counter\nnot-genuine = refuse\n").notGenuine == .refuse)
        #expect(throws: DaemonSettings.Problem(path: "nfcscand.conf", line: 2, detail: "not-genuine is one of: report, refuse; not \"mark\"")) {
            try DaemonSettings.parse("[authenticity]\nnot-genuine = mark\n")
        }
        #expect(throws: DaemonSettings.Problem(path: "nfcscand.conf", line: 2, detail: "unknown setting genuine in [authenticity]; it has: not-genuine")) {
            try DaemonSettings.parse("[authenticity]\ngenuine = refuse\n")
        }
        #expect(throws: DaemonSettings.Problem.self) { try DaemonSettings.parse("[background]\nnot-genuine = refuse\n") }
        #expect(throws: DaemonSettings.Problem.self) { try DaemonSettings.parse("not-genuine = refuse\n") }
    }

    /// Found by fuzzing (target `config`): Swift reads "\r\n" as one Character, so a file with
    /// Windows line endings was one long line, and a comment on its first line hid every setting.
    @Test func windowsLineEndingsEndLinesToo() throws {
        let settings = try DaemonSettings.parse("# a reception desk\r\n[background]\r\nignore = screen-off\r\n")
        #expect(settings.ignoredConditions == [.screenOff])
        #expect(throws: DaemonSettings.Problem(path: "nfcscand.conf", line: 3, detail: "expected key = value, a [section] or a # comment")) {
            try DaemonSettings.parse("[background]\r\n\r\njust words\r\n")
        }
    }

    @Test func noFileMeansTheDefaultsAndTheFileIsFoundThroughXDG() throws {
        #expect(try DaemonSettings.load(from: "/nonexistent/nfcscand.conf") == DaemonSettings())
        #expect(DaemonSettings.defaultPath(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/a"]) == "/cfg/nfcscan/nfcscand.conf")
        #expect(DaemonSettings.defaultPath(environment: ["HOME": "/home/a"]) == "/home/a/.config/nfcscan/nfcscand.conf")
    }
}
