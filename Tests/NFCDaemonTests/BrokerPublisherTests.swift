import Foundation
import Logging
import Mosquitto
@testable import NFCDaemon
import NDEFReport
import ServiceLifecycle
import Synchronization
import Testing
import TestSupport

/// What a publisher reported of its state, in order.
final class StatusLog: Sendable {
    let reports = Mutex<[BrokerStatus]>([])
    var all: [BrokerStatus] { reports.withLock { $0 } }
}

/// The publisher against a real broker on loopback, observed by a subscriber with a persistent
/// session (it misses nothing across a broker restart).
@Suite("BrokerPublisher against a real broker", .serialized)
struct BrokerPublisherTests {
    static func report(uri: String) -> ReportValue {
        .object([.init("records", .array([.object([.init("kind", .string("uri")), .init("uri", .string(uri))])])),
                 .init("object", .object([]))])
    }

    struct Station {
        let broker: PrivateMosquitto
        let publisher: BrokerPublisher
        let group: ServiceGroup
        let running: Task<Void, any Error>
        let watcher: MosquittoClient
        let seen: MQTTEventLog
        let spool: String
        let statuses = StatusLog()

        init() async throws {
            broker = try PrivateMosquitto(persistent: true)
            var watching = MosquittoClient.Options(host: "127.0.0.1", port: broker.port, clientID: "watcher")
            watching.cleanSession = false
            watching.reconnectDelay = 1
            watching.reconnectDelayMaximum = 1
            watcher = try MosquittoClient(watching)
            watcher.start()
            seen = MQTTEventLog(watcher)
            #expect(await seen.wait { $0.contains(where: \.isAccepted) })
            try watcher.subscribe("#", qos: 1)
            spool = broker.directory + "/spool"
            let settings = try #require(try DaemonSettings.parse("""
                [broker]
                url = mqtt://127.0.0.1:\(broker.port)
                station = counter 2
                """).broker)
            publisher = BrokerPublisher(settings: settings, password: nil, spoolLocation: .init(path: spool), logger: Logger(label: "test"))
            let statuses = self.statuses
            publisher.reportStatus { status in statuses.reports.withLock { $0.append(status) } }
            group = ServiceGroup(configuration: .init(services: [publisher], logger: Logger(label: "test")))
            let group = self.group
            running = Task { try await group.run() }
        }

        func messages(on topic: String) -> [String] {
            seen.all.compactMap { $0.received }.filter { $0.topic == topic }.map(\.text)
        }

        /// Stops the publisher and waits (bounded) for its clean `offline`.
        func stop() async {
            await group.triggerGracefulShutdown()
            _ = await running.result
            _ = await seen.wait { _ in messages(on: "nfcscan/counter_2/availability").last == "offline" }
            watcher.close()
            broker.stop()
        }
    }

    /// A reader the daemon starts using is a Home Assistant tag scanner before its first object:
    /// a scan that arrived before the discovery would be lost to Home Assistant.
    @Test func aReaderIsAnnouncedBeforeItsFirstObject() async throws {
        let station = try await Station()
        #expect(await station.seen.wait { _ in station.messages(on: "nfcscan/counter_2/availability") == ["online"] })
        station.publisher.observe(.reader(name: "ACS ACR122U"))
        let discovery = "homeassistant/tag/counter_2_ACS_ACR122U/config"
        #expect(await station.seen.wait { _ in station.messages(on: discovery).count == 1 })
        #expect(station.messages(on: "nfcscan/counter_2/scan").isEmpty)
        // Its first object does not announce it again.
        station.publisher.observe(.detected(reader: "ACS ACR122U", uid: "04A1B2", report: Self.report(uri: "https://example.com/"), session: nil))
        #expect(await station.seen.wait { _ in station.messages(on: "nfcscan/counter_2/scan").count == 1 })
        #expect(station.messages(on: discovery).count == 1)
        await station.stop()
    }

    @Test func aBackgroundObjectIsPublishedOnceWithAvailabilityAndDiscovery() async throws {
        let station = try await Station()
        #expect(await station.seen.wait { _ in station.messages(on: "nfcscan/counter_2/availability") == ["online"] })
        let link = "https://www.home-assistant.io/tag/kitchen-door"
        station.publisher.observe(.detected(reader: "ACS ACR122U", uid: "04A1B2", report: Self.report(uri: link), session: 4))
        station.publisher.observe(.detected(reader: "ACS ACR122U", uid: "04A1B2", report: Self.report(uri: link), session: nil))
        #expect(await station.seen.wait { _ in station.messages(on: "nfcscan/counter_2/scan").count == 1 })
        let payload = try #require(station.messages(on: "nfcscan/counter_2/scan").first)
        let event = try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
        #expect(UUID(uuidString: event["event_id"] as? String ?? "") != nil)
        #expect(event["seq"] as? Int == 1)
        #expect((event["time"] as? String).flatMap { try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse($0) } != nil)
        #expect(event["station"] as? String == "counter 2" && event["reader"] as? String == "ACS ACR122U")
        #expect(event["uid"] as? String == "04A1B2" && event["tag_id"] as? String == "kitchen-door")
        #expect((event["records"] as? [[String: Any]])?.first?["uri"] as? String == link)

        let discovery = "homeassistant/tag/counter_2_ACS_ACR122U/config"
        #expect(await station.seen.wait { _ in station.messages(on: discovery).count == 1 })
        // Home Assistant restarted: discovery again.
        try station.watcher.publish(.init(topic: "homeassistant/status", text: "online", qos: 1))
        #expect(await station.seen.wait { _ in station.messages(on: discovery).count == 2 })
        #expect(await station.seen.wait { _ in station.publisher.state.pending == 0 && station.publisher.state.connected })
        // Only the background object was published.
        #expect(station.messages(on: "nfcscan/counter_2/scan").count == 1)
        await station.stop()
        #expect(station.messages(on: "nfcscan/counter_2/availability").last == "offline")
    }

    /// The issue's outage: broker stopped, 100 objects, broker started: exactly 100 distinct event
    /// ids arrive, in order.
    @Test func eventsReadWhileTheBrokerIsDownArriveInOrderAfterwards() async throws {
        let station = try await Station()
        #expect(await station.seen.wait { _ in station.publisher.state.connected })
        station.broker.stop()
        #expect(await station.seen.wait { _ in !station.publisher.state.connected })
        for n in 1...100 {
            station.publisher.observe(.detected(reader: "R", uid: String(format: "04%02X", n), report: Self.report(uri: "https://example.org/\(n)"), session: nil))
        }
        #expect(await station.seen.wait { _ in station.publisher.state.pending == 100 })
        #expect(try FileManager.default.contentsOfDirectory(atPath: station.spool).filter { $0.hasSuffix(".json") }.count == 100)
        try station.broker.start()
        #expect(await station.seen.wait(timeout: 20) { _ in station.publisher.state.pending == 0 })
        // Reported for the Broker property: the outage with its reason, the events waiting, then all sent.
        #expect(station.statuses.all.contains { !$0.connected && $0.lastError != nil && $0.pending == 100 })
        #expect(await station.seen.wait { _ in station.statuses.all.last.map { $0.connected && $0.pending == 0 && $0.lastError == nil } == true })
        #expect(await station.seen.wait(timeout: 20) { _ in station.messages(on: "nfcscan/counter_2/scan").count >= 100 })
        let events = station.messages(on: "nfcscan/counter_2/scan").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(events.compactMap { $0["seq"] as? Int } == Array(1...100), "\(station.broker.log)")
        #expect(Set(events.compactMap { $0["event_id"] as? String }).count == 100)
        #expect(events.compactMap { $0["uid"] as? String } == (1...100).map { String(format: "04%02X", $0) })
        #expect(try FileManager.default.contentsOfDirectory(atPath: station.spool).filter { $0.hasSuffix(".json") }.isEmpty)
        await station.stop()
    }

    /// Issue 20: a spool open to others is refused and left as it is; the station stays up and
    /// says what to fix instead of ending background reading with it.
    @Test func aSpoolOpenToOthersIsRefusedAndSaidWhy() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("spool-open-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/spool", withIntermediateDirectories: true)
        chmod(base, 0o700)
        chmod(base + "/spool", 0o777)
        let settings = try #require(try DaemonSettings.parse("[broker]\nurl = mqtt://127.0.0.1:9\n").broker)
        let publisher = BrokerPublisher(settings: settings, password: nil, spoolLocation: .init(path: base + "/spool"), logger: Logger(label: "test"))
        let group = ServiceGroup(configuration: .init(services: [publisher], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while publisher.state.lastError == nil, clock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(publisher.state.lastError?.contains("chmod 700") == true, "\(publisher.state)")
        var status = stat()
        stat(base + "/spool", &status)
        #expect(status.st_mode & 0o777 == 0o777)
        await group.triggerGracefulShutdown()
        _ = try await running.value
    }
}
