import NDEF

/// Writes an NDEF message to a Type 4 object over the transport seam: SELECTs the NDEF
/// application, reads the CC, SELECTs the NDEF file and reads the message it holds, sends the
/// UPDATE BINARY commands ``Type4WritePlan`` orders, then reads the message back and compares.
///
/// **The object written is the object read.** ISO-DEP objects have no UID a command can ask for
/// (phones make one up at each activation, and over PC/SC GET DATA `FF CA` is the reader's, not
/// the card's). What ties the commands to one object is its session: a selected application and
/// file live only as long as the activation. Another object brought in mid-write is not activated
/// (it answers nothing: the link reports the object gone), or, if a backend activated it, has no
/// file selected and answers UPDATE or READ BINARY with 69 86 (command not allowed: no current
/// EF). So before the last command — the length field that makes the message appear — the writer
/// reads the file's first bytes back: the length as it then stands and the whole new body. Only
/// the object that holds exactly those bytes in its selected file gets the commit; 69 86 (here or
/// on any write) is ``TagWriteError/differentObject``, other bytes ``TagWriteError/didNotVerify``.
public enum Type4Writer {
    /// Writes `message` (encoded NDEF; empty for an empty message).
    @discardableResult
    public static func write(_ message: [UInt8], over transport: some TagTransport) async throws(TagWriteError) -> TagWriteReport {
        var link = CountedLink(transport)
        let cc: Type4CapabilityContainer, version1: Bool
        do { (cc, version1) = try await Type4Tag.open(&link) } catch .noNDEFApplication {
            throw .refused(.notFormatted)
        } catch .capabilityContainer(let error) {
            throw .refused(.capabilityContainer(error))
        } catch { throw .link(error) }
        guard cc.read == .granted else { throw .refused(.unsupported("an NDEF file that cannot be read back")) }
        let current: [UInt8]?
        do {
            try await Type4Tag.select(file: cc.ndefFileID, version1: version1, &link, "SELECT NDEF file")
            current = try await readCurrent(&link, cc: cc)
        } catch { throw .link(error) }

        let plan: Type4WritePlan
        do { plan = try Type4WritePlan(capabilityContainer: cc, current: current, message: message,
                                       maxCommandData: maxCommandData(transport.capabilities)) } catch {
            throw .refused(error)
        }
        for (index, update) in plan.writes.enumerated() {
            if index == plan.writes.count - 1 { try await checkBeforeCommit(&link, cc: cc, plan: plan) }
            try await send(update, &link)
        }
        let written: [UInt8]
        do { written = try await Type4Tag.readMessage(&link, cc: cc) } catch { throw .link(error) }
        guard written == message else { throw .didNotVerify }
        return TagWriteReport(roundTrips: link.roundTrips, changed: !plan.writes.isEmpty)
    }

    /// Bytes one UPDATE BINARY carries over a link: 255 in a short APDU, more only in extended
    /// ones; and no more than the link's frames hold (a PN53x frame is as long one way as the
    /// other, so its response limit bounds commands too, with the 5-byte header counted).
    static func maxCommandData(_ caps: LinkCapabilities) -> Int {
        min(caps.extendedLengthAPDUs ? 0xFFFF : 0xFF, caps.maxResponseLength - 7)
    }

    /// The message held now; nil when its length field is past the file (the write replaces it).
    static func readCurrent(_ link: inout CountedLink, cc: Type4CapabilityContainer) async throws(TagReadError) -> [UInt8]? {
        do { return try await Type4Tag.readMessage(&link, cc: cc) } catch .invalidNDEFLength { return nil }
    }

    static func send(_ update: Type4FileUpdate, _ link: inout CountedLink) async throws(TagWriteError) {
        let response: ResponseAPDU
        do { response = try await Type4Tag.exchange(&link, update.command, "UPDATE BINARY") } catch { throw .link(error) }
        switch response.status {
        case .success: return
        case .noCurrentFile: throw .differentObject
        default: throw .writeRefused(address: update.offset, response: response.status.bytes)
        }
    }

    /// Reads the length field and the new body back from the selected file before the commit.
    static func checkBeforeCommit(_ link: inout CountedLink, cc: Type4CapabilityContainer, plan: Type4WritePlan) async throws(TagWriteError) {
        let count = max(plan.beforeCommit.count, cc.lengthFieldSize)
        let bytes: [UInt8]
        do { bytes = try await Type4Tag.readFile(&link, cc: cc, from: 0, count: count, "READ BINARY before the commit") } catch {
            if case .status(_, .noCurrentFile) = error { throw .differentObject }
            throw .link(error)
        }
        guard bytes.starts(with: plan.beforeCommit) else { throw .didNotVerify }
    }
}
