/// What a notification offers to do with content no app asked for, in the person's own default
/// app (or by joining a network): each case gets a whole sentence and its own button in every
/// language, since "Add … to Contacts?" and "Call …?" share no template a translation could keep.
///
/// Values are display-safe and already shortened when a catalog sees them.
public enum DefaultAppOffer: Hashable, Sendable {
    /// A contact card; `name` is its formatted name, if it has one.
    case addContact(name: String?, app: String)
    case addEvent(app: String)
    case call(number: String)
    case sendMessage(number: String)
    case writeEmail(address: String)
    case joinNetwork(name: String)
    case openLocation(app: String)
    case openPicture(app: String)
    case openDocument(app: String)
    case openText(app: String)
    /// A link of a scheme some app of the person's handles (not a web link: those open in the
    /// browser, ``ScanCopyCatalog/notificationOpenLink(_:)``).
    case openLink(app: String)

    /// One sample of every case, for ``CopyRules`` and the catalog tests.
    public static func samples(_ value: String) -> [(key: String, offer: DefaultAppOffer)] {
        [("addContact", .addContact(name: value, app: value)), ("addContactWithoutName", .addContact(name: nil, app: value)),
         ("addEvent", .addEvent(app: value)), ("call", .call(number: value)), ("sendMessage", .sendMessage(number: value)),
         ("writeEmail", .writeEmail(address: value)), ("joinNetwork", .joinNetwork(name: value)),
         ("openLocation", .openLocation(app: value)), ("openPicture", .openPicture(app: value)),
         ("openDocument", .openDocument(app: value)), ("openText", .openText(app: value)), ("openLink", .openLink(app: value))]
    }
}
