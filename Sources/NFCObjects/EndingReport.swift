import NDEFReport
import NFCCopy

/// How one object's job ended, as `--json` prints it: `nfcscan write`, `erase` and `lock` always,
/// and a scan or `nfcscan info` that failed, in one shape (Docs/schemas/ending.schema.json).
public enum EndingReport {
    /// `{"ending", "error"?, ...fields, "object"?}`: `error` is the technical cause (absent when done).
    public static func report(_ ending: WriteEnding, error: String? = nil, fields: [ReportValue.Field] = [],
                              object: ObjectIdentity? = nil) -> ReportValue {
        var all: [ReportValue.Field] = [.init("ending", .string(ending.rawValue))]
        if let error { all.append(.init("error", .string(error))) }
        all += fields
        if let object { all.append(.init("object", object.report)) }
        return .object(all)
    }
}
