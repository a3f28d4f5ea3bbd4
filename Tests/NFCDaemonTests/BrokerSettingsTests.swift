import Foundation
@testable import NFCDaemon
import Testing

@Suite("nfcscand.conf [broker]")
struct BrokerSettingsTests {
    func parse(_ text: String) throws(DaemonSettings.Problem) -> BrokerSettings? {
        try DaemonSettings.parse(text, path: "/etc/x.conf", hostName: "till 2.local").broker
    }

    func refusal(_ text: String) -> String? {
        do { _ = try parse(text); return nil } catch { return error.description }
    }

    @Test func absentMeansNothingIsPublished() throws {
        #expect(try parse("[background]\nignore = screen-off\n") == nil)
    }

    @Test func theIssuesExampleReadsAsWritten() throws {
        let broker = try #require(try parse("""
            [broker]
            url = mqtts://broker.example:8884
            station = counter-2
            publish = identity
            username = nfcscan
            password-file = /p
            ca-file = /ca.pem
            client-cert-file = /c.pem
            client-key-file = /k.pem
            topic-prefix = shop/counter-2
            """))
        #expect(broker.host == "broker.example" && broker.port == 8884 && broker.tls)
        #expect(broker.station == "counter-2" && broker.content == .identity && broker.username == "nfcscan")
        #expect(broker.passwordFile == "/p" && broker.caFile == "/ca.pem" && broker.clientCertificateFile == "/c.pem" && broker.clientKeyFile == "/k.pem")
        #expect(broker.topicPrefix == "shop/counter-2")
        #expect(broker.lines["ca-file"] == 7)
    }

    @Test func defaults() throws {
        let broker = try #require(try parse("[broker]\nurl = mqtt://127.0.0.1\n"))
        #expect(broker.port == 1883 && !broker.tls && broker.content == .records)
        #expect(broker.station == "till 2.local")
        #expect(broker.topicPrefix == "nfcscan/till_2_local")
        #expect(try parse("[broker]\nurl = mqtts://[::1]\n")?.port == 8883)
        #expect(try parse("[broker]\nurl = mqtts://[::1]\n")?.host == "::1")
    }

    @Test(arguments: [
        ("[broker]\nstation = a\n", "/etc/x.conf:1: [broker] needs url"),
        ("[broker]\nurl = http://h\n", "/etc/x.conf:2: url \"http://h\" is not"),
        ("[broker]\nurl = mqtt://h:0\n", "/etc/x.conf:2: url"),
        ("[broker]\nurl = mqtt://h:99999\n", "/etc/x.conf:2: url"),
        ("[broker]\nurl = mqtt://\n", "/etc/x.conf:2: url"),
        ("[broker]\nurl = mqtt://h\npublish = everything\n", "/etc/x.conf:3: publish is records or identity"),
        ("[broker]\nurl = mqtt://h\nca-file = /ca\n", "/etc/x.conf:3: ca-file needs an mqtts:// url"),
        ("[broker]\nurl = mqtts://h\nclient-cert-file = /c\n", "/etc/x.conf:3: client-cert-file needs client-key-file"),
        ("[broker]\nurl = mqtt://h\npassword-file = /p\n", "/etc/x.conf:3: password-file needs username"),
        ("[broker]\nurl = mqtt://h\ntopic-prefix = a/+/b\n", "/etc/x.conf:3: topic-prefix"),
        ("[broker]\nurl = mqtt://h\ntopic-prefix = a//b\n", "/etc/x.conf:3: topic-prefix"),
        ("[broker]\nurl = mqtt://h\nstation = a/b\n", "/etc/x.conf:3: station"),
        ("[broker]\nurl = mqtt://h\nurl = mqtt://i\n", "/etc/x.conf:3: url is set twice in [broker]"),
        ("[broker]\nurl = mqtt://h\nport = 1\n", "/etc/x.conf:3: unknown setting port in [broker]"),
        ("[broker]\nurl = mqtt://h\nusername =\n", "/etc/x.conf:3: username needs a value"),
        ("[broker]\nurl = mqtt://h\n[broker]\n", "/etc/x.conf:3: [broker] appears twice"),
    ])
    func refusalsNameTheLine(text: String, expected: String) {
        let refusal = refusal(text)
        #expect(refusal?.hasPrefix(expected) == true, "\(String(describing: refusal))")
    }

    @Test func filesAreCheckedAndThePasswordReadWhenLoaded() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("broker-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "s3cret\n".write(toFile: directory + "/password", atomically: true, encoding: .utf8)
        let conf = directory + "/nfcscand.conf"
        try "[broker]\nurl = mqtt://h\nusername = u\npassword-file = \(directory)/password\n".write(toFile: conf, atomically: true, encoding: .utf8)
        #expect(try DaemonSettings.load(from: conf).brokerPassword == "s3cret")
        try "[broker]\nurl = mqtts://h\nca-file = \(directory)/none.pem\n".write(toFile: conf, atomically: true, encoding: .utf8)
        #expect(throws: DaemonSettings.Problem(path: conf, line: 3, detail: "ca-file \(directory)/none.pem cannot be read")) {
            try DaemonSettings.load(from: conf)
        }
    }

    /// Found by the config fuzzer: the line numbers kept for file checks made the same settings
    /// unequal once a comment line moved them.
    @Test func aCommentLineMoreChangesNothing() throws {
        let text = "[background]\nignore = camera\n[broker]\nurl = mqtt://[::1]:1883/\n"
        #expect(try DaemonSettings.parse(text, hostName: "h") == DaemonSettings.parse("# a comment\n" + text, hostName: "h"))
        #expect(try DaemonSettings.parse("# a comment\n" + text, hostName: "h").broker?.lines["url"] == 5)
    }

    @Test func topicNamesAreReducedForHomeAssistant() {
        #expect(TopicName.reduced("Counter 2/ü") == "Counter_2__")
        #expect(TopicName.reduced("ACS ACR122U 00 00") == "ACS_ACR122U_00_00")
        #expect(TopicName.reduced("") == "_")
    }
}
