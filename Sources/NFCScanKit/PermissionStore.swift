import DBusValues
import NFCBusAPI
import Systemd

/// The desktop's permission store (xdg-desktop-portal's `xdg-permission-store`, D-Bus activated)
/// as nfcscan uses it (issue 21), the one client of its `nfcscan` table: nfcscand reads the grants
/// at start and again on each `Changed` signal (whatever changed them: the daemon, `nfcscan apps
/// --allow`, `flatpak permission-set`, a settings panel) and writes the person's answers;
/// `nfcscan apps` lists and changes them. The names and the bounded decoding are
/// ``PermissionTable``'s.
public enum PermissionStore {
    /// Follows the table: its whole content after every change, into `grants`.
    public static func follow(bus: BusConnection, grants: @escaping @Sendable ([String: AppGrant]) -> Void) throws(BusError) -> BusSubscription {
        try bus.addMatch("type='signal',sender='\(PermissionTable.busName)',interface='\(PermissionTable.interface)',"
                         + "member='Changed',arg0='\(PermissionTable.table)',arg1='\(PermissionTable.resource)'") { signal in
            // Changed(table s, id s, deleted b, data v, permissions a{sas})
            guard signal.arguments.count == 5 else { return }
            grants(signal.arguments[2].boolValue == true ? [:] : PermissionTable.grants(signal.arguments[4]))
        }
    }

    /// The table's grants now; empty when it does not exist yet; the bus's error when there is no store.
    public static func lookup(bus: BusConnection, deadline: Duration) async -> Result<[String: AppGrant], BusError> {
        do throws(BusError) {
            let reply = try await bus.call(destination: PermissionTable.busName, path: PermissionTable.path, interface: PermissionTable.interface,
                                           member: "Lookup", [.string(PermissionTable.table), .string(PermissionTable.resource)], timeout: deadline)
            return .success(reply.first.map(PermissionTable.grants) ?? [:])
        } catch where error.remoteName == PermissionTable.notFound {
            return .success([:])
        } catch {
            return .failure(error)
        }
    }

    /// Keeps `grant` for `app`.
    public static func set(_ grant: AppGrant, for app: String, bus: BusConnection, deadline: Duration) async throws(BusError) {
        _ = try await bus.call(destination: PermissionTable.busName, path: PermissionTable.path, interface: PermissionTable.interface,
                               member: "SetPermission",
                               [.string(PermissionTable.table), .boolean(true), .string(PermissionTable.resource), .string(app),
                                .strings([grant.rawValue])], timeout: deadline)
    }

    /// Forgets what was kept for `app` (nothing kept: done already).
    public static func forget(_ app: String, bus: BusConnection, deadline: Duration) async throws(BusError) {
        do throws(BusError) {
            _ = try await bus.call(destination: PermissionTable.busName, path: PermissionTable.path, interface: PermissionTable.interface,
                                   member: "DeletePermission",
                                   [.string(PermissionTable.table), .string(PermissionTable.resource), .string(app)], timeout: deadline)
        } catch where error.remoteName == PermissionTable.notFound {
            return
        }
    }
}
