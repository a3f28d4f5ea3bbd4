import DBusValues

/// A grant as the desktop's permission store keeps it (issue 21): xdg-desktop-portal's
/// `org.freedesktop.impl.portal.PermissionStore`, table ``PermissionTable/table``, resource
/// ``PermissionTable/resource``, each app's key → `["yes"]` or `["no"]`, beside the grants the
/// desktop keeps for cameras and locations, where `flatpak permission-show` and settings panels
/// see and change them.
public enum AppGrant: String, Sendable, Equatable {
    case allowed = "yes"
    case denied = "no"

    /// The store's permissions for one app: its first value that means something.
    public init?(storeValues: [String]) {
        guard let grant = storeValues.lazy.compactMap(AppGrant.init(rawValue:)).first else { return nil }
        self = grant
    }
}

/// The names of nfcscan's table in the permission store, and its entries as D-Bus carries them.
public enum PermissionTable {
    public static let busName = "org.freedesktop.impl.portal.PermissionStore"
    public static let path = "/org/freedesktop/impl/portal/PermissionStore"
    public static let interface = "org.freedesktop.impl.portal.PermissionStore"
    public static let table = "nfcscan"
    /// The one resource: items held near the reader.
    public static let resource = "objects"
    /// The store's error for a table or entry that does not exist yet (nobody answered yet).
    public static let notFound = "org.freedesktop.portal.Error.NotFound"
    /// Apps a table may hold that the daemon mirrors: more are ignored (a store anyone on the
    /// session bus can write to is untrusted input too).
    public static let maximumApps = 4096
    public static let maximumKeyLength = 4096

    /// The grants in a store's `a{sas}` (Lookup's first value, Changed's last); entries that say
    /// nothing it knows are left out.
    public static func grants(_ value: DBusValue) -> [String: AppGrant] {
        guard case .dictionary(_, _, let entries) = value else {
            if case .variant(let inner) = value { return grants(inner) }
            return [:]
        }
        var grants: [String: AppGrant] = [:]
        for entry in entries.prefix(maximumApps) {
            guard let app = entry.key.stringValue, !app.isEmpty, app.utf8.count <= maximumKeyLength,
                  let values = entry.value.arrayValue?.prefix(8).compactMap(\.stringValue),
                  let grant = AppGrant(storeValues: values) else { continue }
            grants[app] = grant
        }
        return grants
    }
}
