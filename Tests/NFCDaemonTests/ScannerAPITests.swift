import DBusValues
import NFCBusAPI
import NFCCopy
import NFCObjects
import TestSupport
import Logging
import NFCDaemon
import NFCScanKit
import ServiceLifecycle
import Systemd
import Testing

/// The daemon's D-Bus API against a real dbus-daemon, with no reader (so no object ever arrives):
/// what apps are told when they register, unregister and read the state.
@Suite(.serialized) struct ScannerAPITests {
    /// A daemon serving on a private bus, and a second connection playing the app.
    struct Running {
        let bus: PrivateBus
        let daemonBus: BusConnection
        let daemon: Daemon
        let app: BusConnection
        let runner: Task<Void, Never>

        init() async throws {
            bus = try PrivateBus()
            daemonBus = try BusConnection.connect(address: bus.address)
            daemon = Daemon(bus: daemonBus, configuration: .init(readers: ReaderDirectory(providers: [])),
                            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
            try daemon.start()
            let daemon = daemon
            runner = Task { await daemon.run() }
            app = try BusConnection.connect(address: bus.address)
        }

        func call(_ member: String, _ arguments: [DBusValue], from connection: BusConnection? = nil,
                  interface: String = ScannerAPI.interface) async throws(BusError) -> [DBusValue] {
            try await (connection ?? app).call(destination: ScannerAPI.busName, path: ScannerAPI.path,
                                               interface: interface, member: member, arguments)
        }

        func register(_ options: [String: DBusValue], from connection: BusConnection? = nil) async throws(BusError) -> [DBusValue] {
            try await call("RegisterHandler", [.objectPath("/org/example/Handler"), .vardict(options)], from: connection)
        }

        func stop() async {
            daemon.stop()
            await runner.value
            app.close()
            daemonBus.close()
        }
    }

    static func filters(_ filters: [[String: String]]) -> DBusValue {
        .array(elementSignature: "a{sv}", filters.map { .vardict($0.mapValues(DBusValue.string)) })
    }

    @Test func registrationsAreNumberedAndRefusalsNameTheOption() async throws {
        let running = try await Running()
        let good: [String: DBusValue] = ["app-name": .string("Posters"),
                                         "filters": Self.filters([["uri-scheme": "https", "uri-host": "example.com"]])]
        #expect(try await running.register(good) == [.uint32(1)])
        #expect(try await running.register(good) == [.uint32(2)])

        await #expect(throws: BusError.remote(name: ScannerAPI.ErrorName.invalidArgs, message: "option \"app-name\" (s) is required")) {
            try await running.register(["filters": Self.filters([["uri-scheme": "https"]])])
        }
        do {
            _ = try await running.register(["app-name": .string("Bad"), "filters": Self.filters([["media-type": "text"]])])
            Issue.record("a media type without a subtype was accepted")
        } catch {
            #expect(error.remoteName == ScannerAPI.ErrorName.invalidArgs)
            #expect("\(error)".contains("filter 0: media-type"))
        }
        await #expect(throws: BusError.remote(name: ScannerAPI.ErrorName.invalidArgs, message: "filter 0: \"uri-scheme\" must be a string")) {
            try await running.register(["app-name": .string("Bad"),
                                        "filters": .array(elementSignature: "a{sv}", [.vardict(["uri-scheme": .int32(1)])])])
        }
        await running.stop()
    }

    @Test func onlyTheRegisteringConnectionMayUnregister() async throws {
        let running = try await Running()
        let other = try BusConnection.connect(address: running.bus.address)
        defer { other.close() }
        let id = try await running.register(["app-name": .string("Posters"), "filters": Self.filters([["uri-scheme": "https"]])])
        do {
            _ = try await running.call("UnregisterHandler", id, from: other)
            Issue.record("another connection unregistered the handler")
        } catch {
            #expect(error.remoteName == ScannerAPI.ErrorName.accessDenied)
        }
        #expect(try await running.call("UnregisterHandler", id) == [])
        await #expect(throws: BusError.self) { try await running.call("UnregisterHandler", id) }
        await running.stop()
    }

    @Test func stateIsReadable() async throws {
        let running = try await Running()
        let all = try await running.call("GetAll", [.string(ScannerAPI.interface)], interface: "org.freedesktop.DBus.Properties")
        let properties = all.first?.stringKeyedValue
        #expect(properties?["BackgroundReading"] == .boolean(false))
        #expect(properties?["PausedReasons"] == .strings(["no-reader"]))
        #expect(properties?["Version"] == .string(ScannerAPI.version))
        await #expect(throws: BusError.self) {
            try await running.call("Set", [.string(ScannerAPI.interface), .string("BackgroundReading"), .variant(.boolean(true))],
                                   interface: "org.freedesktop.DBus.Properties")
        }
        let objects = try await running.call("GetManagedObjects", [], interface: "org.freedesktop.DBus.ObjectManager")
        #expect(objects == [.dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", [])])
        await running.stop()
    }

    @Test func aSessionWithNoReaderEndsAsUnavailableAndOptionsAreChecked() async throws {
        let running = try await Running()
        let (stream, continuation) = AsyncStream.makeStream(of: BusSignal.self)
        let match = try running.app.addMatch("type='signal',interface='\(ScannerAPI.sessionInterface)'") { continuation.yield($0) }
        defer { match.cancel() }
        let reply = try await running.call("StartScanSession", [.vardict(["object": .string("badge")])])
        guard case .objectPath(let path)? = reply.first else { Issue.record("no session path: \(reply)"); return }
        var signals = stream.makeAsyncIterator()
        let ended = await signals.next()
        #expect(ended?.path == path)
        #expect(ended?.member == "Invalidated")
        #expect(ended?.arguments == [.string("unavailable"), .string(ScanCopy.catalog(object: "badge").noReader)])

        // The app chooses the language of what its session says.
        _ = try await running.call("StartScanSession", [.vardict(["object": .string("badge"), "language": .string("zh_CN.UTF-8")])])
        let chinese = await signals.next()
        #expect(chinese?.arguments == [.string("unavailable"), .string("未找到读卡器。请连接读卡器后重试。")])

        for (options, refusal) in [
            (["timeout": DBusValue.uint32(0)], "option \"timeout\" must be between 1 and 3600 seconds"),
            (["multiple": .string("yes")], "option \"multiple\" must be a boolean (b)"),
            (["colour": .string("red")], "option \"colour\" is not an option of StartScanSession (object, multiple, alert-message, timeout, language, origin, password)"),
            (["password": .array(elementSignature: "y", [.byte(1), .byte(2)])], "option \"password\" must be 4 bytes"),
            (["password": .string("1a2b3c4d")], "option \"password\" must be bytes (ay)"),
            (["language": .string("fr_FR")], "option \"language\" names no supported language (en, zh-Hans)"),
        ] {
            await #expect(throws: BusError.remote(name: ScannerAPI.ErrorName.invalidArgs, message: refusal)) {
                try await running.call("StartScanSession", [.vardict(options)])
            }
        }
        await running.stop()
    }

    /// The Swift face: the session as an async sequence, ending with the daemon's reason.
    @Test func theSwiftClientSeesTheSessionEnd() async throws {
        let running = try await Running()
        let session = try await DaemonScanSession.start(.init(object: "badge", language: .english), on: running.app)
        #expect(session.objectPath.hasPrefix(ScannerAPI.sessionsPath + "/"))
        var last: DaemonScanSession.Event?
        for await event in session { last = event }
        #expect(last == .ended(reason: "unavailable", message: ScanCopy.catalog(object: "badge").noReader))
        #expect(await DaemonScanSession.daemonIsRunning(on: running.app))
        await running.stop()
        #expect(await DaemonScanSession.daemonIsRunning(on: running.app) == false)
    }
}

