/// Why `RegisterHandler` was refused. The descriptions are D-Bus error messages for the app's
/// developer: each names the option at fault and what would be accepted.
public enum RegistrationError: Error, Hashable, Sendable, CustomStringConvertible {
    case emptyAppName
    /// Control, line-break or bidirectional formatting characters in an option a person may read.
    case invalidCharacters(option: String)
    case tooLong(option: String, length: Int, maximum: Int)
    case invalidDesktopEntry(String)
    case noFilters
    case tooManyFilters(count: Int, maximum: Int)
    /// The filter at `index` (from 0, in the order sent) was refused.
    case invalidFilter(index: Int, FilterError)
    case invalidHandlerPath(String)
    case emptyOwner
    case tooManyRegistrations(maximum: Int)
    /// This connection's registrations would hold more than `maximum` bytes of names and filters.
    case tooLarge(maximum: Int)
    /// The whole registry is full (many connections each registering): a misbehaving session.
    case registryFull(maximum: Int)
    /// Every registration number has been handed out once; numbers are never reused.
    case registrationNumbersExhausted

    /// A bound on what one connection or all of them may keep, not a mistake in the request.
    public var isLimit: Bool {
        switch self {
        case .tooManyRegistrations, .tooLarge, .registryFull: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .emptyAppName:
            "app-name is required: the name people know the app by, shown in notifications"
        case .invalidCharacters(let option):
            "\(option) holds control, line-break or bidirectional formatting characters"
        case .tooLong(let option, let length, let maximum):
            "\(option) is \(length) bytes long; at most \(maximum)"
        case .invalidDesktopEntry(let value):
            "desktop-entry \"\(FilterError.show(value))\" is not a desktop file ID: letters, digits, '.', '_' and '-' (e.g. \"org.example.App\")"
        case .noFilters:
            "filters is required and must hold at least one filter"
        case .tooManyFilters(let count, let maximum):
            "filters holds \(count) filters; at most \(maximum) per registration"
        case .invalidFilter(let index, let error):
            "filter \(index): \(error)"
        case .invalidHandlerPath(let path):
            "handler \"\(FilterError.show(path))\" is not a D-Bus object path"
        case .emptyOwner:
            "the registration has no owner (bus name)"
        case .tooManyRegistrations(let maximum):
            "this connection already has \(maximum) registrations; unregister one first (one registration may hold up to \(HandlerRegistry.maximumFiltersPerRegistration) filters)"
        case .tooLarge(let maximum):
            "this connection's registrations would hold more than \(maximum) bytes of names and filters; register fewer or shorter filters"
        case .registryFull(let maximum):
            "the daemon already holds as many registrations as it keeps (\(maximum), or \(HandlerRegistry.maximumBytes) bytes of names and filters); try again later"
        case .registrationNumbersExhausted:
            "no registration numbers are left; restart the daemon"
        }
    }
}
