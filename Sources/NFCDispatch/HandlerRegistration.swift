/// One app handler the daemon knows: the validated request, who made it, and where to deliver.
public struct HandlerRegistration: Hashable, Sendable, Identifiable {
    /// The number `RegisterHandler` returned: unique for the daemon's lifetime, never reused, so a
    /// stale number can't unregister someone else's later registration.
    public let id: UInt32
    /// The unique bus name of the connection that registered (":1.42"): the only one that may
    /// unregister it, and the registration ends when that connection closes.
    public let owner: String
    /// The object implementing `org.nfcscan.Handler1` on the owner's connection.
    public let handlerPath: String
    public let request: HandlerRequest

    public var appName: String { request.appName }
    public var appIcon: String? { request.appIcon }
    public var desktopEntry: String? { request.desktopEntry }
    public var filters: [HandlerFilter] { request.filters }
}
