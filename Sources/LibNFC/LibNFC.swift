import CLibNFC

/// The Swift face of libnfc. The reader backend (a later layer) builds on this; nothing above it
/// sees a C pointer.
public enum LibNFC {
    /// The libnfc version string, e.g. `1.8.0`: shown by `nfcscan readers --verbose` and in bug reports.
    public static var version: String {
        String(cString: nfc_version())
    }
}
