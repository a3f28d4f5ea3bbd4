import Foundation
import Mosquitto
import Testing
import TestSupport

@Suite("MosquittoClient against a real broker on loopback", .serialized)
struct MosquittoClientTests {
    func options(_ broker: PrivateMosquitto, _ id: String = "test-\(UUID().uuidString.prefix(8))") -> MosquittoClient.Options {
        var options = MosquittoClient.Options(host: "127.0.0.1", port: broker.port, clientID: id)
        options.reconnectDelay = 1
        options.reconnectDelayMaximum = 1
        return options
    }

    /// A client with `options`, started, once the broker has accepted it.
    func connected(_ options: MosquittoClient.Options,
                   sourceLocation: SourceLocation = #_sourceLocation) async throws -> (MosquittoClient, MQTTEventLog) {
        let client = try MosquittoClient(options)
        client.start()
        let log = MQTTEventLog(client)
        #expect(await log.wait { $0.contains(where: \.isAccepted) }, sourceLocation: sourceLocation)
        return (client, log)
    }

    /// A client with `options` is refused, and tries again: libmosquitto's own loop would have
    /// stopped at the first TLS error, and a station must keep trying.
    func expectRefusedAndRetried(_ options: MosquittoClient.Options,
                                 sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let client = try MosquittoClient(options)
        client.start()
        let refused = MQTTEventLog(client)
        #expect(await refused.wait { $0.filter(\.isDisconnected).count >= 2 }, sourceLocation: sourceLocation)
        #expect(refused.all.allSatisfy { !$0.isAccepted }, sourceLocation: sourceLocation)
        client.close()
    }

    @Test func publishesAtQoS1AndHearsItsOwnSubscription() async throws {
        let broker = try PrivateMosquitto()
        let (client, log) = try await connected(options(broker))
        try client.subscribe("nfcscan/test/#")
        // The subscription is acknowledged before the message is routed only if SUBACK came first;
        // a retained message arrives either way.
        let id = try client.publish(.init(topic: "nfcscan/test/scan", text: "{\"seq\":1}", qos: 1, retain: true))
        #expect(await log.wait { $0.contains { $0.acknowledged == id } })
        #expect(await log.wait { $0.contains { $0.received?.text == "{\"seq\":1}" } })
        client.close()
        #expect(await log.wait { $0.contains(where: \.isDisconnected) })
    }

    @Test func reconnectsWhenTheBrokerComesBackAndSendsWhatWasQueued() async throws {
        let broker = try PrivateMosquitto()
        broker.stop()
        let client = try MosquittoClient(options(broker))
        client.start()
        let log = MQTTEventLog(client)
        #expect(await log.wait { $0.contains(where: \.isDisconnected) })
        #expect(log.all.allSatisfy { !$0.isAccepted })
        // Queued while there is no connection: sent once it is back.
        let id = try client.publish(.init(topic: "nfcscan/test/queued", text: "queued", qos: 1))
        try broker.start()
        #expect(await log.wait { $0.contains(where: \.isAccepted) })
        #expect(await log.wait { $0.contains { $0.acknowledged == id } })
        // And again after an outage in the middle of a connection.
        broker.stop()
        let accepted = log.all.filter(\.isAccepted).count
        #expect(await log.wait { $0.last?.isDisconnected == true })
        try broker.start()
        #expect(await log.wait { $0.filter(\.isAccepted).count > accepted })
        client.close()
    }

    @Test func aCleanCloseDoesNotSendTheWill() async throws {
        let broker = try PrivateMosquitto()
        let (watcher, seen) = try await connected(options(broker))
        try watcher.subscribe("nfcscan/will/#")
        var withWill = options(broker)
        withWill.will = .init(topic: "nfcscan/will/availability", text: "offline", qos: 1, retain: true)
        let (client, _) = try await connected(withWill)
        try client.publish(.init(topic: "nfcscan/will/availability", text: "online", qos: 1, retain: true))
        #expect(await seen.wait { $0.contains { $0.received?.text == "online" } })
        client.close()
        // A clean close does not send the will: a marker published after it arrives, no "offline" before it.
        try watcher.publish(.init(topic: "nfcscan/will/marker", text: "marker", qos: 1))
        #expect(await seen.wait { $0.contains { $0.received?.text == "marker" } })
        #expect(!seen.all.contains { $0.received?.text == "offline" })
        watcher.close()
    }

