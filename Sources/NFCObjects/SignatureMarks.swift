import Authenticity
import NDEFReport

/// What the Signature record checks found, written into a message's report: each Signature
/// record gains `verified` (and `signed_by` when its chain reaches a trusted root, or
/// `unverified_reason`); it and each record it covers gain `signed` (Docs/json-schema.md).
enum SignatureMarks {
    /// `records` (the top-level records' reports, in message order) with the marks of `signatures`.
    static func marked(_ records: [ReportValue], by signatures: [MessageSignature]) -> [ReportValue] {
        guard !signatures.isEmpty else { return records }
        return records.enumerated().map { index, record in
            guard case .object(var fields) = record else { return record }
            if let status = signatures.status(ofRecord: index) {
                fields.append(.init("signed", .string(status.rawValue)))
            }
            if let verdict = signatures.verdict(ofSignatureRecord: index) {
                if let status = verdict.recordStatus { fields.append(.init("signed", .string(status.rawValue))) }
                if case .verified(let signer) = verdict {
                    fields.append(.init("verified", .bool(true)))
                    if let signer { fields.append(.init("signed_by", .string(signer))) }
                } else {
                    fields.append(.init("verified", .bool(false)))
                    if let reason = verdict.reason { fields.append(.init("unverified_reason", .string(reason))) }
                }
            }
            return .object(fields)
        }
    }
}
