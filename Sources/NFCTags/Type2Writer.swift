import NDEF

/// Writes an NDEF message to a Type 2 object over the transport seam: reads its UID (page 0),
/// CC and whole data area, sends the WRITEs ``Type2WritePlan`` orders, reads page 0 again before
/// the last WRITE (the one that makes the message appear) so it never lands on another object,
/// then reads the data area back and compares. A chip's ACK crosses the seam as an empty
/// response (a PN53x InDataExchange) or the one byte 0x0A.
///
/// Every operation starts with ``open(_:password:)``: GET_VERSION names the chip, PWD_AUTH when a
/// password is given (only where the link passes it), page 0 gives UID, lock bytes and CC, and the
/// configuration pages (dynamic lock bytes, AUTH0, PROT) are read when the chip has them. A blank
/// chip is formatted (``Type2FormatPlan``) only when asked; ``makeReadOnly(over:options:)`` runs
/// ``Type2LockPlan``, reading back every lock write.
public enum Type2Writer {
    /// What the first commands of an operation learnt about the object.
    struct Session {
        var product: Type2Product?
        var uid: [UInt8]
        /// Pages 0–3 as read: UID, lock bytes, CC.
        var header: [UInt8]
        /// The dynamic lock page as read (chips with one).
        var dynamicLockBytes: [UInt8]?
        /// AUTH0 and PROT, when the configuration pages could be read; nil for chips without
        /// them. `readProtected` with AUTH0 unknown when they were themselves read-protected.
        var protection: Type2PasswordProtection?
        var authenticated: Bool
        var fastRead: Bool

        /// Whether writing pages up to `last` needs the password and it was not given.
        func needsPassword(through last: Int) -> Bool {
            guard let protection, !authenticated else { return false }
            return protection.protects(last)
        }

        /// The last page making the object read-only writes: the dynamic lock page, or the CC.
        var lastLockPage: Int { product?.configurationPages?.dynamicLock ?? Type2Tag.ccPage }

        /// What the lock plan needs beyond the data area.
        func lockContext(_ link: LinkCapabilities) -> Type2LockContext {
            Type2LockContext(product: product, header: header, dynamicLockBytes: dynamicLockBytes, link: link)
        }

        /// The last page of the data area: as the CC says (bounded by the chip's memory), or the
        /// chip's user memory when it is blank.
        var lastDataPage: Int {
            let userMemory = product?.userMemory
            guard let cc = try? Type2CapabilityContainer(header[12..<16]) else {
                return product?.lastUserPage ?? Type2Tag.lastAddressablePage
            }
            return Type2Tag.ccPage + Type2Tag.capacity(of: cc, userMemory: userMemory) / Type2Product.pageSize
        }
    }

    /// Writes `message` (encoded NDEF; empty for an empty message), formatting a blank chip first
    /// when `options` asks. With ``WriteOptions/lockAfter`` the plan holds the lock too
    /// (``Type2WritePlan/lock``) and the password is checked through the lock pages, so a lock
    /// that would be refused refuses the write before its first WRITE (and before formatting).
    @discardableResult
    public static func write(_ message: [UInt8], over transport: some TagTransport,
                             options: WriteOptions = WriteOptions()) async throws(TagWriteError) -> TagWriteReport {
        var link = CountedLink(transport)
        var session = try await open(&link, password: options.password)
        let lastPage = options.lockAfter ? max(session.lastDataPage, session.lastLockPage) : session.lastDataPage
        if session.needsPassword(through: lastPage) { throw .refused(.passwordRequired) }
        var formatted = false
        var memory: [UInt8]
        do {
            memory = try await readMemory(&link, userMemory: session.product?.userMemory, fastRead: session.fastRead)
        } catch .refused(.notFormatted) where options.formatIfBlank {
            let plan: Type2FormatPlan
            do { plan = try Type2FormatPlan(product: session.product, header: session.header) } catch { throw .refused(error) }
            if options.lockAfter {
                var formattedSession = session
                formattedSession.header.replaceSubrange(12..<16, with: plan.capabilityContainer)
                do {
                    try Type2LockPlan.checkReachable(product: session.product, lastDataPage: formattedSession.lastDataPage,
                                                     link: transport.capabilities)
                } catch { throw .refused(error) }
            }
            try await send(plan.writes, &link, session: session, uidCheckBeforeLast: true)
            session.header.replaceSubrange(12..<16, with: plan.capabilityContainer)
            formatted = true
            memory = try await readMemory(&link, userMemory: session.product?.userMemory, fastRead: session.fastRead)
        } catch .link(.nak) where session.protection?.readProtected == true && !session.authenticated {
            await wake(&link)
            throw .refused(.passwordRequired)
        }
        let plan: Type2WritePlan
        do {
            plan = try Type2WritePlan(memory: memory, userMemory: session.product?.userMemory, message: message,
                                      lock: options.lockAfter ? session.lockContext(transport.capabilities) : nil)
        } catch {
            throw .refused(error)
        }
        try await send(plan.writes, &link, session: session, uidCheckBeforeLast: true)
        let written = try await readMemory(&link, userMemory: session.product?.userMemory, fastRead: session.fastRead)
        guard Array(written.dropFirst(4).prefix(plan.dataArea.count)) == plan.dataArea else { throw .didNotVerify }
        return TagWriteReport(roundTrips: link.roundTrips, formatted: formatted, changed: formatted || !plan.writes.isEmpty)
    }

