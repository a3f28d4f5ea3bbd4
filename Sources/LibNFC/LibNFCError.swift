import CLibNFC

/// libnfc's error codes (nfc.h `NFC_E*`), as Swift sees them.
public enum LibNFCErrorCode: Hashable, Sendable {
    /// NFC_EIO: input/output error (the serial line or USB transfer failed; the reader may be gone).
    case io
    /// NFC_EINVARG: an argument the driver does not accept.
    case invalidArgument
    /// NFC_EDEVNOTSUPP: the operation is not supported by this device.
    case deviceNotSupported
    /// NFC_ENOTSUCHDEV: no such device.
    case noSuchDevice
    /// NFC_EOVFLOW: the answer did not fit the buffer.
    case overflow
    /// NFC_ETIMEOUT: the reader chip did not answer in time.
    case timeout
    /// NFC_EOPABORTED: `nfc_abort_command` ended the call.
    case aborted
    /// NFC_ENOTIMPL: not implemented by the driver.
    case notImplemented
    /// NFC_ETGRELEASED: the target was released (it left, or was deselected).
    case targetReleased
    /// NFC_ERFTRANS: the radio exchange failed (no answer from the object, CRC or parity error).
    case rfTransmission
    /// NFC_EMFCAUTHFAIL: MIFARE authentication failed; a PN53x also reports a Type 2 NAK this way
    /// inside InDataExchange.
    case mifareAuthentication
    /// NFC_ESOFT: a software error inside libnfc (allocation, pipe).
    case software
    /// NFC_ECHIP: the reader chip reported an internal error.
    case chip
    /// A code this wrapper does not know.
    case other(Int32)

    public init(code: Int32) {
        switch code {
        case NFC_EIO: self = .io
        case NFC_EINVARG: self = .invalidArgument
        case NFC_EDEVNOTSUPP: self = .deviceNotSupported
        case NFC_ENOTSUCHDEV: self = .noSuchDevice
        case NFC_EOVFLOW: self = .overflow
        case NFC_ETIMEOUT: self = .timeout
        case NFC_EOPABORTED: self = .aborted
        case NFC_ENOTIMPL: self = .notImplemented
        case NFC_ETGRELEASED: self = .targetReleased
        case NFC_ERFTRANS: self = .rfTransmission
        case NFC_EMFCAUTHFAIL: self = .mifareAuthentication
        case NFC_ESOFT: self = .software
        case NFC_ECHIP: self = .chip
        default: self = .other(code)
        }
    }
}

/// Why a libnfc call failed. Carries the technical detail (the operation, libnfc's code and its
/// own text from `nfc_strerror`) for logs and for the reader layer, which turns it into advice.
public enum LibNFCError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `nfc_init` returned no context (out of memory, or an unreadable configuration).
    case contextUnavailable
    /// `nfc_open` returned no device for this connstring. libnfc gives no reason: the device
    /// may not exist, be held by another program or kernel driver, or be unreadable.
    case openFailed(connstring: String)
    /// A call on an open device failed.
    case call(String, code: LibNFCErrorCode, message: String)
    /// The device was closed before the call ran.
    case closed

    public var description: String {
        switch self {
        case .contextUnavailable: "libnfc: nfc_init failed"
        case .openFailed(let connstring): "libnfc: nfc_open(\(connstring)) found no usable device"
        case .call(let operation, _, let message): "libnfc: \(operation) failed: \(message)"
        case .closed: "libnfc: the device is closed"
        }
    }

    /// The libnfc code, when a call on a device failed.
    public var code: LibNFCErrorCode? {
        if case .call(_, let code, _) = self { code } else { nil }
    }
}
