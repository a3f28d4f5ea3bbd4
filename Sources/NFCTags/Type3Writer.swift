/// Writes an NDEF message to a Type 3 object (FeliCa Lite-S, FeliCa with an NDEF system) over
/// the transport seam: Check of the attribute block (and of the message when it may be the same),
/// the Updates ``Type3WritePlan`` orders, POLLING before the last Update (the one that commits:
/// another IDm is ``TagWriteError/differentObject`` and the commit is not sent), then the
/// attribute block and message read back and compared.
public enum Type3Writer {
    @discardableResult
    public static func write(_ message: [UInt8], idm: [UInt8], over transport: some TagTransport) async throws(TagWriteError) -> TagWriteReport {
        guard idm.count == 8 else { throw .link(.unsupported("a FeliCa IDm has 8 bytes, not \(idm.count)")) }
        var link = CountedLink(transport)
        let block = try await attributeBlock(idm: idm, &link)
        // The message read only when it may already be the one asked for.
        var current: [UInt8]?
        if let attribute = try? Type3AttributeBlock(block), attribute.ndefLength == message.count {
            do { current = try await Type3Tag.message(attribute, idm: idm, &link) } catch { throw .link(error) }
        }
        let plan: Type3WritePlan
        do { plan = try Type3WritePlan(attributeBlock: block, current: current, message: message) } catch { throw .refused(error) }
        guard !plan.updates.isEmpty else { return TagWriteReport(roundTrips: link.roundTrips, changed: false) }
        try await send(plan.updates, idm: idm, &link)
        // Read back: the attribute block as planned, then the message it announces.
        let written = try await attributeBlock(idm: idm, &link)
        guard written == plan.attributeBlock, let attribute = try? Type3AttributeBlock(written) else { throw .didNotVerify }
        let data: [UInt8]
        do { data = try await Type3Tag.message(attribute, idm: idm, &link) } catch { throw .link(error) }
        guard data == message else { throw .didNotVerify }
        return TagWriteReport(roundTrips: link.roundTrips)
    }

    /// Sets RWFlag 00 in the attribute block (one Update), after checking the block decodes and
    /// no write is in progress; the FeliCa Lite-S's own memory configuration is left alone, so
    /// the object is read-only to NFC Forum readers and writers, which honour RWFlag.
    @discardableResult
    public static func makeReadOnly(idm: [UInt8], over transport: some TagTransport) async throws(TagWriteError) -> TagWriteReport {
        guard idm.count == 8 else { throw .link(.unsupported("a FeliCa IDm has 8 bytes, not \(idm.count)")) }
        var link = CountedLink(transport)
        let block = try await attributeBlock(idm: idm, &link)
        let attribute = try decodeForLocking(block)
        guard attribute.readWriteFlag != 0x00 else { return TagWriteReport(roundTrips: link.roundTrips, changed: false) }
        let locked = Type3AttributeBlock.updating(block, writeFlag: 0x00, readWriteFlag: 0x00, ndefLength: attribute.ndefLength)
        try await send([Type3WritePlan.Update(blocks: [0], data: locked)], idm: idm, &link)
        guard try await attributeBlock(idm: idm, &link) == locked else { throw .didNotVerify }
        return TagWriteReport(roundTrips: link.roundTrips)
    }

    static func decodeForLocking(_ block: [UInt8]) throws(TagWriteError) -> Type3AttributeBlock {
        let attribute: Type3AttributeBlock
        do { attribute = try Type3WritePlan.decode(block) } catch { throw .refused(error) }
        // A half-written message must be written again first, not frozen.
        guard attribute.writeFlag == 0x00 else { throw .refused(.cannotFormat("a write was left unfinished; write the message again first")) }
        return attribute
    }

    /// Check of block 0.
    static func attributeBlock(idm: [UInt8], _ link: inout CountedLink) async throws(TagWriteError) -> [UInt8] {
        do { return try await Type3Tag.check([0], idm: idm, &link) } catch { throw .link(error) }
    }

    /// The Updates in order; POLLING before the last one checks the object is still this IDm.
    static func send(_ updates: [Type3WritePlan.Update], idm: [UInt8], _ link: inout CountedLink) async throws(TagWriteError) {
        for (index, update) in updates.enumerated() {
            if index == updates.count - 1 {
                let answer: [UInt8]
                do { answer = try await link.send(FeliCaFrame.pollingAny) } catch { throw .link(error) }
                guard answer.count >= 10, answer[1] == FeliCaFrame.pollingCode + 1 else {
                    throw .link(.unexpectedResponse(command: "POLLING", expected: 18, received: answer.count))
                }
                guard Array(answer[2..<10]) == idm else { throw .differentObject }
            }
            let response: [UInt8]
            do { response = try await link.send(FeliCaFrame.update(idm: idm, blocks: update.blocks, data: update.data)) } catch { throw .link(error) }
            guard response.count == FeliCaFrame.updateResponseLength, response[1] == FeliCaFrame.updateCode + 1,
                  Array(response[2..<10]) == idm, response[10] == 0, response[11] == 0 else {
                throw .writeRefused(address: update.blocks[0], response: response)
            }
        }
    }
}
