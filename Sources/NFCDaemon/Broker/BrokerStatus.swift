import DBusValues
import NFCBusAPI
import Systemd

/// A station's connection to its broker as the `Broker` property of org.nfcscan.Scanner1 shows it
/// (and `nfcscan status`): what a person checks first when scans do not arrive.
public struct BrokerStatus: Equatable, Sendable {
    public var station: String
    public var connected = false
    /// Events in the spool, not yet acknowledged by the broker.
    public var pending = 0
    /// Events lost since the station's first start: dropped from a full spool, or never kept
    /// (the disk full, the spool unwritable); their seqs stay unused, a gap subscribers see.
    public var dropped: UInt64 = 0
    /// Why the last connection failed or was refused, or why the last event could not be kept;
    /// nil once connected, or once an event is kept again.
    public var lastError: String?

    public init(station: String) { self.station = station }

    /// `a{sv}`: "station" s, "connected" b, "pending" u, "dropped" t, and "last-error" s when there is one.
    var busValue: DBusValue {
        var entries: [DBusDictEntry] = [
            DBusDictEntry(.string("station"), .variant(.string(station))),
            DBusDictEntry(.string("connected"), .variant(.boolean(connected))),
            DBusDictEntry(.string("pending"), .variant(.uint32(UInt32(clamping: pending)))),
            DBusDictEntry(.string("dropped"), .variant(.uint64(dropped))),
        ]
        if let lastError { entries.append(DBusDictEntry(.string("last-error"), .variant(.string(lastError)))) }
        return .dictionary(keySignature: "s", valueSignature: "v", entries)
    }

    /// No `[broker]`: an empty dictionary.
    static let noBroker = DBusValue.dictionary(keySignature: "s", valueSignature: "v", [])
}
