/// What went wrong talking D-Bus, in words a developer can act on.
public enum BusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No bus could be reached (no session bus address, the daemon is gone).
    case connect(address: String, detail: String)
    /// The peer answered with a D-Bus error (`name` like org.freedesktop.DBus.Error.ServiceUnknown).
    case remote(name: String, message: String)
    /// A value could not be written to or read from a message.
    case marshal(String)
    /// A message larger than this side reads (``ReadLimit``): refused before it was decoded.
    case tooLarge(String)
    /// The bus name is owned by another connection.
    case nameTaken(String)
    /// The connection was closed (by us or by the bus).
    case closed
    /// The caller's task was cancelled before the answer came (the call may still take effect).
    case cancelled
    /// An sd-bus call failed with an errno.
    case system(call: String, detail: String)

    public var description: String {
        switch self {
        case .connect(let address, let detail): "cannot connect to the bus at \(address): \(detail)"
        case .remote(let name, let message): "\(name): \(message)"
        case .marshal(let detail): "bad D-Bus message: \(detail)"
        case .tooLarge(let detail): "message too large: \(detail)"
        case .nameTaken(let name): "the bus name \(name) is already owned by another program"
        case .closed: "the bus connection is closed"
        case .cancelled: "the call was cancelled before its answer came"
        case .system(let call, let detail): "\(call) failed: \(detail)"
        }
    }

    /// The D-Bus error name, for remote errors.
    public var remoteName: String? {
        if case .remote(let name, _) = self { return name }
        return nil
    }
}
