/// What the daemon offers the person for an object: to send it to the app that asked for it, or,
/// when no app did, to open its web link in the browser.
public enum Offer: Hashable, Sendable {
    case handler(HandlerMatch)
    case webLink(WebLink)
}
