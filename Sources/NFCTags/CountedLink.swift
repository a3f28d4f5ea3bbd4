/// A transport with a round-trip counter, and the rule that turns silence after contact into
/// a removal: a protocol that has had answers from the object and then gets none treats the
/// object as gone, so a read never ends with a partial message presented as complete.
struct CountedLink {
    let transport: any TagTransport
    private(set) var roundTrips = 0

    init(_ transport: any TagTransport) {
        self.transport = transport
    }

    /// One exchange; errors are passed on as they are (callers that expect silence, such as a
    /// GET_VERSION probe, handle them).
    mutating func exchange(_ command: [UInt8]) async throws(TransportError) -> [UInt8] {
        roundTrips += 1
        return try await transport.transceive(command)
    }

    /// One exchange in the middle of a read: any loss of the object becomes
    /// ``TagReadError/objectRemoved(roundTrips:)``.
    mutating func send(_ command: [UInt8]) async throws(TagReadError) -> [UInt8] {
        do {
            return try await exchange(command)
        } catch {
            throw mapped(error)
        }
    }

    mutating func reactivate() async throws(TagReadError) {
        roundTrips += 1
        do {
            try await transport.reactivate()
        } catch {
            throw mapped(error)
        }
    }

    func mapped(_ error: TransportError) -> TagReadError {
        switch error {
        case .objectRemoved, .timeout: .objectRemoved(roundTrips: roundTrips)
        // Reads and writes alike: the reader said the chip wants the password it cannot send.
        case .passwordNotPassed: .passwordNotPassed
        default: .transport(error)
        }
    }
}
