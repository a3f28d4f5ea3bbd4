import NDEF
import NDEFReport

/// Web NFC's records to NDEF and back, as the W3C Web NFC specification maps them: "create an
/// NDEF message" for what a page writes, "parse an NDEF record" for what a reading delivers.
/// The extension's page script does the WebIDL conversions and most refusals before anything is
/// sent; the host checks again here, since the page script runs in the page and the page may
/// change it. Pure.
public enum WebRecordMapping {
    /// The specification's bound on nested messages (`recordsDepth`).
    public static let maximumDepth = 32
    /// NDEF's type and ID fields hold at most 255 bytes.
    static let maximumFieldLength = 255
    /// A text record's language tag is stored in 6 bits.
    static let maximumLanguageLength = 63

    /// A record the specification refuses to write: the page gets a `TypeError`.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Where a record sits: local types exist only inside smart posters and external records.
    enum Context: Equatable {
        case top
        case smartPoster
        case external
        case local
    }

    // MARK: Writing

    /// The NDEF message for `records`, as the page asked to write it.
    public static func message(_ records: [WebRecord]) throws(Refusal) -> NDEFMessage {
        try message(records, context: .top, depth: 0)
    }

    static func message(_ records: [WebRecord], context: Context, depth: Int) throws(Refusal) -> NDEFMessage {
        guard depth <= maximumDepth else { throw Refusal(message: "records nest deeper than \(maximumDepth) messages") }
        guard !records.isEmpty else { throw Refusal(message: "a message needs at least one record") }
        var out: [NDEFRecord] = []
        out.reserveCapacity(records.count)
        for record in records { out.append(try ndef(record, context: context, depth: depth)) }
        return NDEFMessage(records: out)
    }

    static func ndef(_ record: WebRecord, context: Context, depth: Int) throws(Refusal) -> NDEFRecord {
        let id = Array((record.id ?? "").utf8)
        guard id.count <= maximumFieldLength else { throw Refusal(message: "a record id holds at most 255 bytes") }
        let type = record.recordType
        if type != "mime", record.mediaType != nil { throw Refusal(message: "mediaType applies to mime records only") }
        if type != "text", record.encoding != nil || record.lang != nil {
            throw Refusal(message: "encoding and lang apply to text records only")
        }
        switch type {
        case "empty":
            guard record.id == nil else { throw Refusal(message: "an empty record has no id") }
            return NDEFRecord(tnf: .empty)
        case "text":
            let data = try bytes(record, of: type)
            let utf8: Bool
            switch record.encoding ?? "utf-8" {
            case "utf-8": utf8 = true
            case "utf-16", "utf-16be", "utf-16le": utf8 = false
            default: throw Refusal(message: "a text record's encoding is utf-8, utf-16, utf-16be or utf-16le")
            }
            let language = Array((record.lang ?? "en").utf8)
            guard language.count <= maximumLanguageLength else { throw Refusal(message: "a language tag holds at most 63 bytes") }
            return NDEFRecord(tnf: .wellKnown, type: "T", id: id, payload: [(utf8 ? 0 : 0x80) | UInt8(language.count)] + language + data)
        case "url":
            return URIRecord(uri: try text(record, of: type)).record(id: id)
        case "absolute-url":
            guard context != .smartPoster else { throw Refusal(message: "a smart poster holds its link as a url record") }
            let url = Array(try text(record, of: type).utf8)
            guard url.count <= maximumFieldLength else { throw Refusal(message: "an absolute-url record's URL holds at most 255 bytes") }
            return NDEFRecord(tnf: .absoluteURI, type: url, id: id)
        case "mime":
            let mediaType = Array((record.mediaType ?? "application/octet-stream").utf8)
            guard !mediaType.isEmpty, mediaType.count <= maximumFieldLength else {
                throw Refusal(message: "a MIME type holds 1 to 255 bytes")
            }
            return NDEFRecord(tnf: .media, type: mediaType, id: id, payload: try bytes(record, of: type))
        case "smart-poster":
            guard let records = record.records, record.data == nil else { throw Refusal(message: "a smart-poster record holds records") }
            return NDEFRecord(tnf: .wellKnown, type: "Sp", id: id,
                              payload: try message(records, context: .smartPoster, depth: depth + 1).encoded())
        case "unknown":
            return NDEFRecord(tnf: .unknown, id: id, payload: try bytes(record, of: type))
        default:
            if type.hasPrefix(":") {
                guard context != .top else { throw Refusal(message: "a local type (\(type)) exists only inside another record") }
                let name = String(type.dropFirst())
                guard isLocalType(name) else { throw Refusal(message: "\(type) is not a local type") }
                let payload = try nestedOrBytes(record, context: .local, depth: depth)
                if context == .smartPoster, name == "s", payload.count > 4 { throw Refusal(message: "a smart poster's :s holds at most 4 bytes") }
                if context == .smartPoster, name == "act", payload.count != 1 { throw Refusal(message: "a smart poster's :act holds 1 byte") }
                return NDEFRecord(tnf: .wellKnown, type: Array(name.utf8), id: id, payload: payload)
            }
            guard isExternalType(type), type.utf8.count <= maximumFieldLength else {
                throw Refusal(message: "\(type) is not a record type (nor an external type domain:type)")
            }
            return NDEFRecord(tnf: .external, type: Array(type.utf8), id: id, payload: try nestedOrBytes(record, context: .external, depth: depth))
        }
    }

