import CPCSCLite
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One pcsc-lite context (`SCardEstablishContext`).
///
/// pcsc-lite's calls block, and its client library serialises the calls of one context (a
/// waiting `SCardGetStatusChange` holds the context until it returns). So every call of a
/// context runs on that context's own serial queue, off the Swift cooperative pool, and comes
/// back through a continuation; the one exception is ``cancel()``, which pcsc-lite allows from
/// any thread and which ends a waiting `SCardGetStatusChange` at once. Watch readers on one
/// context and talk to cards on another, so a wait never holds up an exchange.
///
/// The daemon's socket is `PCSCLITE_CSOCK_NAME` when set (the client library reads it once,
/// at the first context of the process), else `/run/pcscd/pcscd.comm`.
public final class PCSCContext: Sendable {
    /// Waits without a timeout (`INFINITE`).
    public static let infinite: UInt32 = 0xFFFF_FFFF

    let handle: SCARDCONTEXT
    let queue: DispatchQueue
    private let released = Mutex(false)

    /// Establishes a user-scope context. Throws ``PCSCError/noService`` when pcscd is not running.
    public static func establish() async throws(PCSCError) -> PCSCContext {
        let queue = DispatchQueue(label: "pcsc.context")
        let result: Result<SCARDCONTEXT, PCSCError> = await withCheckedContinuation { continuation in
            queue.async {
                var context: SCARDCONTEXT = 0
                let rv = SCardEstablishContext(DWORD(SCARD_SCOPE_USER), nil, nil, &context)
                continuation.resume(returning: rv == SCARD_S_SUCCESS ? .success(context) : .failure(PCSCError(code: Int(rv), function: "SCardEstablishContext")))
            }
        }
        return PCSCContext(handle: try result.get(), queue: queue)
    }

    private init(handle: SCARDCONTEXT, queue: DispatchQueue) {
        self.handle = handle
        self.queue = queue
    }

    deinit {
        if !released.withLock({ $0 }) {
            let handle = handle
            queue.async { _ = SCardReleaseContext(handle) }
        }
    }

    var isReleased: Bool { released.withLock { $0 } }

    /// Runs `body` on the context's queue.
    func perform<T: Sendable>(_ body: @escaping @Sendable () -> Result<T, PCSCError>) async throws(PCSCError) -> T {
        let result: Result<T, PCSCError> = await withCheckedContinuation { continuation in
            queue.async {
                guard !self.isReleased else {
                    continuation.resume(returning: .failure(PCSCError(code: PCSCError.invalidHandle.code, function: "released context")))
                    return
                }
                continuation.resume(returning: body())
            }
        }
        return try result.get()
    }

    /// The readers pcscd knows now; empty when it knows none.
    public func readers() async throws(PCSCError) -> [String] {
        let context = handle
        return try await perform { () -> Result<[String], PCSCError> in
            var length: DWORD = 0
            var rv = SCardListReaders(context, nil, nil, &length)
            if rv == PCSCError.noReadersAvailable.code { return .success([]) }
            guard rv == SCARD_S_SUCCESS else { return .failure(PCSCError(code: Int(rv), function: "SCardListReaders")) }
            var buffer = [CChar](repeating: 0, count: Int(length))
            rv = SCardListReaders(context, nil, &buffer, &length)
            if rv == PCSCError.noReadersAvailable.code { return .success([]) }
            guard rv == SCARD_S_SUCCESS else { return .failure(PCSCError(code: Int(rv), function: "SCardListReaders")) }
            return .success(Self.multiString(buffer.prefix(Int(length))))
        }
    }

