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
                fields = decoded
            } catch let error as ObjectReportError {
                throw error
            } catch {
                throw ObjectReportError(detail: "\(error)")
            }
        case .undecodable(let error):
            throw ObjectReportError(detail: "\(error)")
        }
        fields.append(.init("object", identity))
        return .object(fields)
    }

    /// The object's identity (developer-facing: technical names are fine here).
    public var identity: ReportValue {
        var fields: [ReportValue.Field] = [.init("uid", .string(Self.hex(identifier)))]
        switch technology {
        case .iso14443A(let atqa, let sak, let ats):
            fields += [.init("technology", .string("iso14443a")), .init("atqa", .string(Self.hex(atqa))), .init("sak", .string(Self.hex([sak])))]
            if !ats.isEmpty { fields.append(.init("ats", .string(Self.hex(ats)))) }
        case .felica(let pmm, let systemCode):
            fields += [.init("technology", .string("felica")), .init("pmm", .string(Self.hex(pmm))),
                       .init("system_code", .string(Self.hex(systemCode)))]
        case .iso14443B(let applicationData, let protocolInfo):
            fields += [.init("technology", .string("iso14443b")), .init("application_data", .string(Self.hex(applicationData))),
                       .init("protocol_info", .string(Self.hex(protocolInfo)))]
        case .jewel:
            fields.append(.init("technology", .string("jewel")))
        case .other(let name):
            fields.append(.init("technology", .string(name)))
        }
        fields.append(.init("platform", .string(reading.platform.rawValue)))
        if let product = reading.product { fields.append(.init("product", .string(product))) }
        fields += [
            .init("capacity", .int(reading.capacity)),
            .init("reader", .string(readerName)),
            .init("backend", .string(backend.rawValue)),
            .init("round_trips", .int(reading.roundTrips)),
        ]
        return .object(fields)
    }

    /// Lower-case hex without separators, as the JSON schema writes identifiers.
    public static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
