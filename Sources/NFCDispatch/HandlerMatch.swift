/// The registration an object goes to, and why: the filter that won and the record it matched,
/// so the notification can name what the app will receive.
public struct HandlerMatch: Hashable, Sendable {
    public let registration: HandlerRegistration
    public let filter: HandlerFilter
    /// Index into the report's top-level `records`.
    public let recordIndex: Int
}
