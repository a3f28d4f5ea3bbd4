import FoundationEssentials

/// One record as a Web NFC page sees it (`NDEFRecord`'s fields), in the messages between the
/// browser extension and nfcscan's web host (browser-extension/PROTOCOL.md): what a page writes,
/// after the extension's WebIDL conversions, and what a reading delivers. ``WebRecordMapping``
/// turns it into NDEF and back.
public struct WebRecord: Sendable, Equatable, Codable {
    /// `empty`, `text`, `url`, `absolute-url`, `mime`, `smart-poster`, `unknown`, an external
    /// type (`example.com:kind`) or a local type (`:kind`, inside another record only).
    public var recordType: String
    /// The MIME type, for `mime` records only.
    public var mediaType: String?
    public var id: String?
    /// `utf-8`, `utf-16`, `utf-16be` or `utf-16le`, for `text` records only.
    public var encoding: String?
    /// A language tag, for `text` records only.
    public var lang: String?
    /// `NDEFRecord.data`'s bytes (base64 in JSON): for `text` the text in ``encoding``, for
    /// `url` and `absolute-url` the URL in UTF-8.
    public var data: [UInt8]?
    /// The nested records (smart posters, external types): what `toRecords()` returns.
    public var records: [WebRecord]?

    public init(recordType: String, mediaType: String? = nil, id: String? = nil, encoding: String? = nil, lang: String? = nil,
                data: [UInt8]? = nil, records: [WebRecord]? = nil) {
        self.recordType = recordType
        self.mediaType = mediaType
        self.id = id
        self.encoding = encoding
        self.lang = lang
        self.data = data
        self.records = records
    }

    enum CodingKeys: String, CodingKey {
        case recordType, mediaType, id, encoding, lang, data, records
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        recordType = try container.decode(String.self, forKey: .recordType)
        mediaType = try container.decodeIfPresent(String.self, forKey: .mediaType)
        id = try container.decodeIfPresent(String.self, forKey: .id)
        encoding = try container.decodeIfPresent(String.self, forKey: .encoding)
        lang = try container.decodeIfPresent(String.self, forKey: .lang)
        records = try container.decodeIfPresent([WebRecord].self, forKey: .records)
        if let text = try container.decodeIfPresent(String.self, forKey: .data) {
            guard let bytes = Data(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(forKey: .data, in: container, debugDescription: "data is not base64")
            }
            data = Array(bytes)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recordType, forKey: .recordType)
        try container.encode(mediaType, forKey: .mediaType)
        try container.encode(id, forKey: .id)
        try container.encode(encoding, forKey: .encoding)
        try container.encode(lang, forKey: .lang)
        try container.encode(data.map { Data($0).base64EncodedString() }, forKey: .data)
        try container.encode(records, forKey: .records)
    }
}
