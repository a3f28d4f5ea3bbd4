import NFCTags

/// Connects tag protocols to a virtual object in the same process, with the limits of a chosen
/// link, so tests run the real protocol code against the real simulator (no mocks) and count
/// every exchange.
public actor InProcessTransport<Object: VirtualObject>: TagTransport {
    public nonisolated let capabilities: LinkCapabilities
    public private(set) var object: Object
    /// Every command frame sent, in order.
    public private(set) var commands: [[UInt8]] = []
    public private(set) var reactivations = 0

    public init(_ object: Object, capabilities: LinkCapabilities = .unrestricted) {
        self.object = object
        self.capabilities = capabilities
    }

    /// Commands sent plus re-activations: what a protocol's round-trip count should equal.
    public var roundTrips: Int { commands.count + reactivations }

    public func transceive(_ command: [UInt8]) async throws(TransportError) -> [UInt8] {
        commands.append(command)
        // A storage-card link maps READ and WRITE only (GET_VERSION, FAST_READ, PWD_AUTH do not pass).
        if Object.platform == .type2, !capabilities.passesType2Extensions,
           command.first != Type2Command.readCode, command.first != Type2Command.writeCode {
            let fastReadOrVersion = command.first == Type2Command.getVersionCode || command.first == Type2Command.fastReadCode
            throw .notSupported(fastReadOrVersion ? "GET_VERSION or FAST_READ" : "Type 2 command \(command.first.map { String($0, radix: 16) } ?? "") over a storage-card link")
        }
        switch object.respond(to: command) {
        case .frame(let response):
            guard response.count <= capabilities.maxResponseLength else {
                throw .protocolError("a \(response.count)-byte response overflows the link's \(capabilities.maxResponseLength) bytes")
            }
            return response
        case .nak(let code):
            return [code & 0x0F]
        case .silence:
            throw object.isPresent ? .timeout : .objectRemoved
        }
    }

    public func reactivate() async throws(TransportError) {
        reactivations += 1
        guard object.reactivate() else { throw .objectRemoved }
    }
}