    /// Splits a PC/SC multi-string (names separated by NUL, ended by an empty name).
    public static func multiString<C: Collection<CChar>>(_ chars: C) -> [String] {
        chars.split(separator: 0, omittingEmptySubsequences: true).map { slice in
            String(decoding: slice.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// `SCardGetStatusChange`: returns when the state of any of `states` differs from what the
    /// caller knows (its ``PCSCReaderState/known``), when `timeout` milliseconds pass
    /// (``PCSCError/timeout``), or when ``cancel()`` is called (``PCSCError/cancelled``).
    public func statusChange(_ states: [PCSCReaderState], timeout: UInt32 = infinite) async throws(PCSCError) -> [PCSCReaderState] {
        let context = handle
        return try await perform { () -> Result<[PCSCReaderState], PCSCError> in
            let names = states.map { strdup($0.reader) }
            defer { names.forEach { free($0) } }
            var raw = states.enumerated().map { index, state in
                var entry = SCARD_READERSTATE()
                entry.szReader = UnsafePointer(names[index])
                entry.dwCurrentState = DWORD(state.known)
                return entry
            }
            let rv = SCardGetStatusChange(context, DWORD(timeout), &raw, DWORD(raw.count))
            guard rv == SCARD_S_SUCCESS else { return .failure(PCSCError(code: Int(rv), function: "SCardGetStatusChange")) }
            var result = states
            for index in result.indices {
                result[index].reported = UInt(raw[index].dwEventState)
                let length = min(Int(raw[index].cbAtr), Int(MAX_ATR_SIZE))
                result[index].atr = withUnsafeBytes(of: raw[index].rgbAtr) { Array($0.prefix(length)) }
            }
            return .success(result)
        }
    }

    /// `SCardCancel`: ends a waiting ``statusChange(_:timeout:)`` of this context at once. Safe from
    /// any thread; does not wait for the context's queue.
    public func cancel() {
        guard !isReleased else { return }
        _ = SCardCancel(handle)
    }

    /// Connects to the card in `reader` (shared by default).
    public func connect(_ reader: String, share: PCSCShareMode = .shared, protocols: PCSCProtocol = .any) async throws(PCSCError) -> PCSCCard {
        let context = handle
        let (card, active) = try await perform { () -> Result<(SCARDHANDLE, UInt), PCSCError> in
            var card: SCARDHANDLE = 0
            var active: DWORD = 0
            let rv = SCardConnect(context, reader, DWORD(share.rawValue), DWORD(protocols.rawValue), &card, &active)
            guard rv == SCARD_S_SUCCESS else { return .failure(PCSCError(code: Int(rv), function: "SCardConnect")) }
            return .success((card, UInt(active)))
        }
        return PCSCCard(handle: card, context: self, reader: reader, activeProtocol: PCSCProtocol(rawValue: active))
    }

    /// Releases the context: cancels a waiting call first, then `SCardReleaseContext` behind
    /// whatever is queued.
    public func release() async {
        cancel()
        let context = handle
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                let first = self.released.withLock { released -> Bool in
                    defer { released = true }
                    return !released
                }
                if first { _ = SCardReleaseContext(context) }
                continuation.resume()
            }
        }
    }
}

/// A connection to the card in one reader (`SCardConnect`); its calls run on its context's queue.
public final class PCSCCard: Sendable {
    public let reader: String
    /// What the card speaks; a reconnect (on the context's queue, from another task) may change it
    /// while a transmit reads it, so it is behind a lock.
    public var activeProtocol: PCSCProtocol { negotiated.withLock { $0 } }
    private let negotiated: Mutex<PCSCProtocol>
    let handle: SCARDHANDLE
    let context: PCSCContext
    private let disconnected = Mutex(false)

    init(handle: SCARDHANDLE, context: PCSCContext, reader: String, activeProtocol: PCSCProtocol) {
        self.handle = handle
        self.context = context
        self.reader = reader
        negotiated = Mutex(activeProtocol)
    }

    deinit {
        if !disconnected.withLock({ $0 }) {
            let handle = handle, context = context
            context.queue.async { _ = SCardDisconnect(handle, DWORD(SCARD_LEAVE_CARD)); withExtendedLifetime(context) {} }
        }
    }

    private func perform<T: Sendable>(_ body: @escaping @Sendable (SCARDHANDLE) -> Result<T, PCSCError>) async throws(PCSCError) -> T {
        let handle = handle
        return try await context.perform { () -> Result<T, PCSCError> in
            if self.disconnected.withLock({ $0 }) { return .failure(PCSCError(code: PCSCError.invalidHandle.code, function: "disconnected card")) }
            return body(handle)
        }
    }

