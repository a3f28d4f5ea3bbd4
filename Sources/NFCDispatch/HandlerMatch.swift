/// The app an object goes to, and why: the filter that won and the record it matched, so the
/// notification can name what the app will receive.
public struct HandlerMatch: Hashable, Sendable {
    public let app: HandlerApp
    public let filter: HandlerFilter
    /// Index into the report's top-level `records`.
    public let recordIndex: Int

    public init(app: HandlerApp, filter: HandlerFilter, recordIndex: Int) {
        self.app = app
        self.filter = filter
        self.recordIndex = recordIndex
    }
}
