import NFCDispatch
import Systemd

/// Joining a network an object offers, once the person chose to: NetworkManager's
/// `AddAndActivateConnection` on the system bus. NetworkManager asks polkit whether the person may
/// add the connection, and its own agent for anything missing, so nothing here decides that.
enum NetworkManagerJoin {
    static let service = "org.freedesktop.NetworkManager"
    static let path = "/org/freedesktop/NetworkManager"
    static let interface = "org.freedesktop.NetworkManager"
    static let method = "AddAndActivateConnection"

    /// The call's arguments: the settings (`a{sa{sv}}`), then `/` for the device and the specific
    /// object, which lets NetworkManager choose the Wi-Fi device and access point itself.
    static func arguments(_ network: WiFiCredentials) -> [DBusValue] {
        let settings = network.networkManagerSettings.sorted { $0.key < $1.key }.map { group, values in
            DBusDictEntry(.string(group), .vardict(values.mapValues(value)))
        }
        return [.dictionary(keySignature: "s", valueSignature: "a{sv}", settings), .objectPath("/"), .objectPath("/")]
    }

    private static func value(_ setting: ConnectionSetting) -> DBusValue {
        switch setting {
        case .string(let text): .string(text)
        case .bytes(let bytes): .array(elementSignature: "y", bytes.map(DBusValue.byte))
        case .uint32(let number): .uint32(number)
        }
    }
}