extension ScannerAPITests {
    /// The Swift face of write sessions: the end with the daemon's code and sentence (no reader
    /// here: unavailable);
    /// a refusal comes back as the daemon's error naming the option.
    @Test func theSwiftWriteClientSeesThePromptAndTheEnd() async throws {
        let running = try await Running()
        let session = try await DaemonWriteSession.start(.init(.link("https://example.com/poster"), object: "poster", language: .english),
                                                         on: running.app)
        #expect(session.objectPath.hasPrefix(ScannerAPI.writesPath + "/"))
        var events: [DaemonWriteSession.Event] = []
        for await event in session { events.append(event) }
        // It ends at once (no reader), so the prompt may be gone before it is asked for.
        #expect(events.dropLast().allSatisfy { $0 == .alertMessage("Hold the poster near the reader to save the link.") })
        #expect(events.last == .ended(.init(code: "unavailable", message: ScanCopy.catalog(object: "poster").noReader, written: false,
                                            locked: false, error: nil)))
        var password = ObjectWrite.erase()
        password.options.password = [1, 2, 3]
        await #expect(throws: BusError.remote(name: ScannerAPI.ErrorName.invalidArgs, message: "option \"password\" must be 4 bytes")) {
            _ = try await DaemonWriteSession.start(.init(password), on: running.app)
        }
        await running.stop()
    }
}

/// nfcscand's service group as main.swift builds it, on a private bus.
@Suite(.serialized) struct DaemonServiceGroupTests {
    /// The watchdog only asks: each heartbeat is an input the loop handles (the core answers it
    /// with the ping). A graceful shutdown stops the watches, the daemon, the watchdog and closes
    /// the bus, in that order, and the group returns without an error (nfcscand exits 0).
    @Test func heartbeatsGoThroughTheLoopAndAGracefulShutdownEndsTheGroup() async throws {
        let bus = try PrivateBus()
        let daemonBus = try BusConnection.connect(address: bus.address)
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let daemon = Daemon(bus: daemonBus, configuration: .init(readers: ReaderDirectory(providers: [])), logger: logger)
        let watches = try daemon.start()
        #expect(!watches.isEmpty, "the session bus's sources (the desktop's airplane mode, the screensaver) are watched")
        let watchdog = try #require(WatchdogService(daemon: daemon, interval: .milliseconds(20)))
        #expect(WatchdogService(daemon: daemon, interval: nil) == nil, "no WATCHDOG_USEC: nothing to feed")
        let group = ServiceGroup(services: [BusService(daemonBus), watchdog, daemon] + watches, logger: logger)
        let running = Task { try await group.run() }
        let before = daemon.statistics.inputs.load(ordering: .relaxed)
        // Waited for, not slept: on a loaded machine the group may take a while to start.
        let deadline = ContinuousClock.now + .seconds(10)
        while daemon.statistics.inputs.load(ordering: .relaxed) - before < 5, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(daemon.statistics.inputs.load(ordering: .relaxed) - before >= 5, "heartbeats reached the loop")
        let app = try BusConnection.connect(address: bus.address)
        defer { app.close() }
        let state = try await app.call(destination: ScannerAPI.busName, path: ScannerAPI.path, interface: "org.freedesktop.DBus.Properties",
                                       member: "Get", [.string(ScannerAPI.interface), .string("BackgroundReading")])
        #expect(!state.isEmpty, "the daemon answers while the group runs")
        await group.triggerGracefulShutdown()
        try await running.value
        await #expect(throws: BusError.self) {
            _ = try await daemonBus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                         interface: "org.freedesktop.DBus", member: "GetId")
        }
    }
}
