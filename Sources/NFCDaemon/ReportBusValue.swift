import NDEFReport
import Systemd

extension ReportValue {
    /// The tree as D-Bus sees it (Docs/dbus/org.nfcscan.Handler1.xml): objects as `a{sv}` (keys
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
}
