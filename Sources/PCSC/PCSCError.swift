import CPCSCLite

/// A pcsc-lite failure: the `SCARD_E_*` / `SCARD_W_*` code of one call, with pcsc-lite's own text
/// (`pcsc_stringify_error`).
public struct PCSCError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The code as pcsc-lite returns it (a LONG such as 0x8010001D).
    public let code: Int
    /// The call that failed (`SCardConnect`, …), for logs.
    public let function: String

    public init(code: Int, function: String = "") {
        self.code = code
        self.function = function
    }

    /// The same code without the function, to compare with the constants below.
    public var kind: PCSCError { PCSCError(code: code) }

    public static func == (lhs: PCSCError, rhs: PCSCError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// pcsc-lite's text for the code.
    public var text: String { String(cString: pcsc_stringify_error(code)) }

    public var description: String {
        let hex = String(UInt32(truncatingIfNeeded: code), radix: 16, uppercase: true)
        return function.isEmpty ? "\(text) (0x\(hex))" : "\(function): \(text) (0x\(hex))"
    }

    // The codes this project treats specially (pcsclite.h; written out because Swift does not
    // import the `((LONG)0x…)` macros).
    /// SCARD_E_CANCELLED: SCardCancel ended the call.
    public static let cancelled = PCSCError(code: 0x8010_0002)
    /// SCARD_E_INVALID_HANDLE.
    public static let invalidHandle = PCSCError(code: 0x8010_0003)
    /// SCARD_E_TIMEOUT: the timeout of SCardGetStatusChange passed.
    public static let timeout = PCSCError(code: 0x8010_000A)
    /// SCARD_E_SHARING_VIOLATION: another client holds the reader or card exclusively.
    public static let sharingViolation = PCSCError(code: 0x8010_000B)
    /// SCARD_E_NO_SMARTCARD: no card in the reader.
    public static let noSmartcard = PCSCError(code: 0x8010_000C)
    /// SCARD_E_UNKNOWN_READER.
    public static let unknownReader = PCSCError(code: 0x8010_0009)
    /// SCARD_E_PROTO_MISMATCH.
    public static let protocolMismatch = PCSCError(code: 0x8010_000F)
    /// SCARD_E_NOT_TRANSACTED: the exchange with the card failed.
    public static let notTransacted = PCSCError(code: 0x8010_0016)
    /// SCARD_E_READER_UNAVAILABLE: the reader went away.
    public static let readerUnavailable = PCSCError(code: 0x8010_0017)
    /// SCARD_E_NO_SERVICE: pcscd is not running (or its socket cannot be reached).
    public static let noService = PCSCError(code: 0x8010_001D)
    /// SCARD_E_SERVICE_STOPPED: pcscd stopped.
    public static let serviceStopped = PCSCError(code: 0x8010_001E)
    /// SCARD_E_NO_ACCESS.
    public static let noAccess = PCSCError(code: 0x8010_0027)
    /// SCARD_E_NO_READERS_AVAILABLE: pcscd knows no reader.
    public static let noReadersAvailable = PCSCError(code: 0x8010_002E)
    /// SCARD_W_UNRESPONSIVE_CARD.
    public static let unresponsiveCard = PCSCError(code: 0x8010_0066)
    /// SCARD_W_UNPOWERED_CARD.
    public static let unpoweredCard = PCSCError(code: 0x8010_0067)
    /// SCARD_W_RESET_CARD: someone reset the card since this handle last used it.
    public static let resetCard = PCSCError(code: 0x8010_0068)
    /// SCARD_W_REMOVED_CARD: the card left since this handle last used it.
    public static let removedCard = PCSCError(code: 0x8010_0069)
    /// SCARD_W_SECURITY_VIOLATION: pcscd refused this client (polkit said no).
    public static let securityViolation = PCSCError(code: 0x8010_006A)
}
