/// One desktop notification, ready for `org.freedesktop.Notifications.Notify`: every field
/// decided here, so the D-Bus layer only marshals.
public struct NotificationContent: Hashable, Sendable {
    /// A button (or, for ``defaultActionKey``, a click on the notification itself).
    public struct Action: Hashable, Sendable {
        public let key: String
        /// One or two words saying what happens ("Open", "Open in Browser").
        public let label: String

        public init(key: String, label: String) {
            self.key = key
            self.label = label
        }
    }

    /// The spec's `urgency` hint values.
    public enum Urgency: UInt8, Hashable, Sendable {
        case low = 0
        case normal = 1
        case critical = 2
    }

    /// The hints the daemon sets (`a{sv}`): `category` s, `desktop-entry` s when known,
    /// `transient` b, `urgency` y.
    public struct Hints: Hashable, Sendable {
        /// `x-nfcscan.object` for an offer, `x-nfcscan.object.error` for a failure (vendor
        /// categories: none of the standard ones names a scanned object).
        public let category: String
        public let desktopEntry: String?
        /// True for everything here: an offer expires with the object's moment, and a stale one
        /// in the notification history would open nothing.
        public let transient: Bool
        public let urgency: Urgency

        public init(category: String, desktopEntry: String? = nil, transient: Bool = true, urgency: Urgency = .normal) {
            self.category = category
            self.desktopEntry = desktopEntry
            self.transient = transient
            self.urgency = urgency
        }
    }

    /// The key of the action run when the notification itself is clicked (Notifications spec).
    public static let defaultActionKey = "default"
    /// The key of the button that accepts the offer; it does the same as ``defaultActionKey``.
    public static let openActionKey = "open"

    /// Plain text that no server reads as markup (``NotificationMarkup/inert(_:)``).
    public let appName: String
    /// An icon name or path; empty for none (as the spec wants).
    public let appIcon: String
    /// Plain text, display-safe, at most ``NotificationComposer/summaryLimit`` characters, that no
    /// server reads as markup (``NotificationMarkup/inert(_:)``).
    public let summary: String
    /// The body escaped for a server that reads markup (``NotificationMarkup/escape(_:)``). Use
    /// this unless the server's capabilities lack `body-markup`; nil: no body.
    public let body: String?
    /// The same body as plain, display-safe text, for servers without `body-markup`.
    public let plainBody: String?
    public let actions: [Action]
    public let hints: Hints
    /// Milliseconds until the server withdraws it.
    public let expireTimeout: Int32

    /// The markup body is derived from `plainBody` here, so the two never disagree and no caller
    /// can forget the escaping; the summary and app name are made inert here for the same reason.
    public init(appName: String, appIcon: String, summary: String, plainBody: String?, actions: [Action], hints: Hints, expireTimeout: Int32) {
        self.appName = NotificationMarkup.inert(appName)
        self.appIcon = appIcon
        self.summary = NotificationMarkup.inert(summary)
        self.plainBody = plainBody
        self.body = plainBody.map(NotificationMarkup.escape)
        self.actions = actions
        self.hints = hints
        self.expireTimeout = expireTimeout
    }
}
