import NDEFReport

/// Every app handler the daemon knows, and the decision of which one an object goes to.
///
/// A plain value with no bus in sight: the daemon keeps one (inside its actor), calls
/// ``register(_:owner:handlerPath:)`` and ``unregister(_:by:)`` for the D-Bus methods,
/// ``removeAll(owner:)`` when a connection closes, and ``offer(for:)`` for each object read.
public struct HandlerRegistry: Sendable {
    /// Bounds what one app can make every object cost, and what it can hold in the daemon's memory.
    public static let maximumFiltersPerRegistration = 64
    public static let maximumRegistrationsPerOwner = 32
    /// Over all owners: a bound on memory and matching time whatever a session's programs do.
    public static let maximumRegistrations = 1024
    /// Records after these are not matched: real messages hold a few, and a hostile one holding
    /// thousands of distinct links must not make path-prefix matching cost filters × thousands.
    public static let maximumRecordsConsidered = 256

    /// In registration order (oldest first).
    public private(set) var registrations: [HandlerRegistration] = []
    private var nextID: UInt64 = 1

    public init() {}

    /// Adds a registration and returns its number (from 1, increasing, never reused).
    public mutating func register(_ request: HandlerRequest, owner: String, handlerPath: String) throws(RegistrationError) -> UInt32 {
        guard !owner.isEmpty else { throw .emptyOwner }
        guard Self.isObjectPath(handlerPath) else { throw .invalidHandlerPath(handlerPath) }
        guard registrations.count < Self.maximumRegistrations else { throw .registryFull(maximum: Self.maximumRegistrations) }
        guard registrations.count(where: { $0.owner == owner }) < Self.maximumRegistrationsPerOwner else {
            throw .tooManyRegistrations(maximum: Self.maximumRegistrationsPerOwner)
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

    /// The registration `report` (a `MessageReport` tree) goes to, or nil when no filter matches.
    ///
    /// Every filter is tried against every record. The winner: the most specific filter
    /// (``FilterSpecificity``); among equals, the most recent registration; within it, the first
    /// of those filters it listed. The match names the first record that filter matches.
    public func match(_ report: ReportValue) -> HandlerMatch? {
        let records = RecordIndex((report["records"]?.arrayValue ?? []).prefix(Self.maximumRecordsConsidered))
        var best: (specificity: FilterSpecificity, match: HandlerMatch)?
        // Newest first, so a later candidate replaces the best only when strictly more specific.
        for registration in registrations.reversed() {
            for filter in registration.filters {
                let specificity = filter.specificity
                if let best, specificity <= best.specificity { continue }
                guard let recordIndex = records.firstMatch(of: filter) else { continue }
                best = (specificity, HandlerMatch(registration: registration, filter: filter, recordIndex: recordIndex))
            }
        }
        return best?.match
    }

    /// What to offer for `report`: its handler's match, else its web link (``WebLink/defaultAction(for:)``).
    public func offer(for report: ReportValue) -> Offer? {
        if let match = match(report) { return .handler(match) }
        return WebLink.defaultAction(for: report).map(Offer.webLink)
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