    /// `SCardStatus`: the reader, state, protocol and ATR.
    public func status() async throws(PCSCError) -> PCSCCardStatus {
        try await perform { handle -> Result<PCSCCardStatus, PCSCError> in
            var nameLength = DWORD(0)
            var state = DWORD(0), proto = DWORD(0)
            var atr = [UInt8](repeating: 0, count: Int(MAX_ATR_SIZE))
            var atrLength = DWORD(MAX_ATR_SIZE)
            var rv = SCardStatus(handle, nil, &nameLength, &state, &proto, &atr, &atrLength)
            guard rv == SCARD_S_SUCCESS else { return .failure(PCSCError(code: Int(rv), function: "SCardStatus")) }
            var name = [CChar](repeating: 0, count: Int(nameLength) + 1)
            atrLength = DWORD(MAX_ATR_SIZE)
            rv = SCardStatus(handle, &name, &nameLength, &state, &proto, &atr, &atrLength)
            guard rv == SCARD_S_SUCCESS else { return .failure(PCSCError(code: Int(rv), function: "SCardStatus")) }
            return .success(PCSCCardStatus(reader: PCSCContext.multiString(name).first ?? "", state: UInt(state),
                                           activeProtocol: PCSCProtocol(rawValue: UInt(proto)),
                                           atr: Array(atr.prefix(Int(atrLength)))))
        }
    }

    /// `SCardTransmit`: one APDU out, the response (data and status word) back.
    public func transmit(_ apdu: [UInt8], maxResponse: Int = 65_538) async throws(PCSCError) -> [UInt8] {
        let proto = activeProtocol.contains(.t1) ? PCSCProtocol.t1 : activeProtocol
        return try await perform { handle -> Result<[UInt8], PCSCError> in
            var request = SCARD_IO_REQUEST(dwProtocol: DWORD(proto.rawValue), cbPciLength: DWORD(MemoryLayout<SCARD_IO_REQUEST>.size))
            var response = [UInt8](repeating: 0, count: maxResponse)
            var length = DWORD(maxResponse)
            let rv = apdu.withUnsafeBufferPointer { command in
                SCardTransmit(handle, &request, command.baseAddress, DWORD(command.count), nil, &response, &length)
            }
            guard rv == SCARD_S_SUCCESS else { return .failure(PCSCError(code: Int(rv), function: "SCardTransmit")) }
            return .success(Array(response.prefix(Int(length))))
        }
    }

    /// `SCardBeginTransaction`: from here until ``endTransaction(_:)`` (or disconnecting) no other
    /// client's command reaches the card; theirs fail with SCARD_E_SHARING_VIOLATION. While another
    /// client holds a transaction, pcsc-lite's client library waits (asking pcscd every 100 ms)
    /// until it ends or the card leaves (SCARD_W_REMOVED_CARD), holding this context's queue.
    public func beginTransaction() async throws(PCSCError) {
        try await perform { handle -> Result<Void, PCSCError> in
            let rv = SCardBeginTransaction(handle)
            return rv == SCARD_S_SUCCESS ? .success(()) : .failure(PCSCError(code: Int(rv), function: "SCardBeginTransaction"))
        }
    }

    /// `SCardEndTransaction`: other clients may use the card again.
    public func endTransaction(_ disposition: PCSCDisposition = .leave) async throws(PCSCError) {
        try await perform { handle -> Result<Void, PCSCError> in
            let rv = SCardEndTransaction(handle, DWORD(disposition.rawValue))
            return rv == SCARD_S_SUCCESS ? .success(()) : .failure(PCSCError(code: Int(rv), function: "SCardEndTransaction"))
        }
    }

    /// `SCardReconnect`: resets (or leaves) the card and connects again, shared.
    public func reconnect(initialization: PCSCDisposition = .reset, share: PCSCShareMode = .shared) async throws(PCSCError) {
        let active = try await perform { handle -> Result<UInt, PCSCError> in
            var active = DWORD(0)
            let rv = SCardReconnect(handle, DWORD(share.rawValue), DWORD(PCSCProtocol.any.rawValue), DWORD(initialization.rawValue), &active)
            guard rv == SCARD_S_SUCCESS else { return .failure(PCSCError(code: Int(rv), function: "SCardReconnect")) }
            return .success(UInt(active))
        }
        negotiated.withLock { $0 = PCSCProtocol(rawValue: active) }
    }

    /// `SCardDisconnect`; later calls fail.
    public func disconnect(_ disposition: PCSCDisposition = .leave) async {
        let handle = handle
        try? await context.perform { () -> Result<Void, PCSCError> in
            let first = self.disconnected.withLock { value -> Bool in
                defer { value = true }
                return !value
            }
            if first { _ = SCardDisconnect(handle, DWORD(disposition.rawValue)) }
            return .success(())
        }
    }
}
