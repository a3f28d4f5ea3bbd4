import FoundationEssentials
import NDEFReport

/// What a station publishes on `<prefix>/scan` for one object read in the background.
///
/// `event_id` lets subscribers drop the duplicates at-least-once delivery can bring; `seq` (per
/// station, increasing across restarts) lets them see order and gaps; `tag_id` is what Home
/// Assistant keys its tags by, so a station is a tag scanner without a template of its own.
public struct ScanEvent: Equatable, Sendable {
    public var eventID: UUID
    public var seq: UInt64
    public var time: Date
    public var station: String
    public var reader: String
    /// The UID in hex, as the daemon reports it everywhere.
    public var uid: String
    public var tagID: String
    /// The `records` of `nfcscan --json` (`publish = records`); nil with `publish = identity`.
    public var records: ReportValue?
    /// The object's `genuine` and `genuine_key` (its originality signature, Docs/authenticity.md),
    /// as the report has them: absent when the chip's originality could not be checked.
    public var genuine: [ReportValue.Field]

    /// The prefix of a Home Assistant tag link (what its apps write to a tag); the rest is the tag id.
    public static let homeAssistantTagPrefix = "https://www.home-assistant.io/tag/"

    /// The event for an object whose report (`{"records": [...], "object": {...}}`) is `report`.
    public init(eventID: UUID = UUID(), seq: UInt64, time: Date = Date(), station: String, reader: String, uid: String,
                report: ReportValue, content: BrokerSettings.Content) {
        self.eventID = eventID
        self.seq = seq
        self.time = time
        self.station = station
        self.reader = reader
        self.uid = uid
        self.tagID = Self.tagID(uid: uid, report: report)
        self.records = content == .records ? (report["records"] ?? .array([])) : nil
        let object = report["object"]
        self.genuine = ["genuine", "genuine_key"].compactMap { key in object?[key].map { .init(key, $0) } }
    }

    /// As Home Assistant computes it: the id of the first `https://www.home-assistant.io/tag/<id>`
    /// link among the records (a URI record or a smart poster's), else the UID.
    public static func tagID(uid: String, report: ReportValue) -> String {
        for record in report["records"]?.arrayValue ?? [] {
            guard let uri = record["uri"]?.stringValue, uri.hasPrefix(homeAssistantTagPrefix) else { continue }
            let id = uri.dropFirst(homeAssistantTagPrefix.count).prefix { $0 != "?" && $0 != "#" && $0 != "/" }
            if !id.isEmpty { return String(id) }
        }
        return uid
    }

    /// RFC 3339 in UTC with milliseconds: `2026-11-24T23:04:03.123Z`.
    public static func rfc3339(_ time: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(time)
    }

    /// The payload: one JSON object, written by the same writer as `nfcscan --json`.
    public var json: String {
        var fields: [ReportValue.Field] = [
            .init("event_id", .string(eventID.uuidString.lowercased())),
            .init("seq", .int(Int(clamping: seq))),
            .init("time", .string(Self.rfc3339(time))),
            .init("station", .string(station)),
            .init("reader", .string(reader)),
            .init("uid", .string(uid)),
            .init("tag_id", .string(tagID)),
        ] + genuine
        if let records { fields.append(.init("records", records)) }
        return JSONWriter.string(.object(fields))
    }
}

/// The topics and retained messages of one station (issue 15; Docs on fleets).
public struct StationTopics: Equatable, Sendable {
    public var prefix: String
    public var station: String

    public init(_ settings: BrokerSettings) {
        prefix = settings.topicPrefix
        station = settings.station
    }

    public var scan: String { prefix + "/scan" }
    /// Retained `online` / `offline` (the will).
    public var availability: String { prefix + "/availability" }
    /// Where Home Assistant says `online` when it (re)starts and wants discovery again.
    public static let homeAssistantStatus = "homeassistant/status"

    /// `homeassistant/tag/<station>_<reader>/config`, names reduced to `[a-zA-Z0-9_-]`.
    public func discoveryTopic(reader: String) -> String {
        "homeassistant/tag/\(discoveryID(reader: reader))/config"
    }

    func discoveryID(reader: String) -> String { TopicName.reduced(station) + "_" + TopicName.reduced(reader) }

    /// The retained discovery config making `reader` a Home Assistant tag scanner. Every reader
    /// of the station shares the scan topic, so each reader's template yields the tag id only
    /// for its own events: Home Assistant ignores an empty result, and a scan counts once.
    public func discoveryConfig(reader: String) -> String {
        let template = "{% if value_json.reader == " + jinjaString(reader) + " %}{{ value_json.tag_id }}{% endif %}"
        return JSONWriter.string(.object([
            .init("topic", .string(scan)),
            .init("value_template", .string(template)),
            .init("device", .object([
                .init("identifiers", .array([.string("nfcscan_" + TopicName.reduced(station))])),
                .init("name", .string(station)),
                .init("manufacturer", .string("nfcscan")),
                .init("model", .string("nfcscand")),
            ])),
        ]))
    }

    /// `text` as a single-quoted Jinja string literal (a reader's name is the driver's, not ours).
    private func jinjaString(_ text: String) -> String {
        var literal = "'"
        for scalar in text.unicodeScalars {
            if scalar == "\\" || scalar == "'" { literal.unicodeScalars.append("\\") }
            literal.unicodeScalars.append(scalar)
        }
        return literal + "'"
    }
}
