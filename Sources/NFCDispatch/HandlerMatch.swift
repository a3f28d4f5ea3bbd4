import NDEFReport

/// The app an object goes to, and why: the filter that won and the record it matched, so the
/// notification can name what the app will receive.
public struct HandlerMatch: Hashable, Sendable {
    public let app: HandlerApp
    public let filter: HandlerFilter
    /// Index into the report's top-level `records`.
    public let recordIndex: Int

    /// The link the filter matched (a URI filter's record's URI, well formed since it matched),
    /// for an app started with `%u`; nil for other filters.
    public func link(in report: ReportValue) -> String? {
        guard case .uri = filter.kind, let records = report["records"]?.arrayValue, records.indices.contains(recordIndex) else { return nil }
        return MatchableRecord(records[recordIndex]).uri != nil ? records[recordIndex]["uri"]?.stringValue : nil
    }

    public init(app: HandlerApp, filter: HandlerFilter, recordIndex: Int) {
        self.app = app
        self.filter = filter
        self.recordIndex = recordIndex
    }
}
