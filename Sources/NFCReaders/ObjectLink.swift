import NFCTags

/// What a backend adds around a tag driver: the link to one object, each whole operation run
/// alone on it, and letting go of it. ``DetectedObject`` reaches every platform's driver through
/// this protocol and never looks at which backend it has.
public protocol ObjectLink: TagTransport {
    /// Runs one whole operation (a read; a write with its reads and read-back) so that nothing
    /// else reaches the object between its exchanges: a PC/SC transaction with the reader's
    /// pass-through session open; on libnfc, no presence check re-selects the object meanwhile.
    /// Throws only when the section cannot begin; `body` returns its own outcome (a `Result`).
    func exclusive<T: Sendable>(_ body: () async -> T) async throws(TransportError) -> T
    /// Done with the object: another program may use it while it stays near the reader.
    func release() async
    /// Why objects of `platform` cannot be reached over this link, or nil when they can.
    func unreachable(_ platform: TagPlatform) -> TagReadError?
    /// What the driver needs beyond the UID (MIFARE Classic size, Type 5 system information).
    func driverContext(uid: [UInt8], technology: DetectedObject.Technology) -> DriverContext
}

extension ObjectLink {
    public func driverContext(uid: [UInt8], technology: DetectedObject.Technology) -> DriverContext {
        DriverContext(uid: uid, classicSize: technology.classicSize)
    }
}

extension DetectedObject.Technology {
    /// The MIFARE Classic geometry the SAK gives, for type A objects.
    var classicSize: MifareClassicSize? {
        if case .iso14443A(_, let sak, _) = self { return MifareClassicSize(sak: sak) }
        return nil
    }
}

/// A link with nothing around it: an in-process simulated object, or any transport a test hands
/// in. Operations run as they are; nothing is unreachable unless said.
public struct DirectLink: ObjectLink {
    public let transport: any TagTransport
    /// Platforms this link is to refuse, with why.
    public let refused: [TagPlatform: TagReadError]

    public init(_ transport: any TagTransport, refusing refused: [TagPlatform: TagReadError] = [:]) {
        self.transport = transport
        self.refused = refused
    }

    public var capabilities: LinkCapabilities { transport.capabilities }
    public func transceive(_ command: [UInt8]) async throws(TransportError) -> [UInt8] { try await transport.transceive(command) }
    public func reactivate() async throws(TransportError) { try await transport.reactivate() }
    public func exclusive<T: Sendable>(_ body: () async -> T) async throws(TransportError) -> T { await body() }
    public func release() async {}
    public func unreachable(_ platform: TagPlatform) -> TagReadError? { refused[platform] }
}
