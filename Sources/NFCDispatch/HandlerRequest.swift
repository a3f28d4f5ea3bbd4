import NDEFReport

/// What an app asks for in `RegisterHandler`, validated: only a request that passed every check
/// exists, so the registry and the notifications never see a malformed name or filter.
public struct HandlerRequest: Hashable, Sendable {
    /// The name people know the app by; notifications say "Open the contact in <app-name>?".
    public private(set) var appName: String
    /// An icon name from the icon theme, or a path: the notification's icon.
    public private(set) var appIcon: String?
    /// The app's desktop file ID without `.desktop` ("org.example.App"): lets the notification
    /// server show the app's own name and icon, and group its notifications.
    public private(set) var desktopEntry: String?
    public let filters: [HandlerFilter]
    /// What the registration costs the daemon to keep and to list (`ListApps`): the bytes of its
    /// names and filters, each key and value with a few bytes of framing.
    public let weight: Int

    /// Longest accepted values, in UTF-8 bytes. A longer app name would not fit a notification title.
    public static let maximumAppNameLength = 64
    public static let maximumAppIconLength = 1024
    public static let maximumDesktopEntryLength = 255

    /// Checks each option. Surrounding whitespace is trimmed from the name; an empty icon or
    /// desktop entry means none; a trailing `.desktop` is dropped from the desktop entry.
    public init(appName: String, appIcon: String? = nil, desktopEntry: String? = nil, filters: [HandlerFilter]) throws(RegistrationError) {
        let name = appName.trimmingWhitespace
        guard !name.isEmpty else { throw .emptyAppName }
        try Self.check(name, option: "app-name", maximum: Self.maximumAppNameLength)
        self.appName = name

        let icon = appIcon.flatMap { $0.isEmpty ? nil : $0 }
        if let icon { try Self.check(icon, option: "app-icon", maximum: Self.maximumAppIconLength) }
        self.appIcon = icon

        var entry = desktopEntry.flatMap { $0.isEmpty ? nil : $0 }
        if let given = entry {
            let id = given.hasSuffix(".desktop") ? String(given.dropLast(".desktop".count)) : given
            try Self.check(id, option: "desktop-entry", maximum: Self.maximumDesktopEntryLength)
            guard !id.isEmpty, id.unicodeScalars.allSatisfy(Self.isDesktopIDCharacter) else { throw .invalidDesktopEntry(given) }
            entry = id
        }
        self.desktopEntry = entry

        guard !filters.isEmpty else { throw .noFilters }
        guard filters.count <= HandlerRegistry.maximumFiltersPerRegistration else {
            throw .tooManyFilters(count: filters.count, maximum: HandlerRegistry.maximumFiltersPerRegistration)
        }
        self.filters = filters
        weight = name.utf8.count + (icon?.utf8.count ?? 0) + (entry?.utf8.count ?? 0)
            + filters.reduce(0) { sum, filter in
                sum + filter.fields.reduce(16) { $0 + $1.key.utf8.count + $1.value.utf8.count + 16 }
            }
    }

    /// The same from the D-Bus dictionaries of `filters` (see ``HandlerFilter/init(fields:)``);
    /// a refused filter is reported with its index. The count is checked before any filter is read.
    public init(appName: String, appIcon: String? = nil, desktopEntry: String? = nil, filterFields: [[String: String]]) throws(RegistrationError) {
        guard filterFields.count <= HandlerRegistry.maximumFiltersPerRegistration else {
            throw .tooManyFilters(count: filterFields.count, maximum: HandlerRegistry.maximumFiltersPerRegistration)
        }
        var filters: [HandlerFilter] = []
        for (index, fields) in filterFields.enumerated() {
            do {
                filters.append(try HandlerFilter(fields: fields))
            } catch {
                throw .invalidFilter(index: index, error)
            }
        }
        try self.init(appName: appName, appIcon: appIcon, desktopEntry: desktopEntry, filters: filters)
    }


    /// The same registration under the identity the bus gives its app (issue 21): what a person
    /// reads names the app that is calling, never what it says about itself. `name` is cut to
    /// ``maximumAppNameLength`` bytes (at a character); an app ID becomes the desktop entry.
    public func identified(name: String, icon: String?, desktopEntry: String?) -> HandlerRequest {
        var request = self
        var cut = ""
        for character in name {
            guard cut.utf8.count + character.utf8.count <= Self.maximumAppNameLength else { break }
            cut.append(character)
        }
        request.appName = cut.isEmpty ? appName : cut
        request.appIcon = icon.flatMap { $0.isEmpty || $0.utf8.count > Self.maximumAppIconLength ? nil : $0 }
        request.desktopEntry = desktopEntry.flatMap {
            $0.isEmpty || $0.utf8.count > Self.maximumDesktopEntryLength || !$0.unicodeScalars.allSatisfy(Self.isDesktopIDCharacter) ? nil : $0
        }
        return request
    }

    private static func check(_ value: String, option: String, maximum: Int) throws(RegistrationError) {
        let length = value.utf8.count
        if length > maximum { throw .tooLong(option: option, length: length, maximum: maximum) }
        if value.unicodeScalars.contains(where: DisplayText.isUnsafe) { throw .invalidCharacters(option: option) }
    }

    /// Desktop Entry Specification, "Desktop File ID": reverse-DNS names, `-` allowed.
    private static func isDesktopIDCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || scalar == "." || scalar == "_" || scalar == "-"
    }
}
