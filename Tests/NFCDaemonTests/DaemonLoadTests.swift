import Foundation
import Logging
import NFCBusAPI
import NFCDaemon
import NFCScanKit
import Synchronization
import Systemd
import TestSupport
import Testing

/// The whole runtime under load, in one process: a real dbus-daemon, nfcscand's `Daemon`, a
/// notification server and an app on connections of their own, and a simulated reader whose
/// virtual objects the real tag protocol reads. Ten thousand objects are offered and delivered;
/// resident memory and what the runtime holds are printed at 1,000 and 10,000 and must stay flat.
@Suite(.serialized) struct DaemonLoadTests {
    /// A notification server that "chooses" every offer: it answers Notify, and when the daemon
    /// reports the offer made (through the observer seam) it sends ActionInvoked for it, as a
    /// person clicking would.
    final class ChoosingServer: DaemonObserver, Sendable {
        let connection: BusConnection
        private let nextID = Atomic<UInt32>(1)
        private let subscription = Mutex<BusSubscription?>(nil)

        init(address: String) throws {
            connection = try BusConnection.connect(address: address)
        }

        func serve() throws {
            let exported = try connection.exportSubtree("/org/freedesktop/Notifications") { [self] call in
                switch call.member {
                case "Notify": call.reply([.uint32(nextID.wrappingAdd(1, ordering: .relaxed).oldValue)])
                case "GetCapabilities": call.reply([.strings(["actions", "body"])])
                case "CloseNotification": call.reply()
                default: call.fail(BusMethodCall.unknownMethod, call.member)
                }
            }
            subscription.withLock { $0 = exported }
            try connection.requestName("org.freedesktop.Notifications")
        }

        func observe(_ observation: DaemonObservation) {
            guard case .offered(let id, _) = observation else { return }
            try? connection.emitSignal(path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
                                       member: "ActionInvoked", [.uint32(id), .string("default")])
        }
    }

    /// An app taking every object; `delivered` yields the count after each.
    final class App: Sendable {
        let connection: BusConnection
        let delivered: AsyncStream<Int>
        private let sink: AsyncStream<Int>.Continuation
        private let count = Atomic<Int>(0)
        private let subscription = Mutex<BusSubscription?>(nil)

        init(address: String) throws {
            connection = try BusConnection.connect(address: address)
            (delivered, sink) = AsyncStream.makeStream(of: Int.self)
        }

        func register() async throws {
            let exported = try connection.exportSubtree("/org/example/Handler") { [self] call in
                call.reply()
                sink.yield(count.add(1, ordering: .relaxed).newValue)
            }
            subscription.withLock { $0 = exported }
            _ = try await connection.call(destination: ScannerAPI.busName, path: ScannerAPI.path, interface: ScannerAPI.interface,
                                          member: "RegisterHandler", [
                                              .objectPath("/org/example/Handler"),
                                              .vardict(["app-name": .string("Posters"),
                                                        "filters": .array(elementSignature: "a{sv}",
                                                                          [.vardict(["uri-scheme": .string("https")])])]),
                                          ])
        }
    }

    static func residentKiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    @Test func tenThousandObjectsOfferedAndDeliveredLeaveNothingBehind() async throws {
        let bus = try PrivateBus()
        let server = try ChoosingServer(address: bus.address)
        try server.serve()
        let reader = SimulatedReader()
        let daemonBus = try BusConnection.connect(address: bus.address)
        let daemon = Daemon(bus: daemonBus, configuration: .init(
            readers: ReaderDirectory(providers: [SimulatedReaderProvider(reader: reader)]), observers: [server]),
            logger: Logger(label: "load") { _ in SwiftLogNoOpLogHandler() })
        try daemon.start()
        let runner = Task { await daemon.run() }
        let app = try App(address: bus.address)
        try await app.register()
        var deliveries = app.delivered.makeAsyncIterator()

        var figures: [(objects: Int, kib: Int, tasks: Int, timers: Int, calls: Int)] = []
        let clock = ContinuousClock()
        let started = clock.now
        for index in 1...10_000 {
            let uid: [UInt8] = [0x04, UInt8(index >> 16 & 0xFF), UInt8(index >> 8 & 0xFF), UInt8(index & 0xFF), 0x10, 0x20, 0x30]
            try reader.present(uri: "https://example.com/poster/\(index)", uid: uid)
            let count = await deliveries.next()
            #expect(count == index, "object \(index) delivered once, in order")
            reader.remove(uid: uid)
            if index == 1_000 || index == 10_000 {
                // The last delivery's effect has ended once its outcome was handled: settle on that.
                while daemon.statistics.tasks.load(ordering: .relaxed) > 1 { await Task.yield() }
                figures.append((index, Self.residentKiB(), daemon.statistics.tasks.load(ordering: .relaxed),
                                daemon.statistics.timers.load(ordering: .relaxed), daemon.pendingCalls))
            }
        }
        let elapsed = clock.now - started
        for figure in figures {
            print("daemon-load: \(figure.objects) objects: RSS \(figure.kib) KiB, live child tasks \(figure.tasks) (background reading: 1), timers \(figure.timers), calls waiting \(figure.calls)")
        }
        print("daemon-load: 10000 objects offered and delivered in \(elapsed)")
        #expect(figures[1].tasks == 1 && figures[1].timers == 0 && figures[1].calls == 0, "nothing left but background reading")
        #expect(figures[1].kib - figures[0].kib < 16 * 1024, "resident memory flat between 1,000 and 10,000 objects")

        daemon.stop()
        await runner.value
        app.connection.close()
        server.connection.close()
        daemonBus.close()
    }
}
