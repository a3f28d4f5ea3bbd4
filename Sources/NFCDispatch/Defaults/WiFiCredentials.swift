import NDEF
import NDEFReport

/// A Wi-Fi network an object offers to join, checked so that NetworkManager can take it as is.
///
/// The key is a secret someone chose to hand only to people holding the object: it is never part
/// of a description, a log line or a notification (``description``, ``customMirror``).
public struct WiFiCredentials: Hashable, Sendable {
    public enum Security: Hashable, Sendable {
        case open
        /// WEP, open-system or shared-key authentication; the key as written (5 or 13 characters,
        /// 10 or 26 hex digits).
        case wep(key: String, sharedKey: Bool)
        /// WPA or WPA2 Personal: an 8–63 character passphrase, or 64 hex digits.
        case wpaPersonal(passphrase: String)
    }

    /// 1 to 32 bytes, not necessarily text.
    public let ssid: [UInt8]
    /// The network's name as a person reads it: the SSID as text, or its hex. Unsafe for display
    /// as is (pass it through ``NotificationMarkup/value(_:maxCharacters:)``).
    public let name: String
    public let security: Security
    /// Index into the report's top-level `records`.
    public let recordIndex: Int

    /// Nil unless `record` (one record of a `MessageReport` tree) is a Wi-Fi credential that can be
    /// joined without asking anything more: an enterprise network needs an identity the object
    /// does not give, and a key of the wrong length would only fail later, in NetworkManager.
    public init?(record: ReportValue, recordIndex: Int) {
        guard record["kind"]?.stringValue == "wifi",
              let ssid = Self.octets(record, "ssid"), (1...32).contains(ssid.count) else { return nil }
        let authentication = Set(record["authentication"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let encryption = Set(record["encryption"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let key = Self.octets(record, "network_key").map { String(decoding: $0, as: UTF8.self) } ?? ""
        if !authentication.isDisjoint(with: ["WPA-Personal", "WPA2-Personal"]) {
            guard Self.isPassphrase(key) else { return nil }
            security = .wpaPersonal(passphrase: key)
        } else if !authentication.isDisjoint(with: ["WPA-Enterprise", "WPA2-Enterprise"]) {
            return nil
        } else if encryption.contains("WEP") || authentication.contains("Shared") {
            guard Self.isWEPKey(key) else { return nil }
            security = .wep(key: key, sharedKey: authentication.contains("Shared"))
        } else if authentication.isEmpty || authentication == ["Open"] {
            guard key.isEmpty else { return nil }
            security = .open
        } else {
            return nil
        }
        self.ssid = ssid
        self.name = record["ssid"]?.stringValue ?? Hex.string(ssid)
        self.recordIndex = recordIndex
    }

    /// The report's text field `key`, or its `key_hex` twin when the bytes were not UTF-8.
    private static func octets(_ record: ReportValue, _ key: String) -> [UInt8]? {
        if let text = record[key]?.stringValue { return Array(text.utf8) }
        if let hex = record[key + "_hex"]?.stringValue, case .success(let bytes) = Hex.decode(hex) { return bytes }
        return nil
    }

    /// IEEE 802.11i: 8 to 63 printable ASCII characters, or 64 hex digits.
    static func isPassphrase(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        if bytes.count == 64 { return bytes.allSatisfy(isHexDigit) }
        return (8...63).contains(bytes.count) && bytes.allSatisfy { (0x20...0x7E).contains($0) }
    }

    /// 40- or 104-bit WEP: 5 or 13 characters, or 10 or 26 hex digits.
    static func isWEPKey(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        switch bytes.count {
        case 5, 13: return bytes.allSatisfy { (0x20...0x7E).contains($0) }
        case 10, 26: return bytes.allSatisfy(isHexDigit)
        default: return false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
}

extension WiFiCredentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Names the network and its kind of security, never the key.
    public var description: String {
        let kind = switch security {
        case .open: "open"
        case .wep(_, let shared): shared ? "WEP shared key" : "WEP"
        case .wpaPersonal: "WPA Personal"
        }
        return "Wi-Fi network \(Hex.string(ssid)) (\(kind))"
    }

    public var debugDescription: String { description }

    /// `dump` and debuggers see no key either.
    public var customMirror: Mirror {
        Mirror(self, children: ["ssid": Hex.string(ssid), "description": description], displayStyle: .struct)
    }
}
