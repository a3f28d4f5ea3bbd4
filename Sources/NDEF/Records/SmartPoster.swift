/// A well-known Smart Poster record (`Sp`, NFC Forum RTD-SmartPoster 1.0): a URI with titles,
/// a recommended action, size and type of the resource, and icons, carried as a nested message.
///
/// The nested message is the source of truth; the properties are views of it, so a decoded
/// poster re-encodes to its canonical form (the same bytes when the nested message was canonical).
public struct SmartPoster: Hashable, Sendable {
    public enum Action: UInt8, Hashable, Sendable {
        case `do` = 0
        case save = 1
        case edit = 2

        public var name: String {
            switch self {
            case .do: "do"
            case .save: "save"
            case .edit: "edit"
            }
        }
    }

    public struct Icon: Hashable, Sendable {
        public var mimeType: String
        public var data: [UInt8]

        public init(mimeType: String, data: [UInt8]) {
            self.mimeType = mimeType
            self.data = data
        }
    }

    /// The nested message: exactly one URI record, plus titles, action, size, type, icons and others.
    public let message: NDEFMessage
    public let uri: URIRecord
    public let titles: [TextRecord]
    /// The recommended action; nil when there is no `act` record or its value is not defined.
    public let action: Action?
    /// The raw `act` value, when an `act` record is present.
    public let actionCode: UInt8?
    public let size: UInt32?
    public let resourceType: String?
    public let icons: [Icon]

    static let typeName = "Sp"

    public init(uri: URIRecord, titles: [TextRecord] = [], action: Action? = nil, size: UInt32? = nil,
                resourceType: String? = nil, icons: [Icon] = []) throws(NDEFError) {
        var records = [uri.record()]
        for title in titles { records.append(try title.record()) }
        if let action { records.append(NDEFRecord(tnf: .wellKnown, type: "act", payload: [action.rawValue])) }
        if let size { records.append(NDEFRecord(tnf: .wellKnown, type: "s", payload: BigEndian.bytes(size))) }
        if let resourceType { records.append(NDEFRecord(tnf: .wellKnown, type: "t", payload: Array(resourceType.utf8))) }
        for icon in icons { records.append(NDEFRecord(tnf: .media, type: icon.mimeType, payload: icon.data)) }
        try self.init(message: NDEFMessage(records: records))
    }

    public init(payload: [UInt8]) throws(NDEFError) {
        try self.init(payloadBytes: payload[...], depth: 0)
    }

    /// The nested message is parsed in place: its records are views into `payload`.
    init(payloadBytes payload: ArraySlice<UInt8>, depth: Int) throws(NDEFError) {
        var reader = PayloadReader(type: Self.typeName, bytes: payload)
        self = try reader.nestedMessage(payload.count, depth: depth) { (message, layouts) throws(NDEFError) in
            try SmartPoster(message: message, layouts: layouts)
        }
    }

    /// Interprets a nested message, checking the RTD's rules: exactly one URI record, one title
    /// per language, at most one action, size and type record.
    public init(message: NDEFMessage) throws(NDEFError) {
        try self.init(message: message, layouts: nil)
    }

    private init(message: NDEFMessage, layouts: [NDEFParser.RecordLayout]?) throws(NDEFError) {
        var uri: URIRecord?
        var titles: [TextRecord] = []
        var actionCode: UInt8?
        var size: UInt32?
        var resourceType: String?
        var icons: [Icon] = []
        for (index, record) in message.records.enumerated() {
            let layout = layouts?[index]
            func fail(_ problem: PayloadProblem) -> NDEFError {
                .invalidPayload(type: Self.typeName, problem: problem, offset: layout?.offset ?? 0)
            }
            do throws(NDEFError) {
                if record.isWellKnown("U") {
                    guard uri == nil else { throw fail(.duplicate("URI record")) }
                    uri = try URIRecord(payloadBytes: record.payloadBytes)
                } else if record.isWellKnown("T") {
                    let title = try TextRecord(payloadBytes: record.payloadBytes)
                    guard !titles.contains(where: { $0.language == title.language }) else {
                        throw fail(.duplicate("title for language '\(title.language)'"))
                    }
                    // Posters usually carry a title per language: room for all at the first one.
                    if titles.isEmpty { titles.reserveCapacity(message.records.count - index) }
                    titles.append(title)
                } else if record.isWellKnown("act") {
                    guard actionCode == nil else { throw fail(.duplicate("action record")) }
                    var r = PayloadReader(type: "act", bytes: record.payloadBytes)
                    actionCode = try r.u8("action")
                    try r.expectEnd()
                } else if record.isWellKnown("s") {
                    guard size == nil else { throw fail(.duplicate("size record")) }
                    var r = PayloadReader(type: "s", bytes: record.payloadBytes)
                    size = try r.u32("size")
                    try r.expectEnd()
                } else if record.isWellKnown("t") {
                    guard resourceType == nil else { throw fail(.duplicate("type record")) }
                    var r = PayloadReader(type: "t", bytes: record.payloadBytes)
                    resourceType = try r.utf8(r.remaining, "type")
                } else if record.tnf == .media {
                    let mime = MediaType.normalized(record.typeBytes)
                    if mime.hasPrefix("image/") || mime.hasPrefix("video/") {
                        icons.append(Icon(mimeType: mime, data: record.payload))
                    }
                }
            } catch {
                throw error.located(in: layout)
            }
        }
        guard let uri else { throw .invalidPayload(type: Self.typeName, problem: .missing("URI record"), offset: 0) }
        self.message = message
        self.uri = uri
        self.titles = titles
        self.actionCode = actionCode
        self.action = actionCode.flatMap(Action.init(rawValue:))
        self.size = size
        self.resourceType = resourceType
        self.icons = icons
    }

    public var payload: [UInt8] { message.encoded() }

    public func record(id: [UInt8] = []) -> NDEFRecord {
        NDEFRecord(tnf: .wellKnown, type: Self.typeName, id: id, payload: payload)
    }
}