    /// Makes a formatted object whose message reads cleanly read-only for good (``Type2LockPlan``),
    /// reading back each page written.
    @discardableResult
    public static func makeReadOnly(over transport: some TagTransport, options: WriteOptions = WriteOptions()) async throws(TagWriteError) -> TagWriteReport {
        var link = CountedLink(transport)
        let session = try await open(&link, password: options.password)
        if session.needsPassword(through: session.lastLockPage) { throw .refused(.passwordRequired) }
        let memory: [UInt8]
        do { memory = try await readMemory(&link, userMemory: session.product?.userMemory, fastRead: session.fastRead) } catch .link(.nak) where session.protection?.readProtected == true && !session.authenticated {
            await wake(&link)
            throw .refused(.passwordRequired)
        }
        let layout: Type2DataLayout
        do { layout = try Type2DataLayout(memory: memory, userMemory: session.product?.userMemory) } catch { throw .refused(error) }
        let plan: Type2LockPlan
        do {
            plan = try Type2LockPlan(product: session.product, header: session.header, layout: layout,
                                     dynamicLockBytes: session.dynamicLockBytes, link: transport.capabilities)
        } catch { throw .refused(error) }
        for write in plan.writes {
            try await send([write], &link, session: session, uidCheckBeforeLast: true)
            let page: [UInt8]
            do { page = try await link.send(Type2Command.read(page: UInt8(write.page)).frame) } catch { throw .link(error) }
            guard Type2LockPlan.took(write, readBack: page.prefix(4)) else { throw .didNotVerify }
        }
        return TagWriteReport(roundTrips: link.roundTrips, changed: !plan.writes.isEmpty)
    }

