import CLibNFC

/// The Swift face of libnfc. The reader backend (NFCReaders) builds on this; nothing above it
/// sees a C pointer.
///
/// - ``LibNFCContext``: `nfc_init`/`nfc_exit`, `nfc_list_devices`, `nfc_open`.
/// - ``LibNFCDevice``: one open device. libnfc is not thread-safe per device, and its calls block
///   (serial reads, USB transfers, a PN532's own polling), so every call on a device runs on that
///   device's own serial dispatch queue and is bridged back with a continuation: calls are
///   serialised, and the Swift cooperative pool never waits on the hardware.
public enum LibNFC {
    /// The libnfc version string, e.g. `1.8.0`: shown by `nfcscan readers --verbose` and in bug reports.
    public static var version: String {
        String(cString: nfc_version())
    }
}
