import Authenticity
import NDEF
import NDEFReport

extension SecureLinkFinding {
    /// `{"verified": …, "uid": …, "counter": …, "replayed": …}`: the UID, the counter and
    /// `replayed` only for a link that verified (Docs/json-schema.md).
    public var report: ReportValue {
        var fields: [ReportValue.Field] = [.init("verified", .bool(verified))]
        if verified, let uid, let counter {
            fields += [.init("uid", .string(Hex.string(uid))), .init("counter", .int(counter)), .init("replayed", .bool(replayed))]
        }
        return .object(fields)
    }

    /// `fields` (a report's) with each finding's `"secure_link"` added to the record it is about.
    static func add(_ findings: [SecureLinkFinding], to fields: [ReportValue.Field]) -> [ReportValue.Field] {
        guard !findings.isEmpty else { return fields }
        return fields.map { field in
            guard field.key == "records", case .array(var records) = field.value else { return field }
            for finding in findings where records.indices.contains(finding.recordIndex) {
                if case .object(let recordFields) = records[finding.recordIndex] {
                    records[finding.recordIndex] = .object(recordFields + [.init("secure_link", finding.report)])
                }
            }
            return .init(field.key, .array(records))
        }
    }
}
