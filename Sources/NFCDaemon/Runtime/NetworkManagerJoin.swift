import DBusValues
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

    static let deviceInterface = "org.freedesktop.NetworkManager.Device"
    /// NM_DEVICE_TYPE_WIFI.
    static let wifiDeviceType: UInt32 = 2

    /// Finds NetworkManager's first Wi-Fi device and asks it to add and activate the network;
    /// returns the new connection's path (for the log). Throws NetworkManager's refusal (no
    /// permission, no such network in range), or ``BusError`` naming that there is no Wi-Fi
    /// device.
    static func join(_ network: WiFiCredentials, bus: BusConnection, deadline: Duration) async throws(BusError) -> String {
        let devices = try await bus.call(destination: service, path: path, interface: interface, member: "GetDevices", timeout: deadline)
            .first?.arrayValue?.compactMap(\.stringValue) ?? []
        var wifi: String?
        for device in devices {
            let type = try await bus.call(destination: service, path: device, interface: "org.freedesktop.DBus.Properties", member: "Get",
                                          [.string(deviceInterface), .string("DeviceType")], timeout: deadline).first
            if type?.intValue == Int(wifiDeviceType) { wifi = device; break }
        }
        guard let wifi else { throw BusError.remote(name: "org.nfcscan.Error.NoWiFiDevice", message: "NetworkManager has no Wi-Fi device") }
        let answer = try await bus.call(destination: service, path: path, interface: interface, member: method,
                                        arguments(network, device: wifi), timeout: deadline)
        return "NetworkManager, connection \(answer.first?.stringValue ?? "?") on \(wifi)"
    }

    /// The call's arguments: the settings (`a{sa{sv}}`), the Wi-Fi device, then `/` for the
    /// specific object, which lets NetworkManager find the access point by the SSID.
    static func arguments(_ network: WiFiCredentials, device: String) -> [DBusValue] {
        let settings = network.networkManagerSettings.sorted { $0.key < $1.key }.map { group, values in
            DBusDictEntry(.string(group), .vardict(values.mapValues(value)))
        }
        return [.dictionary(keySignature: "s", valueSignature: "a{sv}", settings), .objectPath(device), .objectPath("/")]
    }

    private static func value(_ setting: ConnectionSetting) -> DBusValue {
        switch setting {
        case .string(let text): .string(text)
        case .bytes(let bytes): .array(elementSignature: "y", bytes.map(DBusValue.byte))
        case .uint32(let number): .uint32(number)
        }
    }
}
