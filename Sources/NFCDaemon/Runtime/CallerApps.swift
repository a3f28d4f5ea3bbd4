import Systemd

/// Who a caller is, as the core keeps it (``CallerApp``): its identity from the bus, named and
/// pictured by its desktop entry.
enum CallerApps {
    /// How long finding out may take (one bus call, a few small files under /proc).
    static let deadline: Duration = .seconds(5)

    static func identify(_ caller: String, bus: BusConnection) async -> CallerApp? {
        // Stand-in until the identity resolver lands: the connection's own name.
        CallerApp(key: caller, appID: nil, name: caller, icon: "", sandboxed: false, summary: caller)
    }
}
