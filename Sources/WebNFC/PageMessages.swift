import AppIdentity
import FoundationEssentials

/// What the extension asks of nfcscan's web host for one page (browser-extension/PROTOCOL.md),
/// checked: anything else ends the host (the extension never sends it; a page cannot reach the
/// host but through the extension's bridge, which checks the shape too).
public enum PageRequest: Sendable, Equatable {
    /// First and once: the page's origin, from the browser, and its language.
    case hello(origin: WebOrigin, language: String?)
    /// Whether the page is visible, and visible and focused (`active`).
    case focus(active: Bool, visible: Bool)
    case scan(id: Int)
    case write(id: Int, records: [WebRecord], overwrite: Bool)
    case makeReadOnly(id: Int)
    case cancel(id: Int)

    /// The largest id a page may use: JavaScript's integers are exact up to 2^53.
    public static let maximumID = (1 << 53) - 1
    /// A language tag longer than this is not one (BCP 47 tags are short).
    public static let maximumLanguageLength = 64

    public struct Malformed: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    private struct Wire: Decodable {
        var op: String
        var id: Int?
        var origin: String?
        var language: String?
        var active: Bool?
        var visible: Bool?
        var records: [WebRecord]?
        var overwrite: Bool?
    }

    public init(json: [UInt8]) throws(Malformed) {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(json))
        } catch {
            throw Malformed(description: "not a message of the protocol: \(error)")
        }
        func id() throws(Malformed) -> Int {
            guard let id = wire.id, (1...Self.maximumID).contains(id) else { throw Malformed(description: "\(wire.op) needs an id from 1 to 2^53-1") }
            return id
        }
        switch wire.op {
        case "hello":
            guard let text = wire.origin, let origin = WebOrigin(text) else {
                throw Malformed(description: "hello needs a secure origin as browsers serialize it")
            }
            let language = wire.language.flatMap { $0.utf8.count <= Self.maximumLanguageLength ? $0 : nil }
            self = .hello(origin: origin, language: language)
        case "focus":
            guard let active = wire.active else { throw Malformed(description: "focus needs active") }
            // An extension that does not tell them apart says active for both.
            self = .focus(active: active, visible: wire.visible ?? active)
        case "scan": self = .scan(id: try id())
        case "write":
            guard let records = wire.records else { throw Malformed(description: "write needs records") }
            self = .write(id: try id(), records: records, overwrite: wire.overwrite ?? true)
        case "makeReadOnly": self = .makeReadOnly(id: try id())
        case "cancel": self = .cancel(id: try id())
        default: throw Malformed(description: "no such op: \(wire.op.prefix(32))")
        }
    }
}

/// The errors a page's promise rejects with (`DOMException` names, and `TypeError`), as the Web
/// NFC specification names them for its cases.
public enum PageErrorName: String, Sendable, Equatable, Codable {
    case typeError = "TypeError"
    case notAllowed = "NotAllowedError"
    case notSupported = "NotSupportedError"
    case notReadable = "NotReadableError"
    case abort = "AbortError"
    case invalidState = "InvalidStateError"
    case network = "NetworkError"
}

/// What the host tells the extension about one of the page's operations.
public enum PageEvent: Sendable, Equatable {
    /// The scan runs (the person allowed the site): `scan()` resolves.
    case started(id: Int)
    case reading(id: Int, serialNumber: String?, records: [WebRecord])
    case readingError(id: Int)
    /// The write or lock was made and read back.
    case done(id: Int)
    case error(id: Int, name: PageErrorName, message: String)

    /// Chromium refuses a message from a host over 1 MiB (and ends the host).
    public static let maximumLength = 1 << 20

    private struct Wire: Encodable {
        struct Message: Encodable { var records: [WebRecord] }
        var id: Int
        var event: String
        var serialNumber: String??
        var message: Message?
        var name: PageErrorName?
        var error: String?

        enum CodingKeys: String, CodingKey { case id, event, serialNumber, message, name }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(event, forKey: .event)
            // A reading says serialNumber null when the reader learnt none; other events leave it out.
            if let serialNumber { try container.encode(serialNumber, forKey: .serialNumber) }
            try container.encodeIfPresent(message, forKey: .message)
            try container.encodeIfPresent(name, forKey: .name)
            // PROTOCOL.md: an error's text is its "message"; a reading's "message" is the records.
            if let error { try container.encode(error, forKey: .message) }
        }
    }

    public var id: Int {
        switch self {
        case .started(let id), .reading(let id, _, _), .readingError(let id), .done(let id), .error(let id, _, _): id
        }
    }

    /// The event as JSON; a reading too large for the browser to take becomes a `readingerror`.
    public func json() -> [UInt8] {
        let wire: Wire
        switch self {
        case .started(let id): wire = Wire(id: id, event: "started")
        case .reading(let id, let serial, let records):
            wire = Wire(id: id, event: "reading", serialNumber: .some(serial), message: .init(records: records))
        case .readingError(let id): wire = Wire(id: id, event: "readingerror")
        case .done(let id): wire = Wire(id: id, event: "done")
        case .error(let id, let name, let message): wire = Wire(id: id, event: "error", name: name, error: message)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(wire), data.count <= Self.maximumLength - 4 else {
            return PageEvent.readingError(id: id).json()
        }
        return Array(data)
    }
}
