import Authenticity
import NDEF
import NDEFReport
import NFCTags

/// Why an object's content cannot be reported (its message's framing does not decode; a record
/// whose payload does not fit its type is reported with an `error` instead).
public struct ObjectReportError: Error, Sendable, CustomStringConvertible {
    /// The codec's explanation, with the byte offset (developer-facing).
    public let detail: String
    public var description: String { "invalid message: \(detail)" }
}

extension ScannedObject {
    /// Everything known about the object as one tree: `{"records": [...], "object": {...}}`.
    /// `nfcscan --json` prints it and the daemon hands it to apps (Docs/json-schema.md), so
    /// every face of nfcscan gives the same fields.
    public func report() throws(ObjectReportError) -> ReportValue {
        var fields: [ReportValue.Field]
        switch reading.content {
        case .empty:
            fields = [.init("records", .array([]))]
        case .message(let message):
            do {
                let parsed = try NDEFParser().parse(reading.ndefBytes)
                guard case .object(let decoded) = MessageReport().report(message, layouts: parsed.layouts) else {
                    throw ObjectReportError(detail: "the report is not an object")
                }
                fields = decoded.map { field in
                    guard field.key == "records", let records = field.value.arrayValue else { return field }
                    return .init(field.key, .array(SignatureMarks.marked(records, by: authenticity.signatures)))
                }
            } catch let error as ObjectReportError {
                throw error
            } catch {
                throw ObjectReportError(detail: "\(error)")
            }
        case .undecodable(let error):
            throw ObjectReportError(detail: "\(error)")
        }
        fields = SecureLinkFinding.add(authenticity.secureLinks, to: fields)
        fields.append(.init("object", identity))
        return .object(fields)
    }

    /// The object's identity (developer-facing: technical names are fine here).
    public var identity: ReportValue {
        ObjectIdentity(identifier: identifier, technology: technology, platform: reading.platform, product: reading.product,
                       capacity: reading.capacity, readerName: readerName, backend: backend, roundTrips: reading.roundTrips,
                       formatted: reading.formatted, genuine: authenticity.genuine).report
    }

}

/// Which object, on which reader: the `"object"` of every JSON report (a scan's, `nfcscan
/// write`'s and `info`'s), one layout for all of them. What a face does not know (a write knows
/// no capacity until the driver's status) is left out.
public struct ObjectIdentity: Sendable {
    public var identifier: [UInt8]
    public var technology: ObjectTechnology?
    public var platform: TagPlatform?
    public var product: String?
    public var capacity: Int?
    public var readerName: String
    public var backend: ReaderBackend
    public var roundTrips: Int?
    /// False for a blank object (never formatted for messages); nil or true: formatted or not known.
    public var formatted: Bool?
    /// The chip's originality verdict (Docs/authenticity.md); nil: not checked.
    public var genuine: Genuineness?

    public init(identifier: [UInt8], technology: ObjectTechnology?, platform: TagPlatform?, product: String? = nil,
                capacity: Int? = nil, readerName: String, backend: ReaderBackend, roundTrips: Int? = nil, formatted: Bool? = nil,
                genuine: Genuineness? = nil) {
        self.formatted = formatted
        self.genuine = genuine
        self.identifier = identifier
        self.technology = technology
        self.platform = platform
        self.product = product
        self.capacity = capacity
        self.readerName = readerName
        self.backend = backend
        self.roundTrips = roundTrips
    }

    public var report: ReportValue {
        let hex: ([UInt8]) -> String = { Hex.string($0) }
        var fields: [ReportValue.Field] = [.init("uid", .string(hex(identifier)))]
        if let technology { fields.append(.init("technology", .string(technology.name.rawValue))) }
        switch technology {
        case .iso14443A(let atqa, let sak, let ats)?:
            fields += [.init("atqa", .string(hex(atqa))), .init("sak", .string(hex([sak])))]
            if !ats.isEmpty { fields.append(.init("ats", .string(hex(ats)))) }
        case .felica(let pmm, let systemCode)?:
            fields += [.init("pmm", .string(hex(pmm))), .init("system_code", .string(hex(systemCode)))]
        case .iso14443B(let applicationData, let protocolInfo)?:
            fields += [.init("application_data", .string(hex(applicationData))), .init("protocol_info", .string(hex(protocolInfo)))]
        case .pcscCard(_, let atr)?:
            fields.append(.init("atr", .string(hex(atr))))
        case .other(let modulation)?:
            fields.append(.init("modulation", .string(modulation)))
        case .jewel?, nil:
            break
        }
        if let platform { fields.append(.init("platform", .string(platform.rawValue))) }
        if let product { fields.append(.init("product", .string(product))) }
        if let capacity { fields.append(.init("capacity", .int(capacity))) }
        if formatted == false { fields.append(.init("formatted", .bool(false))) }
        switch genuine {
        case .genuine(let key)?: fields += [.init("genuine", .bool(true)), .init("genuine_key", .string(key))]
        case .notGenuine?: fields.append(.init("genuine", .bool(false)))
        case nil: break
        }
        fields += [.init("reader", .string(readerName)), .init("backend", .string(backend.rawValue))]
        if let roundTrips { fields.append(.init("round_trips", .int(roundTrips))) }
        return .object(fields)
    }

    /// A short developer-facing name for logs: the platform and UID.
    public var summary: String { "\(platform?.rawValue ?? "object") \(Hex.string(identifier))" }
}