    private static func bytes(_ record: WebRecord, of type: String) throws(Refusal) -> [UInt8] {
        guard let data = record.data, record.records == nil else { throw Refusal(message: "a \(type) record holds data") }
        return data
    }

    private static func text(_ record: WebRecord, of type: String) throws(Refusal) -> String {
        let data = try bytes(record, of: type)
        guard let url = String(validating: data, as: UTF8.self), !url.isEmpty else {
            throw Refusal(message: "a \(type) record's data is a URL in UTF-8")
        }
        return url
    }

    private static func nestedOrBytes(_ record: WebRecord, context: Context, depth: Int) throws(Refusal) -> [UInt8] {
        switch (record.data, record.records) {
        case (let data?, nil): return data
        case (nil, let records?): return try message(records, context: context, depth: depth + 1).encoded()
        default: throw Refusal(message: "a \(record.recordType) record holds data or records, not both")
        }
    }

    /// The specification's "validate local type": a name starting with a lowercase letter or a digit.
    static func isLocalType(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= maximumFieldLength else { return false }
        return (0x61...0x7A).contains(first) || (0x30...0x39).contains(first)
    }

    /// The specification's "validate external type": `domain:type`, the domain a domain name in
    /// ASCII (the page script turns an international one into its `xn--` form), the type of
    /// letters, digits and `$'()*+,-.;=@_`.
    static func isExternalType(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let domain = text[..<colon].utf8, type = text[text.index(after: colon)...].utf8
        guard !domain.isEmpty, !type.isEmpty else { return false }
        let domainOK = domain.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
        return domainOK && type.allSatisfy { isAlphanumeric($0) || Array("$'()*+,-.;=@_".utf8).contains($0) }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    // MARK: Reading

    /// What a page's `reading` event carries for `message`. Records the specification does not
    /// deliver (a top-level well-known type other than T, U and Sp, an invalid external type, a
    /// malformed text record) are left out, as its "parse an NDEF record" leaves them.
    public static func records(_ message: NDEFMessage) -> [WebRecord] {
        records(message.records, context: .top, depth: 0)
    }

    static func records(_ message: [NDEFRecord], context: Context, depth: Int) -> [WebRecord] {
        message.compactMap { record($0, context: context, depth: depth) }
    }

    static func record(_ ndef: NDEFRecord, context: Context, depth: Int) -> WebRecord? {
        let id = ndef.idBytes.isEmpty ? nil : String(decoding: ndef.idBytes, as: UTF8.self)
        let payload = ndef.payload
        let data: [UInt8]? = payload.isEmpty ? nil : payload
        switch ndef.tnf {
        case .empty:
            return WebRecord(recordType: "empty")
        case .wellKnown:
            switch ndef.typeString {
            case "T":
                guard let header = payload.first else { return WebRecord(recordType: "text", id: id) }
                let languageLength = Int(header & 0x3F)
                guard payload.count > languageLength else { return nil }
                return WebRecord(recordType: "text", id: id, encoding: header & 0x80 == 0 ? "utf-8" : "utf-16be",
                                 lang: String(decoding: payload[1..<(1 + languageLength)], as: UTF8.self),
                                 data: Array(payload[(1 + languageLength)...]))
            case "U":
                guard let code = payload.first else { return WebRecord(recordType: "url", id: id) }
                let rest = payload.dropFirst()
                let prefix = Int(code) < URIRecord.prefixes.count ? Array(URIRecord.prefixes[Int(code)].utf8) : []
                return WebRecord(recordType: "url", id: id, data: prefix + rest)
            case "Sp":
                return WebRecord(recordType: "smart-poster", id: id, data: data,
                                 records: nested(payload, context: .smartPoster, depth: depth))
            case "s" where context == .smartPoster:
                return payload.count == 4 ? WebRecord(recordType: ":s", id: id, data: data) : nil
            case "act" where context == .smartPoster:
                return payload.count == 1 ? WebRecord(recordType: ":act", id: id, data: data) : nil
            case "t" where context == .smartPoster:
                return WebRecord(recordType: ":t", id: id, data: data)
            case let name where isLocalType(name) && (context == .smartPoster || context == .external):
                return WebRecord(recordType: ":" + name, id: id, data: data)
            default:
                return nil
            }
        case .media:
            return WebRecord(recordType: "mime", mediaType: ndef.typeString.lowercased(), id: id, data: data)
        case .absoluteURI:
            return WebRecord(recordType: "absolute-url", id: id, data: Array(ndef.typeBytes))
        case .external:
            // The domain is stored in ASCII; pages read its Unicode form (the specification's ToUnicode).
            let type = ndef.typeString
            guard isExternalType(type), let colon = type.firstIndex(of: ":"),
                  let domain = Punycode.unicodeDomain(type[..<colon]) else { return nil }
            return WebRecord(recordType: domain + type[colon...], id: id, data: data,
                             records: nested(payload, context: .external, depth: depth))
        case .unknown:
            return WebRecord(recordType: "unknown", id: id, data: data)
        case .unchanged, .reserved:
            return nil
        }
    }

    /// `toRecords()`'s answer: the payload's records when it is a whole NDEF message, else nil.
    private static func nested(_ payload: [UInt8], context: Context, depth: Int) -> [WebRecord]? {
        guard depth < maximumDepth, !payload.isEmpty, let message = try? NDEFMessage(decoding: payload) else { return nil }
        return records(message.records, context: context, depth: depth + 1)
    }

    /// A reading from a scan's report (the fields of `nfcscan --json`): the object's serial number
    /// as Web NFC writes it (`04:a1:b2:…`, nil when the reader learnt none) and its records. A
    /// record the report shows without its bytes is left out.
    public static func reading(_ report: ReportValue) -> (serialNumber: String?, records: [WebRecord]) {
        let serial = report["object"]?["uid"]?.stringValue.flatMap { try? Hex.decode($0).get() }.flatMap { $0.isEmpty ? nil : Hex.colons($0) }
        let message = (report["records"]?.arrayValue ?? []).compactMap { field -> NDEFRecord? in
            guard let tnfName = field["tnf"]?.stringValue, let tnf = TypeNameFormat.allCases.first(where: { $0.name == tnfName }),
                  let payload = field["payload"]?.stringValue.flatMap({ try? Hex.decode($0).get() }) else { return nil }
            return NDEFRecord(tnf: tnf, type: Array((field["type"]?.stringValue ?? "").utf8),
                              id: Array((field["id"]?.stringValue ?? "").utf8), payload: payload)
        }
        return (serial, records(message, context: .top, depth: 0))
    }
}
