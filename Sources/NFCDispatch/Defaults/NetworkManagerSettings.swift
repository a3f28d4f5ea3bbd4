/// One value of a NetworkManager connection setting (`v` in `a{sa{sv}}`), so the D-Bus edge only
/// marshals what is decided here.
public enum ConnectionSetting: Hashable, Sendable {
    case string(String)
    case bytes([UInt8])
    case uint32(UInt32)
}

extension WiFiCredentials {
    /// The settings for NetworkManager's `AddAndActivateConnection` (its D-Bus API, the
    /// `802-11-wireless` and `802-11-wireless-security` settings): NetworkManager fills in the rest
    /// (IP configuration, a UUID, autoconnect), as it does for a network chosen in its own menu.
    public var networkManagerSettings: [String: [String: ConnectionSetting]] {
        var settings: [String: [String: ConnectionSetting]] = [
            "connection": ["type": .string("802-11-wireless"), "id": .string(name)],
            "802-11-wireless": ["ssid": .bytes(ssid), "mode": .string("infrastructure")],
        ]
        switch security {
        case .open:
            break
        case .wep(let key, let sharedKey):
            // wep-key-type 1: the key itself (ASCII or hex), not a passphrase to hash.
            settings["802-11-wireless-security"] = [
                "key-mgmt": .string("none"), "auth-alg": .string(sharedKey ? "shared" : "open"),
                "wep-key0": .string(key), "wep-key-type": .uint32(1),
            ]
        case .wpaPersonal(let passphrase):
            settings["802-11-wireless-security"] = ["key-mgmt": .string("wpa-psk"), "psk": .string(passphrase)]
        }
        return settings
    }
}
