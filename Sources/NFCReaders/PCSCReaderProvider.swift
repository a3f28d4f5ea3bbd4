import NFCTags
/// Readers through pcscd (PC/SC): every reader pcscd lists, named as pcscd names them
/// ("ACS ACR122U PICC Interface 00 00"). The socket is the client library's:
/// `PCSCLITE_CSOCK_NAME`, else /run/pcscd/pcscd.comm.
///
/// pcscd not running is not a failure of the scan: many machines read through libnfc only.
/// `identifiers()` then throws ``ReaderError/pcscdNotRunning(socket:)``, which
/// `ReaderDirectory` treats as "this backend has no reader" (mentioned with `--verbose` only).
public struct PCSCReaderProvider: ReaderProvider {
    public let backend = ReaderBackend.pcsc
    public let noneListed = "pcscd lists no reader"

    public init() {}

    public func identifiers() async throws(ReaderError) -> [String] {
        try await PCSCReader.readerNames()
    }

    public func open(_ identifier: String?) async throws(ReaderError) -> any Reader {
        try await PCSCReader.open(identifier)
    }

    /// Readers pcscd adds or drops, and pcscd starting (``PCSCReaderWatch``): a blocking wait
    /// on the PnP pseudo-reader while pcscd runs, a try every 2 s while it does not.
    public func readerChanges() -> AsyncStream<Void>? { PCSCReaderWatch.changes() }
    public var notifiesReaderChanges: Bool { true }

    /// PC/SC reader names are free text; only listed ones (or parts of them) are used.
    public func recognises(_ identifier: String) -> Bool { false }
}
