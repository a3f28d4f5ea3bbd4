/// What a notification offers to open, for the catalog's notification sentences: each case gets a
/// whole sentence of its own in every language (never a noun spliced into a shared template), so
/// a translation can inflect and reorder freely.
public enum OfferedContent: String, CaseIterable, Hashable, Sendable {
    case link
    case phoneNumber
    case emailAddress
    case text
    case contact
    case wifiNetwork
    case bluetoothDevice
    /// Anything else: the object itself is named ("the item", "the poster").
    case item
}
