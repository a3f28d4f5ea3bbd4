import NDEF

/// Writes an NDEF message to a Type 2 object over the transport seam: reads its UID (page 0),
/// CC and whole data area, sends the WRITEs ``Type2WritePlan`` orders, reads page 0 again before
/// the last WRITE (the one that makes the message appear) so it never lands on another object,
/// then reads the data area back and compares. A chip's ACK crosses the seam as an empty
/// response (a PN53x InDataExchange) or the one byte 0x0A.
public enum Type2Writer {
    /// Writes `message` (encoded NDEF; empty for an empty message). Returns the round trips used.
    @discardableResult
    public static func write(_ message: [UInt8], over transport: some TagTransport) async throws(TagWriteError) -> Int {
        var link = CountedLink(transport)
        let product: Type2Product?, uid: [UInt8]
        do {
            product = try await Type2Tag.identify(&link)
            uid = try await readUID(&link)
        } catch { throw .link(error) }
        let fastRead = product?.supportsFastRead == true && transport.capabilities.passesType2Extensions
        let memory = try await readMemory(&link, userMemory: product?.userMemory, fastRead: fastRead)
        let plan: Type2WritePlan
        do { plan = try Type2WritePlan(memory: memory, userMemory: product?.userMemory, message: message) } catch {
            throw .refused(error)
        }
        for (index, write) in plan.writes.enumerated() {
            if index == plan.writes.count - 1 {
                let now: [UInt8]
                do { now = try await readUID(&link) } catch { throw .link(error) }
                guard now == uid else { throw .differentObject }
            }
            let response: [UInt8]
            do { response = try await link.send(write.frame) } catch { throw .link(error) }
            guard response.isEmpty || response == [Type2Acknowledgement.ack.rawValue] else {
                throw .writeRefused(address: write.page, response: response)
            }
        }
        let written = try await readMemory(&link, userMemory: product?.userMemory, fastRead: fastRead)
        guard Array(written.dropFirst(4).prefix(plan.dataArea.count)) == plan.dataArea else { throw .didNotVerify }
        return link.roundTrips
    }

    /// The 7-byte UID from pages 0–1 (the check bytes left out).
    static func readUID(_ link: inout CountedLink) async throws(TagReadError) -> [UInt8] {
        let response = try await link.send(Type2Command.read(page: 0).frame)
        guard response.count == 16 else { throw .unexpectedResponse(command: "READ page 0", expected: 16, received: response.count) }
        return Array(response[0..<3] + response[4..<8])
    }

    /// The CC page and the whole data area the CC (bounded by the chip's user memory) announces.
    static func readMemory(_ link: inout CountedLink, userMemory: Int?, fastRead: Bool) async throws(TagWriteError) -> [UInt8] {
        var memory = PageReader(fastRead: fastRead, maxResponseLength: link.transport.capabilities.maxResponseLength)
        let limit = userMemory.map { Type2Product.firstUserPage + $0 / Type2Product.pageSize - 1 } ?? Type2Tag.lastAddressablePage
        do { try await memory.read(through: Type2Tag.ccPage, limit: limit, &link) } catch { throw .link(error) }
        let cc: Type2CapabilityContainer
        do { cc = try Type2CapabilityContainer(memory.bytes.prefix(4)) } catch {
            if case .notNDEF = error { throw .refused(.notFormatted) }
            throw .refused(.capabilityContainer(error))
        }
        let capacity = Type2Tag.capacity(of: cc, userMemory: userMemory)
        do {
            try await memory.read(through: Type2Tag.ccPage + capacity / Type2Product.pageSize, limit: limit, &link)
        } catch { throw .link(error) }
        return memory.bytes
    }
}
