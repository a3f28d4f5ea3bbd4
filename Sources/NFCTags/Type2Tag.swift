import NDEF

/// Reads the NDEF message of an NFC Forum Type 2 object (NTAG 21x, MIFARE Ultralight family).
///
/// The read takes as few round trips as the link allows while reading only as far as the NDEF
/// TLV needs:
/// 1. GET_VERSION (when the link passes it) names the chip and its exact user memory. A chip that
///    does not know the command (the original Ultralight) falls silent or NAKs and goes IDLE; the
///    object is re-activated and the capability container alone gives the size. A chip of a
///    signing family is asked its originality signature (READ_SIG, ``readSignature(_:product:uid:)``).
/// 2. The first read takes the capability container (page 3) and the start of the data area
///    (``initialDataBytes``): FAST_READ when chip and link allow, else READ (4 pages).
/// 3. ``TLVWalker`` says how far the TLVs reach; the rest is read in as few frames as the link's
///    ``LinkCapabilities/maxResponseLength`` allows.
///
/// The data area is bounded by the smaller of the capability container's size and the chip's
/// user memory from GET_VERSION, so a CC that overstates the memory cannot make the read run into
/// configuration pages. The areas Lock and Memory Control TLVs reserve are skipped wherever they
/// fall (``TLVDataArea``), between TLVs and inside the message. Limits: without GET_VERSION the
/// CC is trusted (a chip NAKs a READ past its end, but READ wraps to page 0 within its last 3 pages).
public enum Type2Tag {
    /// Bytes of data area read with the capability container before the TLV lengths are known:
    /// a whole 48-byte tag, or the TLV headers and a short message of a larger one.
    public static let initialDataBytes = 48

    /// Byte address of the data area (page 4).
    static let dataAreaStart = Type2Product.firstUserPage * Type2Product.pageSize
    /// Page of the capability container.
    public static let ccPage = 3
    /// Highest page a one-byte page address reaches.
    static let lastAddressablePage = 0xFF

    /// Reads the message. `uid` is passed through to the result when the backend knows it.
    ///
    /// `password`: an NTAG21x password, sent (PWD_AUTH) only to a chip that refuses to be read
    /// without it: a READ NAK on a chip whose configuration pages refuse READ too (PROT with AUTH0
    /// at or before the page). Then the read starts again after PWD_AUTH; a refused password is
    /// ``TagReadError/wrongPassword``, none ``TagReadError/passwordRequired``. An object that
    /// does not protect reading never sees the password, so a wrong one cannot count against its
    /// AUTHLIM (the failed attempts after which an NTAG21x refuses its password for good). A
    /// reader that passes only READ and WRITE may say itself that the chip wants its password
    /// (``TransportError/passwordNotPassed``): that is ``TagReadError/passwordNotPassed``
    /// (``CountedLink``), whether a password was given or not.
    public static func readNDEF(over transport: some TagTransport, uid: [UInt8]? = nil, password: [UInt8]? = nil,
                                initialDataBytes: Int = initialDataBytes) async throws(TagReadError) -> TagReading {
        var link = CountedLink(transport)
        let product = try await identify(&link)
        let originality = try await readSignature(&link, product: product, uid: uid)
        var reading: TagReading
        do {
            reading = try await readMessage(&link, product: product, uid: uid, initialDataBytes: initialDataBytes)
        } catch .nak(let command, let code) {
            guard let pages = product?.configurationPages, await refusesConfiguration(&link, pages) else {
                throw .nak(command: command, code: code)
            }
            guard let password else { throw .passwordRequired }
            guard password.count == 4 else { throw .unsupported("a password for this chip is 4 bytes, not \(password.count)") }
            guard try await authenticate(&link, password) == .accepted else { throw .wrongPassword }
            reading = try await readMessage(&link, product: product, uid: uid, initialDataBytes: initialDataBytes)
        }
        reading.originality = originality
        return reading
    }

    /// The read after GET_VERSION (or after PWD_AUTH): see the type's documentation.
    private static func readMessage(_ link: inout CountedLink, product: Type2Product?, uid: [UInt8]?,
                                    initialDataBytes: Int) async throws(TagReadError) -> TagReading {
        let initialDataBytes = max(Type2Product.pageSize, initialDataBytes)    // every read must make progress
        let capabilities = link.transport.capabilities
        var memory = PageReader(fastRead: product?.supportsFastRead == true && capabilities.passesType2Extensions,
                                maxResponseLength: capabilities.maxResponseLength)

        // Capability container, with the start of the data area.
        let firstPages = (min(initialDataBytes, product?.userMemory ?? initialDataBytes) + 3) / 4
        try await memory.read(through: memory.fastRead ? ccPage + firstPages : ccPage,
                              limit: product?.lastUserPage ?? lastAddressablePage, &link)
        let cc: Type2CapabilityContainer
        do { cc = try Type2CapabilityContainer(memory.bytes.prefix(4)) } catch {
            if case .notNDEF = error { return .blank(platform: .type2, product: product?.name, uid: uid, roundTrips: link.roundTrips) }
            throw .capabilityContainer(error)
        }
        guard cc.read == .granted else { throw .readAccessDenied }
        let capacity = capacity(of: cc, userMemory: product?.userMemory)
        let lastDataPage = ccPage + capacity / Type2Product.pageSize

        // Walk the TLVs on what has been read, around the areas control TLVs reserve; read on as
        // far as they need.
        let bounds = dataAreaStart..<(dataAreaStart + capacity)
        while true {
            let area: TLVDataArea
            do { area = try TLVDataArea(memory: memory.bytes, base: ccPage * Type2Product.pageSize, bounds: bounds) } catch {
                throw .memory(error)
            }
            switch area.next {
            case .done(let message):
                return TagReading(platform: .type2, product: product?.name, uid: uid, capacity: TLVAreaWritePlan.largestMessage(in: area.available),
                                  ndefBytes: message, roundTrips: link.roundTrips)
            case .pastEnd(let needed, let capacity):
                throw .messagePastEndOfMemory(needed: needed, capacity: capacity)
            case .read(let addresses):
                try await memory.read(through: (addresses.last ?? 0) / Type2Product.pageSize, limit: lastDataPage, &link)
            case .readOn(let address):
                // The TLVs so far end exactly where the read ended: read the next stretch.
                let stretch = memory.fastRead ? (initialDataBytes + 3) / 4 : 1
                try await memory.read(through: address / Type2Product.pageSize + stretch - 1, limit: lastDataPage, &link)
            }
        }
    }

