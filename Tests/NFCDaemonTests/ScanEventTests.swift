import Foundation
@testable import NFCDaemon
import NDEFReport
import Testing

@Suite("The scan event a station publishes")
struct ScanEventTests {
    func report(uris: [String]) -> ReportValue {
        .object([
            .init("records", .array(uris.map { .object([.init("kind", .string("uri")), .init("uri", .string($0))]) })),
            .init("object", .object([.init("uid", .string("04A1B2"))])),
        ])
    }

    @Test func tagIDIsHomeAssistantsLinkElseTheUID() {
        #expect(ScanEvent.tagID(uid: "04A1B2", report: report(uris: ["https://example.org", "https://www.home-assistant.io/tag/5f0ba733-172f-430d-a7f8-e4ad940c88d7"]))
                == "5f0ba733-172f-430d-a7f8-e4ad940c88d7")
        #expect(ScanEvent.tagID(uid: "04A1B2", report: report(uris: ["https://www.home-assistant.io/tag/kitchen?x=1"])) == "kitchen")
        #expect(ScanEvent.tagID(uid: "04A1B2", report: report(uris: ["https://www.home-assistant.io/tag/"])) == "04A1B2")
        #expect(ScanEvent.tagID(uid: "04A1B2", report: report(uris: ["http://www.home-assistant.io/tag/x"])) == "04A1B2")
        #expect(ScanEvent.tagID(uid: "04A1B2", report: .object([.init("records", .array([]))])) == "04A1B2")
    }

    @Test func jsonHasEveryFieldAndRecordsOnlyWhenAsked() throws {
        let id = UUID()
        let time = Date(timeIntervalSince1970: 1_700_000_000.25)
        let event = ScanEvent(eventID: id, seq: 7, time: time, station: "counter-2", reader: "ACS ACR122U", uid: "04A1B2",
                              report: report(uris: ["https://www.home-assistant.io/tag/kitchen"]), content: .records)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(event.json.utf8)) as? [String: Any])
        #expect(object["event_id"] as? String == id.uuidString.lowercased())
        #expect(object["seq"] as? Int == 7)
        #expect(object["time"] as? String == "2023-11-14T22:13:20.250Z")
        #expect(object["station"] as? String == "counter-2")
        #expect(object["reader"] as? String == "ACS ACR122U")
        #expect(object["uid"] as? String == "04A1B2")
        #expect(object["tag_id"] as? String == "kitchen")
        #expect((object["records"] as? [[String: Any]])?.first?["uri"] as? String == "https://www.home-assistant.io/tag/kitchen")
        var identity = event
        identity.records = nil
        #expect(!identity.json.contains("records"))
        let private_ = ScanEvent(seq: 1, station: "s", reader: "r", uid: "04", report: report(uris: ["https://secret"]), content: .identity)
        #expect(!private_.json.contains("secret"))
    }

    @Test func genuineAndItsKeyComeFromTheObjectAbsentWhenUnchecked() throws {
        func event(_ identity: [ReportValue.Field]) throws -> [String: Any] {
            let report = ReportValue.object([.init("records", .array([])), .init("object", .object([.init("uid", .string("04"))] + identity))])
            let json = ScanEvent(seq: 1, station: "s", reader: "r", uid: "04", report: report, content: .identity).json
            return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        }
        let genuine = try event([.init("genuine", .bool(true)), .init("genuine_key", .string("NXP NTAG21x"))])
        #expect(genuine["genuine"] as? Bool == true)
        #expect(genuine["genuine_key"] as? String == "NXP NTAG21x")
        let copy = try event([.init("genuine", .bool(false))])
        #expect(copy["genuine"] as? Bool == false)
        #expect(copy["genuine_key"] == nil)
        let unchecked = try event([])
        #expect(unchecked["genuine"] == nil)
    }

    @Test func topicsAndDiscovery() throws {
        var settings = try #require(try DaemonSettings.parse("[broker]\nurl = mqtt://h\nstation = Counter 2\n").broker)
        settings.topicPrefix = "shop/c2"
        let topics = StationTopics(settings)
        #expect(topics.scan == "shop/c2/scan")
        #expect(topics.availability == "shop/c2/availability")
        #expect(topics.discoveryTopic(reader: "ACS ACR122U 00 00") == "homeassistant/tag/Counter_2_ACS_ACR122U_00_00/config")
        let config = try #require(try JSONSerialization.jsonObject(with: Data(topics.discoveryConfig(reader: "it's").utf8)) as? [String: Any])
        #expect(config["topic"] as? String == "shop/c2/scan")
        #expect(config["value_template"] as? String == "{% if value_json.reader == 'it\\'s' %}{{ value_json.tag_id }}{% endif %}")
        #expect((config["device"] as? [String: Any])?["name"] as? String == "Counter 2")
    }
}