    /// The first commands of every operation (see the type's documentation).
    static func open(_ link: inout CountedLink, password: [UInt8]?) async throws(TagWriteError) -> Session {
        let product: Type2Product?
        do { product = try await Type2Tag.identify(&link) } catch { throw .link(error) }
        var authenticated = false
        if let password {
            guard password.count == 4 else { throw .refused(.unsupported("a password for this chip is 4 bytes, not \(password.count)")) }
            guard link.transport.capabilities.passesType2Extensions else {
                throw .refused(.unsupported("this reader passes only reads and writes to the chip, not its password; use a reader that passes the chip's own commands"))
            }
            if let product, product.configurationPages == nil { throw .refused(.unsupported("the \(product.name) has no password")) }
            let answer: Type2Tag.Authentication
            do { answer = try await Type2Tag.authenticate(&link, password) } catch { throw .link(error) }
            switch answer {
            case .accepted: authenticated = true
            case .refused: throw .refused(.wrongPassword)
            // A chip without PWD_AUTH falls silent; one that answers again after waking has none.
            case .silent: throw .refused(.unsupported("this chip has no password"))
            }
        }
        let header: [UInt8]
        do { header = try await readHeader(&link) } catch { throw .link(error) }
        var session = Session(product: product, uid: uid(in: header), header: header, authenticated: authenticated,
                              fastRead: product?.supportsFastRead == true && link.transport.capabilities.passesType2Extensions)
        if let pages = product?.configurationPages {
            let response: [UInt8]
            do { response = try await link.send(Type2Command.read(page: UInt8(pages.firstPage)).frame) } catch { throw .link(error) }
            if response.count == 16 {
                let offset = (pages.cfg0 - pages.firstPage) * Type2Product.pageSize
                session.protection = Type2PasswordProtection(configuration: response[offset..<(offset + 8)])
                if pages.dynamicLock != nil { session.dynamicLockBytes = Array(response.prefix(4)) }
            } else if response.count == 1 {
                // Read-protected (PROT) from AUTH0 at or before these pages; the NAK sent the chip
                // to IDLE.
                session.protection = Type2PasswordProtection(auth0: pages.firstPage, readProtected: true)
                do { try await link.reactivate() } catch { throw .link(error) }
                if authenticated { throw .refused(.wrongPassword) }
            } else {
                throw .link(.unexpectedResponse(command: "READ page \(pages.firstPage)", expected: 16, received: response.count))
            }
        }
        return session
    }

    /// Sends page WRITEs; with `uidCheckBeforeLast`, page 0 is read again before the last one
    /// (another UID: ``TagWriteError/differentObject``, the WRITE is not sent). A NAK on the
    /// first WRITE, with nothing yet written, is a refusal: a locked page (read-only), or a
    /// password-protected one when no password was given.
    static func send(_ writes: [Type2PageWrite], _ link: inout CountedLink, session: Session, uidCheckBeforeLast: Bool) async throws(TagWriteError) {
        for (index, write) in writes.enumerated() {
            if uidCheckBeforeLast, index == writes.count - 1 {
                let now: [UInt8]
                do { now = uid(in: try await readHeader(&link)) } catch { throw .link(error) }
                guard now == session.uid else { throw .differentObject }
            }
            var response: [UInt8]
            do { response = try await link.send(write.frame) } catch .objectRemoved where index == 0 {
                // Storage-card readers (ACR122U-class) report a refused WRITE as a failed
                // exchange, like silence: the same object answering again means it refused.
                guard await answersAgain(&link, uid: session.uid) else { throw .link(.objectRemoved(roundTrips: link.roundTrips)) }
                response = [Type2Acknowledgement.invalidArgument.rawValue]
            } catch { throw .link(error) }
            guard response.isEmpty || response == [Type2Acknowledgement.ack.rawValue] else {
                if response.count == 1 { await wake(&link) }
                if response.count == 1, index == 0 {
                    if Type2StaticLock.locks(write.page, lockBytes: session.header[10..<12]) { throw .refused(.readOnly) }
                    if !session.authenticated, session.protection?.protects(write.page) != false { throw .refused(.passwordRequired) }
                }
                throw .writeRefused(address: write.page, response: response)
            }
        }
    }

    /// Activates the chip again after a NAK sent it to IDLE, so the next operation finds it
    /// answering; an object already gone is left to that operation to find.
    static func wake(_ link: inout CountedLink) async {
        try? await link.reactivate()
    }

    /// Whether the object, activated again, is the one with `uid`.
    static func answersAgain(_ link: inout CountedLink, uid: [UInt8]) async -> Bool {
        do {
            try await link.reactivate()
            return self.uid(in: try await readHeader(&link)) == uid
        } catch { return false }
    }

    /// Pages 0–3 (READ page 0): UID with its check bytes, lock bytes, CC.
    static func readHeader(_ link: inout CountedLink) async throws(TagReadError) -> [UInt8] {
        let response = try await link.send(Type2Command.read(page: 0).frame)
        guard response.count == 16 else { throw .unexpectedResponse(command: "READ page 0", expected: 16, received: response.count) }
        return response
    }

    /// The 7-byte UID from pages 0–1 (the check bytes left out).
    static func uid(in header: [UInt8]) -> [UInt8] {
        Array(header[0..<3] + header[4..<8])
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
