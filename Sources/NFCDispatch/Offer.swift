import NDEFReport

/// What the daemon offers the person for an object: to send it to the app that asked for it, or,
/// when no app did, to hand what it holds to the person's own default apps — its web link to the
/// browser, another link or a file to the app chosen for its kind, a network to NetworkManager.
public enum Offer: Hashable, Sendable {
    case handler(HandlerMatch)
    case webLink(WebLink)
    /// A ``DefaultContent/schemeLink(_:)`` or ``DefaultContent/mediaFile(_:)`` for `DefaultApp`.
    case defaultApp(DefaultContent, DefaultApp)
    case joinNetwork(WiFiCredentials)

    /// The order the issue sets: an app that asked (running or installed, most specific filter
    /// first), then the person's default for the content, else nothing.
    public static func choose(for report: ReportValue, registry: HandlerRegistry, defaults: PersonalDefaults,
                              canJoinNetworks: Bool) -> Offer? {
        if let match = registry.match(report) { return .handler(match) }
        guard let choice = defaults.choice(for: report, canJoinNetworks: canJoinNetworks) else { return nil }
        switch choice.content {
        case .webLink(let link): return .webLink(link)
        case .wifiNetwork(let network): return .joinNetwork(network)
        case .schemeLink, .mediaFile: return choice.app.map { .defaultApp(choice.content, $0) }
        }
    }
}
