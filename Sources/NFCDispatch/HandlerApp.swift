/// The app an object goes to: one running now that registered (`RegisterHandler`), or one
/// installed that declared its filters in its desktop entry and is started to receive it.
public enum HandlerApp: Hashable, Sendable {
    case registered(HandlerRegistration)
    case declared(AppDeclaration)

    public var request: HandlerRequest {
        switch self {
        case .registered(let registration): registration.request
        case .declared(let declaration): declaration.request
        }
    }

    /// The registration, for a running app.
    public var registration: HandlerRegistration? {
        if case .registered(let registration) = self { registration } else { nil }
    }

    public var appName: String { request.appName }
    public var appIcon: String? { request.appIcon }
    public var desktopEntry: String? { request.desktopEntry }
}
