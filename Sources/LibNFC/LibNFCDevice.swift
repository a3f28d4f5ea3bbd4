import CLibNFC
import Dispatch
import POSIXEvents
import Synchronization

/// One open libnfc device.
///
/// Every call runs on the device's own serial queue (libnfc is not thread-safe per device, and
/// its calls block); callers await the result. The exceptions are ``abortCommand()``, which is
/// meant to be called while another call blocks, and ``close()``, which is queued behind
/// whatever is pending.
///
/// The libnfc device is a ``QueueBound`` on `queue`: reached off it, the program traps, except by
/// ``abortCommand()``, which libnfc allows beside a blocking call.
public final class LibNFCDevice: Sendable {
    public let connstring: String
    /// The name libnfc gives the device (for a PN532 on a serial line: `pn532_uart:<path>` or the
    /// name from the configuration).
    public let name: String

    private let pointer: QueueBound<OpaquePointer>
    private let context: LibNFCContext
    private var queue: DispatchQueue { pointer.queue }
    /// Closed: no more calls; running: a call is inside libnfc (abort only then, since the USB
    /// driver keeps an abort flag that would otherwise end the next call).
    private let state = Mutex<(closed: Bool, running: Bool)>((false, false))

    /// Made on the context's queue, where `nfc_open` returned the device; from here on it is used
    /// on a queue of its own.
    init(_ pointer: OpaquePointer, context: LibNFCContext) {
        self.context = context
        connstring = String(cString: nfc_device_get_connstring(pointer))
        name = String(cString: nfc_device_get_name(pointer))
        self.pointer = QueueBound(pointer, queue: DispatchQueue(label: "libnfc.device \(connstring)"))
    }

    deinit {
        let pointer = self.pointer, context = self.context
        if !state.withLock({ $0.closed }) {
            queue.async {
                nfc_close(pointer.value)
                withExtendedLifetime(context) {}
            }
        }
    }

    // MARK: - Serialised calls

    /// Runs `body` on the device's queue. `abortable` lets a cancelled task end the call with
    /// `nfc_abort_command`.
    private func perform<T: Sendable>(abortable: Bool = false,
                                      _ body: @escaping @Sendable (OpaquePointer) -> Result<T, LibNFCError>) async throws(LibNFCError) -> T {
        let work: @Sendable () async -> Result<T, LibNFCError> = {
            await withCheckedContinuation { continuation in
                self.queue.async {
                    let open = self.state.withLock { state -> Bool in
                        guard !state.closed else { return false }
                        state.running = true
                        return true
                    }
                    guard open else { continuation.resume(returning: .failure(.closed)); return }
                    let result = body(self.pointer.value)
                    self.state.withLock { $0.running = false }
                    continuation.resume(returning: result)
                }
            }
        }
        let result = abortable
            ? await withTaskCancellationHandler(operation: work, onCancel: { self.abortCommand() })
            : await work()
        return try result.get()
    }

    private func failure(_ operation: String, _ code: Int32, _ device: OpaquePointer) -> LibNFCError {
        .call(operation, code: LibNFCErrorCode(code: code), message: String(cString: nfc_strerror(device)))
    }

    private func check(_ operation: String, _ code: Int32, _ device: OpaquePointer) -> Result<Void, LibNFCError> {
        code < 0 ? .failure(failure(operation, code, device)) : .success(())
    }

    // MARK: - Initiator

    /// `nfc_initiator_init`: initiator mode, field on, libnfc's defaults (easy framing, CRC and
    /// parity handled by the chip, infinite select on, automatic ISO 14443-4 activation).
    public func initiatorInit() async throws(LibNFCError) {
        try await perform { d in self.check("nfc_initiator_init", nfc_initiator_init(d), d) }
    }

    public func setProperty(_ property: DeviceProperty, _ value: Bool) async throws(LibNFCError) {
        try await perform { d in self.check("nfc_device_set_property_bool(\(property))", nfc_device_set_property_bool(d, property.c, value), d) }
    }

    /// The modulations the device can use as an initiator, each with its baud rates.
    public func supportedModulations() async throws(LibNFCError) -> [Modulation] {
        try await perform { d in
            var types: UnsafePointer<nfc_modulation_type>?
            let code = nfc_device_get_supported_modulation(d, N_INITIATOR, &types)
            guard code >= 0, var next = types else { return .failure(self.failure("nfc_device_get_supported_modulation", code, d)) }
            var result: [Modulation] = []
            // Both lists end with 0.
            while next.pointee.rawValue != 0 {
                let type = next.pointee
                var rates: UnsafePointer<nfc_baud_rate>?
                if nfc_device_get_supported_baud_rate(d, type, &rates) >= 0, var rate = rates, let swiftType = ModulationType(type) {
                    while rate.pointee.rawValue != 0 {
                        result.append(Modulation(swiftType, BaudRate(rate.pointee)))
                        rate += 1
                    }
                }
                next += 1
            }
            return .success(result)
        }
    }

