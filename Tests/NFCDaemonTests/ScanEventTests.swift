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

@Suite("The spool: at least once, bounded")
struct SpoolTests {
    @Test func bookKeepsOrderDropsOldestAndNeverReusesASeq() {
        var book = SpoolBook(capacity: 3)
        let first = book.add(), second = book.add(), third = book.add()
        #expect(first.seq == 1 && first.evicted.isEmpty && second.seq == 2 && third.seq == 3)
        let fourth = book.add()
        #expect(fourth.seq == 4 && fourth.evicted == [1])
        #expect(book.pending == [2, 3, 4] && book.dropped == 1)
        let acknowledged = book.acknowledge(3), twice = book.acknowledge(3), droppedOne = book.acknowledge(1)
        #expect(acknowledged && !twice && !droppedOne)
        #expect(book.pending == [2, 4])
        // Counters older than the events on disk (a crash between the writes): seqs go on after the newest.
        let reopened = SpoolBook(capacity: 2, pending: [9, 5, 7], dropped: 1, nextSeq: 3)
        #expect(reopened.pending == [7, 9] && reopened.dropped == 2 && reopened.nextSeq == 10)
    }

    @Test func directorySurvivesARestartAndRemovesWhatIsAcknowledged() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let spool = try SpoolDirectory(path: path, capacity: 3)
            for n in 1...4 { _ = try spool.add { "{\"seq\":\($0),\"n\":\(n)}" } }
            spool.acknowledge(3)
            #expect(spool.book.pending == [2, 4] && spool.book.dropped == 1)
        }
        let again = try SpoolDirectory(path: path, capacity: 3)
        #expect(again.pendingPayloads().map(\.payload) == ["{\"seq\":2,\"n\":2}", "{\"seq\":4,\"n\":4}"])
        #expect(again.book.dropped == 1 && again.book.nextSeq == 5)
        let fifth = try again.add { "\($0)" }
        #expect(fifth == 5)
        let files = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        #expect(files == ["00000000000000000002.json", "00000000000000000004.json", "00000000000000000005.json", "counters"])
        // A smaller capacity after a restart drops the oldest at once.
        let smaller = try SpoolDirectory(path: path, capacity: 1)
        #expect(smaller.book.pending == [5] && smaller.book.dropped == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).sorted() == ["00000000000000000005.json", "counters"])
    }

    @Test func defaultPathFollowsXDG() {
        #expect(SpoolDirectory.defaultPath(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/nfcscan/spool")
        #expect(SpoolDirectory.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/state/nfcscan/spool")
        #expect(SpoolDirectory.defaultPath(environment: ["STATE_DIRECTORY": "/h/.local/state/nfcscan", "XDG_STATE_HOME": "/s"])
                == "/h/.local/state/nfcscan/spool")
    }
}
