/// Why `UnregisterHandler` was refused. The descriptions are D-Bus error messages.
public enum UnregistrationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No registration has this number (never handed out, or already removed).
    case unknownRegistration(UInt32)
    /// The registration belongs to another connection: only the app that registered may remove it.
    case notOwner(UInt32)

    public var description: String {
        switch self {
        case .unknownRegistration(let id): "no registration \(id)"
        case .notOwner(let id): "registration \(id) belongs to another connection; only its owner may unregister it"
        }
    }
}
