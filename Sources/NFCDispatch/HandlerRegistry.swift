import NDEFReport

/// Every app handler the daemon knows, and the decision of which one an object goes to: apps
/// running now that registered, and installed apps that declared filters in their desktop entry.
///
/// A plain value with no bus in sight: the daemon keeps one (inside its actor), calls
/// ``register(_:owner:handlerPath:)`` and ``unregister(_:by:)`` for the D-Bus methods,
/// ``removeAll(owner:)`` when a connection closes, sets ``declarations`` when the installed
/// apps change, and calls ``offer(for:)`` for each object read.
public struct HandlerRegistry: Sendable {
    /// Bounds what one app can make every object cost, and what it can hold in the daemon's memory.
    public static let maximumFiltersPerRegistration = 64
    public static let maximumRegistrationsPerOwner = 32
    /// Over all owners: a bound on memory and matching time whatever a session's programs do.
    public static let maximumRegistrations = 1024
    /// Bytes of names and filters (``HandlerRequest/weight``) one connection may keep registered,
    /// and all of them together: what keeps `ListApps`' answer a few MiB, far under the bus's
    /// message limit (32 MiB by default), however many connections register the largest handlers.
    public static let maximumBytesPerOwner = 256 * 1024
    public static let maximumBytes = 4 * 1024 * 1024
    /// Records after these are not matched: real messages hold a few, and a hostile one holding
    /// thousands of distinct links must not make path-prefix matching cost filters × thousands.
    public static let maximumRecordsConsidered = 256

    /// In registration order (oldest first).
    public private(set) var registrations: [HandlerRegistration] = []
    private var nextID: UInt64 = 1
    /// The installed apps' declarations (``AppDeclaration``), in desktop file ID order.
    public var declarations: [AppDeclaration] = []

    public init() {}

    /// Adds a registration and returns its number (from 1, increasing, never reused).
    public mutating func register(_ request: HandlerRequest, owner: String, handlerPath: String) throws(RegistrationError) -> UInt32 {
        guard !owner.isEmpty else { throw .emptyOwner }
        guard Self.isObjectPath(handlerPath) else { throw .invalidHandlerPath(handlerPath) }
        guard registrations.count < Self.maximumRegistrations else { throw .registryFull(maximum: Self.maximumRegistrations) }
        guard registrations.count(where: { $0.owner == owner }) < Self.maximumRegistrationsPerOwner else {
            throw .tooManyRegistrations(maximum: Self.maximumRegistrationsPerOwner)
        }
        let weight = request.weight
        guard registrations.reduce(weight, { $0 + $1.request.weight }) <= Self.maximumBytes else {
            throw .registryFull(maximum: Self.maximumRegistrations)
        }
        guard registrations.reduce(weight, { $0 + ($1.owner == owner ? $1.request.weight : 0) }) <= Self.maximumBytesPerOwner else {
            throw .tooLarge(maximum: Self.maximumBytesPerOwner)
        }
        guard nextID <= UInt64(UInt32.max) else { throw .registrationNumbersExhausted }
        let id = UInt32(nextID)
        nextID += 1
        registrations.append(HandlerRegistration(id: id, owner: owner, handlerPath: handlerPath, request: request))
        return id
    }

    /// Removes registration `id` if `owner` made it; returns what was removed.
    @discardableResult
    public mutating func unregister(_ id: UInt32, by owner: String) throws(UnregistrationError) -> HandlerRegistration {
        guard let index = registrations.firstIndex(where: { $0.id == id }) else { throw .unknownRegistration(id) }
        guard registrations[index].owner == owner else { throw .notOwner(id) }
        return registrations.remove(at: index)
    }

    /// Removes every registration of `owner` (its connection closed); returns them.
    @discardableResult
    public mutating func removeAll(owner: String) -> [HandlerRegistration] {
        let removed = registrations.filter { $0.owner == owner }
        registrations.removeAll { $0.owner == owner }
        return removed
    }

    /// The registration numbered `id`, while it lasts (the daemon looks it up again when the
    /// person accepts an offer, since the app may have gone meanwhile).
    public func registration(_ id: UInt32) -> HandlerRegistration? {
        registrations.first { $0.id == id }
    }

    /// The app `report` (a `MessageReport` tree) goes to, or nil when no filter matches.
    ///
    /// Every filter is tried against every record. The winner: the most specific filter
    /// (``FilterSpecificity``); among equals, a running app before an installed one, the most
    /// recent registration first; within one app, the first of its filters listed. The match
    /// names the first record that filter matches.
    ///
    /// A declaration of an app that is running and registered (its `desktop-entry` is the
    /// declaration's ID) is the running app's: an object its desktop entry asks for goes to its
    /// newest registration's HandleScan, so no second instance is started.
    public func match(_ report: ReportValue) -> HandlerMatch? {
        let records = RecordIndex((report["records"]?.arrayValue ?? []).prefix(Self.maximumRecordsConsidered))
        var best: (specificity: FilterSpecificity, match: HandlerMatch)?
        // In order of precedence, so a later candidate replaces the best only when strictly more specific.
        for (app, filters) in candidates {
            for filter in filters {
                let specificity = filter.specificity
                if let best, specificity <= best.specificity { continue }
                guard let recordIndex = records.firstMatch(of: filter) else { continue }
                best = (specificity, HandlerMatch(app: app, filter: filter, recordIndex: recordIndex))
            }
        }
        return best?.match
    }

    /// Every app with its filters, in order of precedence between equally specific filters:
    /// registrations newest first, then declarations (a running app's as that app's).
    private var candidates: [(HandlerApp, [HandlerFilter])] {
        var running: [String: HandlerRegistration] = [:]
        for registration in registrations { if let entry = registration.desktopEntry { running[entry] = registration } }
        return registrations.reversed().map { (.registered($0), $0.filters) }
            + declarations.map { declaration in
                (running[declaration.id.name].map(HandlerApp.registered) ?? .declared(declaration), declaration.filters)
            }
    }

    /// The newest registration of the app whose desktop file ID (without `.desktop`) is `entry`.
    public func running(_ entry: String) -> HandlerRegistration? {
        registrations.last { $0.desktopEntry == entry }
    }

    /// What to offer for `report` when nothing but the browser is known: its handler's match,
    /// else its first web link (``Offer/choose(for:registry:defaults:canJoinNetworks:)``).
    public func offer(for report: ReportValue) -> Offer? {
        Offer.choose(for: report, registry: self, defaults: PersonalDefaults(), canJoinNetworks: false)
    }

    /// D-Bus object path syntax: `/`, or `/`-separated non-empty elements of `[A-Za-z0-9_]`.
    static func isObjectPath(_ path: String) -> Bool {
        guard path.hasPrefix("/") else { return false }
        if path == "/" { return true }
        return path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).allSatisfy { element in
            !element.isEmpty && element.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
            }
        }
    }
}