    /// `nfc_initiator_select_passive_target`: the first target answering `modulation` (with
    /// `initiatorData`, e.g. a UID to select that one object), or nil when none answers.
    public func selectPassiveTarget(_ modulation: Modulation, initiatorData: [UInt8] = []) async throws(LibNFCError) -> Target? {
        try await perform { d in
            var target = nfc_target()
            let code = initiatorData.withUnsafeBufferPointer { data in
                nfc_initiator_select_passive_target(d, modulation.c, data.isEmpty ? nil : data.baseAddress, data.count, &target)
            }
            if code < 0 { return .failure(self.failure("nfc_initiator_select_passive_target", code, d)) }
            return .success(code == 0 ? nil : Target(target))
        }
    }

    /// `nfc_initiator_list_passive_targets`: up to `limit` targets answering `modulation`.
    public func listPassiveTargets(_ modulation: Modulation, limit: Int = 4) async throws(LibNFCError) -> [Target] {
        try await perform { d in
            var targets = [nfc_target](repeating: nfc_target(), count: limit)
            let code = nfc_initiator_list_passive_targets(d, modulation.c, &targets, limit)
            if code < 0 { return .failure(self.failure("nfc_initiator_list_passive_targets", code, d)) }
            return .success(targets.prefix(Int(code)).map(Target.init))
        }
    }

    /// `nfc_initiator_poll_target`: the chip (a PN532 with InAutoPoll; other PN53x through
    /// libnfc's loop of selects) polls `modulations` `pollCount` times, each for
    /// `period` × 150 ms, and returns the first target found, or nil. The call blocks until the
    /// chip answers, so keep `pollCount × period × 150 ms × modulations` short; a cancelled task
    /// ends it with `nfc_abort_command`.
    public func pollTarget(_ modulations: [Modulation], pollCount: UInt8, period: UInt8) async throws(LibNFCError) -> Target? {
        try await perform(abortable: true) { d in
            let list = modulations.map(\.c)
            var target = nfc_target()
            let code = nfc_initiator_poll_target(d, list, list.count, pollCount, period, &target)
            if code < 0 { return .failure(self.failure("nfc_initiator_poll_target", code, d)) }
            return .success(code == 0 ? nil : Target(target))
        }
    }

    /// `nfc_initiator_transceive_bytes`: sends `bytes` to the selected target and returns its
    /// answer (at most `maxResponse` bytes), waiting at most `timeout` milliseconds (never 0,
    /// which libnfc takes as "for ever").
    public func transceive(_ bytes: [UInt8], maxResponse: Int = 264, timeout: Int32) async throws(LibNFCError) -> [UInt8] {
        precondition(timeout > 0, "a transceive waits a bounded time")
        return try await perform { d in
            var response = [UInt8](repeating: 0, count: maxResponse)
            let code = nfc_initiator_transceive_bytes(d, bytes, bytes.count, &response, maxResponse, Int32(timeout))
            if code < 0 { return .failure(self.failure("nfc_initiator_transceive_bytes", code, d)) }
            return .success(Array(response.prefix(Int(code))))
        }
    }

    /// `nfc_initiator_target_is_present`: whether `target` (nil: the selected one) still
    /// answers. Absence is false, not an error (libnfc reports it as NFC_ETGRELEASED, or as a
    /// failed radio exchange); other failures throw.
    public func targetIsPresent(_ target: Target?) async throws(LibNFCError) -> Bool {
        try await perform { d in
            var raw = target?.raw ?? nfc_target()
            let code = target == nil ? nfc_initiator_target_is_present(d, nil) : nfc_initiator_target_is_present(d, &raw)
            switch code {
            case 0...: return .success(true)
            case NFC_ETGRELEASED, NFC_ERFTRANS, NFC_ETIMEOUT: return .success(false)
            default: return .failure(self.failure("nfc_initiator_target_is_present", code, d))
            }
        }
    }

    /// `nfc_initiator_deselect_target`: releases the selected target.
    public func deselectTarget() async throws(LibNFCError) {
        try await perform { d in self.check("nfc_initiator_deselect_target", nfc_initiator_deselect_target(d), d) }
    }

    /// `nfc_idle`: field off, chip in its low-power state, until the next call.
    public func idle() async throws(LibNFCError) {
        try await perform { d in self.check("nfc_idle", nfc_idle(d), d) }
    }

    /// `nfc_abort_command`, from any thread, for a call that is blocking right now (a poll);
    /// does nothing otherwise. The USB drivers notice it within their 200–250 ms transfer slices;
    /// the serial PN532 driver replaces the pipe its `select` waits on, which does not always wake
    /// a wait already in progress, so callers keep every wait bounded as well.
    public func abortCommand() {
        state.withLock { state in
            // libnfc's abort is meant for another thread while a call blocks on the queue.
            if !state.closed && state.running { _ = nfc_abort_command(pointer.valueForConcurrentUse) }
        }
    }

    /// `nfc_close` (field off, chip powered down), after every pending call.
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                let wasOpen = self.state.withLock { state -> Bool in
                    defer { state.closed = true }
                    return !state.closed
                }
                if wasOpen { nfc_close(self.pointer.value) }
                continuation.resume()
            }
        }
    }
}
