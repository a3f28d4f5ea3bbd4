import AppIdentity
import NFCBusAPI

/// Who is calling, as the runtime found out from the bus itself (issue 21): the connection's
/// credentials, then the app ID of its systemd scope or Flatpak sandbox, else its executable;
/// never what the app says about itself. The core keeps one per connection while it lives.
struct CallerApp: Sendable, Equatable {
    /// What grants are kept under: the app ID, else the executable's path.
    var key: String
    /// The app ID (desktop file ID without `.desktop`), when the scope or the sandbox gives one.
    var appID: String?
    /// What the person reads: the desktop entry's Name, else the app ID or the executable's name.
    var name: String
    /// The desktop entry's Icon (a theme name or an absolute path); empty: none.
    var icon: String
    /// A Flatpak app: never allowed by default.
    var sandboxed: Bool
    /// For logs: the key, the process and the user ("org.example.Posters, flatpak, pid 4242, uid 1000").
    var summary: String
    /// nfcscan's own web host (the `nfcscan` binary beside nfcscand, unsandboxed): the one caller
    /// whose sessions may name the web page they are for (the `origin` option, issue 22).
    var mayNameSites = false

    /// The site a session of nfcscan's web host is for: asked first as a sandboxed app is (a page
    /// is the person's visit, not a program they installed), its answer kept under its origin
    /// (`https://example.com`: never an app ID, which holds no `/`, nor a path, which starts with one).
    static func site(_ origin: WebOrigin, through host: CallerApp) -> CallerApp {
        CallerApp(key: origin.serialized, appID: nil, name: origin.displayName, icon: "", sandboxed: true,
                  summary: "site \(origin.serialized) through \(host.summary)")
    }
}

/// Whether an app may start a session (scan or write; writes also ask before each change).
enum AppPermission: Equatable, Sendable {
    case allow
    /// Refused at once, with no sheet.
    case deny
    /// The sheet asks the person first.
    case ask

    /// Apps outside a sandbox may read by default (the person started them; they could open the
    /// reader themselves); sandboxed apps are asked the first time, and refused where nothing can
    /// ask (no display). A kept answer always wins.
    static func decide(for app: CallerApp, grant: AppGrant?, canAsk: Bool) -> AppPermission {
        switch grant {
        case .allowed: return .allow
        case .denied: return .deny
        case nil: return app.sandboxed ? (canAsk ? .ask : .deny) : .allow
        }
    }
}
