import DBusValues
import NDEFReport

extension ReportValue {
    /// The tree as D-Bus carries it (Docs/dbus/org.nfcscan.Handler1.xml): objects as `a{sv}` (keys
    /// in the report's order), arrays as `av`, strings `s`, integers `x`, booleans `b`. The same
    /// fields `nfcscan --json` prints, so an app's parser of one reads the other.
    public var busValue: DBusValue {
        switch self {
        case .string(let string): .string(string)
        case .int(let int): .int64(Int64(int))
        case .bool(let bool): .boolean(bool)
        case .array(let elements): .array(elementSignature: "v", elements.map { .variant($0.busValue) })
        case .object(let fields):
            .dictionary(keySignature: "s", valueSignature: "v",
                        fields.map { DBusDictEntry(.string($0.key), .variant($0.value.busValue)) })
        }
    }

    /// The tree back from D-Bus (what the daemon sends a scan-session client); nil for a value of
    /// another shape. Any integer type is accepted; order is kept.
    public init?(busValue: DBusValue) {
        switch busValue {
        case .variant(let inner): self.init(busValue: inner)
        case .string(let string), .objectPath(let string): self = .string(string)
        case .boolean(let bool): self = .bool(bool)
        case .array(_, let elements):
            var values: [ReportValue] = []
            for element in elements {
                guard let value = ReportValue(busValue: element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case .dictionary(_, _, let entries):
            var fields: [ReportValue.Field] = []
            for entry in entries {
                guard let key = entry.key.stringValue, let value = ReportValue(busValue: entry.value) else { return nil }
                fields.append(.init(key, value))
            }
            self = .object(fields)
        default:
            guard let int = busValue.intValue else { return nil }
            self = .int(int)
        }
    }
}