    @Test func closingWhileTheBrokerIsDownReturns() async throws {
        let broker = try PrivateMosquitto()
        broker.stop()
        let client = try MosquittoClient(options(broker))
        client.start()
        let log = MQTTEventLog(client)
        #expect(await log.wait { $0.contains(where: \.isDisconnected) })
        client.close()
        client.close()
    }

    @Test func tlsWithTheBrokersCAConnectsAndWithAnotherIsRefusedAndRetried() async throws {
        let broker = try PrivateMosquitto(security: .init(tls: true))
        var right = options(broker)
        right.tls = .init(caFile: broker.directory + "/ca.pem")
        let (good, accepted) = try await connected(right)
        let id = try good.publish(.init(topic: "nfcscan/tls", text: "over TLS", qos: 1))
        #expect(await accepted.wait { $0.contains { $0.acknowledged == id } })
        good.close()

        var wrong = options(broker)
        wrong.tls = .init(caFile: broker.directory + "/other-ca.pem")
        try await expectRefusedAndRetried(wrong)
    }

    @Test func mutualTLSNeedsTheClientCertificate() async throws {
        let broker = try PrivateMosquitto(security: .init(tls: true, requireClientCertificate: true))
        var with = options(broker)
        with.tls = .init(caFile: broker.directory + "/ca.pem", certificateFile: broker.directory + "/client.pem",
                         keyFile: broker.directory + "/client.key")
        let (client, _) = try await connected(with)
        client.close()

        var without = options(broker)
        without.tls = .init(caFile: broker.directory + "/ca.pem")
        try await expectRefusedAndRetried(without)
    }

    @Test func aWrongPasswordIsRefusedWithTheBrokersReasonAndRetried() async throws {
        let broker = try PrivateMosquitto(security: .init(users: ["station": "right"]))
        var wrong = options(broker)
        wrong.username = "station"
        wrong.password = "wrong"
        let bad = try MosquittoClient(wrong)
        bad.start()
        let refused = MQTTEventLog(bad)
        let refusals = { (events: [MosquittoClient.Event]) in
            events.filter { if case .connected(let code, _) = $0 { code != 0 } else { false } }
        }
        #expect(await refused.wait { refusals($0).count >= 2 })
        if case .connected(_, let reason)? = refusals(refused.all).first { #expect(reason.lowercased().contains("not authori")) }
        bad.close()

        var right = wrong
        right.password = "right"
        let (good, _) = try await connected(right)
        good.close()
    }

    /// Dropping the last reference is a close(): the thread does not keep the client alive.
    @Test func aClientDroppedWithoutCloseDisconnectsCleanly() async throws {
        let broker = try PrivateMosquitto()
        var log: MQTTEventLog?
        do {
            let client = try MosquittoClient(options(broker, "dropped"))
            client.start()
            log = MQTTEventLog(client)
            #expect(await log?.wait { $0.contains(where: \.isAccepted) } == true)
        }
        #expect(await log?.wait { $0.last == .disconnected(code: 0, reason: "No error.") } == true, "\(String(describing: log?.all))")
        #expect(broker.child?.waitForLine(startingWith: "Client dropped disconnected", timeout: 10) != nil, "\(broker.log)")
    }

    /// Made but never started: no thread, and closing (or dropping) it returns at once.
    @Test func aClientNeverStartedClosesAtOnce() async throws {
        let client = try MosquittoClient(.init(host: "127.0.0.1", port: 1, clientID: "never"))
        let log = MQTTEventLog(client)
        client.close()
        client.start()
        #expect(log.all.isEmpty)
    }

    @Test func aMissingCAFileIsRefusedAtOnce() throws {
        var options = MosquittoClient.Options(host: "127.0.0.1", port: 1, clientID: "ca")
        options.tls = .init(caFile: "/nonexistent/ca.pem")
        #expect(throws: MosquittoClient.Failure.self) { _ = try MosquittoClient(options) }
    }
}