    /// GET_VERSION, where the link passes it. Returns the chip when it is in the table; nil when
    /// the chip is unknown or does not implement GET_VERSION (then it has been re-activated).
    static func identify(_ link: inout CountedLink) async throws(TagReadError) -> Type2Product? {
        guard link.transport.capabilities.passesType2Extensions else { return nil }
        let response: [UInt8]
        do {
            response = try await link.exchange(Type2Command.getVersion.frame)
        } catch .timeout {
            // The original Ultralight does not answer GET_VERSION and goes IDLE.
            try await link.reactivate()
            return nil
        } catch {
            throw link.mapped(error)
        }
        switch response.count {
        case 8:
            return Type2Product.identify(version: response)
        case 1:
            // A NAK also sends the chip to IDLE.
            try await link.reactivate()
            return nil
        default:
            throw .unexpectedResponse(command: "GET_VERSION", expected: 8, received: response.count)
        }
    }

    /// What a chip made of PWD_AUTH.
    enum Authentication: Equatable {
        /// It answered PACK.
        case accepted
        /// It answered NAK: not its password.
        case refused
        /// It did not answer: a chip without a password.
        case silent
    }

    /// PWD_AUTH with `password` (NTAG21x §10.7, MF0ULX1 §8.13). A refusal or silence sends the chip
    /// to IDLE, so it is activated again (after a refusal only as far as it is still there: the
    /// next command finds out).
    static func authenticate(_ link: inout CountedLink, _ password: [UInt8]) async throws(TagReadError) -> Authentication {
        let answer: [UInt8]
        do { answer = try await link.exchange(Type2PasswordProtection.authenticate(password)) } catch .timeout {
            try await link.reactivate()
            return .silent
        } catch { throw link.mapped(error) }
        switch answer.count {
        case 2: return .accepted
        case 1:
            try? await link.reactivate()
            return .refused
        default: throw .unexpectedResponse(command: "PWD_AUTH", expected: 2, received: answer.count)
        }
    }

    /// After a NAK sent the chip to IDLE: whether it refuses READ of its configuration pages as
    /// well, which only PROT with AUTH0 at or before them does (it is activated again either way).
    static func refusesConfiguration(_ link: inout CountedLink, _ pages: Type2ConfigurationPages) async -> Bool {
        guard (try? await link.reactivate()) != nil,
              let response = try? await link.send(Type2Command.read(page: UInt8(pages.firstPage)).frame) else { return false }
        guard response.count == 1 else { return false }
        try? await link.reactivate()
        return true
    }

    /// The data area's size: the capability container's, bounded by the chip's user memory from
    /// GET_VERSION (so an overstating CC cannot reach configuration pages) and by what a one-byte
    /// page address reaches.
    static func capacity(of cc: Type2CapabilityContainer, userMemory: Int?) -> Int {
        let addressable = (lastAddressablePage - ccPage) * Type2Product.pageSize
        return min(cc.dataAreaSize, userMemory ?? cc.dataAreaSize, addressable)
    }
}

/// Type 2 memory from the capability container page on, read in page-aligned stretches.
struct PageReader {
    /// Pages read so far, from page 3.
    private(set) var bytes: [UInt8] = []
    let fastRead: Bool
    let pagesPerFrame: Int

    init(fastRead: Bool, maxResponseLength: Int) {
        self.fastRead = fastRead
        pagesPerFrame = max(1, min(maxResponseLength, 0x100 * Type2Product.pageSize) / Type2Product.pageSize)
    }

    var nextPage: Int { Type2Tag.ccPage + bytes.count / Type2Product.pageSize }

    /// Reads every page up to `last` not yet read. READ returns 4 pages at a time; pages past
    /// `limit` in its answer are dropped (past the data area, or wrapped round to page 0).
    mutating func read(through last: Int, limit: Int, _ link: inout CountedLink) async throws(TagReadError) {
        let last = min(last, limit)
        while nextPage <= last {
            let start = nextPage
            let command: Type2Command = fastRead
                ? .fastRead(start: UInt8(start), end: UInt8(min(last, start + pagesPerFrame - 1)))
                : .read(page: UInt8(start))
            let response = try await link.send(command.frame)
            let name = fastRead ? "FAST_READ from page \(start)" : "READ page \(start)"
            if response.count == 1 { throw .nak(command: name, code: response[0] & 0x0F) }
            guard response.count == command.expectedResponseLength else {
                throw .unexpectedResponse(command: name, expected: command.expectedResponseLength, received: response.count)
            }
            let pages = min(response.count / Type2Product.pageSize, limit - start + 1)
            bytes += response.prefix(pages * Type2Product.pageSize)
        }
    }
}
