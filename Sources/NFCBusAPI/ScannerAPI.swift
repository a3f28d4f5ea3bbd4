import NFCCopy

/// Names of nfcscand's D-Bus API (Docs/dbus/*.xml, Docs/dbus-api.md), for the daemon and its
/// clients alike.
public enum ScannerAPI {
    public static let busName = "org.nfcscan.Scanner1"
    public static let path = "/org/nfcscan/Scanner1"
    public static let interface = "org.nfcscan.Scanner1"
    public static let readerInterface = "org.nfcscan.Reader1"
    public static let handlerInterface = "org.nfcscan.Handler1"
    public static let readersPath = path + "/readers"
    public static let sessionInterface = "org.nfcscan.ScanSession1"
    public static let sessionsPath = path + "/sessions"
    public static let writeSessionInterface = "org.nfcscan.WriteSession1"
    public static let writesPath = path + "/writes"
    public static let properties = "org.freedesktop.DBus.Properties"
    public static let introspectable = "org.freedesktop.DBus.Introspectable"
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"

    /// Error names the daemon answers with.
    public enum ErrorName {
        public static let notSupported = "org.freedesktop.DBus.Error.NotSupported"
        public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
        public static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
        /// StartScanSession: too many sessions are waiting already.
        public static let systemBusy = "org.nfcscan.Error.SystemBusy"
        /// WriteSession1.Cancel while the object is being written: it ends with the write's outcome.
        public static let busy = "org.nfcscan.Error.Busy"
        /// StartScanSession: airplane mode is on (the radios are off).
        public static let radioDisabled = "org.nfcscan.Error.RadioDisabled"
    }

    /// Stable codes of `PausedReasons` (NFCScanKit.BackgroundPause, which nfcscan status explains).
    public typealias PausedReason = BackgroundPause
}
