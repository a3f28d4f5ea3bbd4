#if canImport(Glibc)
import Glibc
#endif
import LibNFC
import NFCTags
import Synchronization

/// A reader reached through libnfc.
///
/// Searching: libnfc offers no event when an object arrives; the chip polls and the host waits
/// for its answer. Each round is one `nfc_initiator_poll_target` over every modulation the
/// device supports among ISO 14443A, FeliCa 212/424, ISO 14443B and Jewel, with a poll count
/// of 1 and a period of 1 (150 ms per modulation): a PN532 runs InAutoPoll itself and answers
/// after about 150 ms × modulations (0.9 s for six target types) when nothing came, while the
/// host sleeps in `select`; other PN53x run libnfc's loop of selects with the same budget. A
/// round is never shorter than ``Timing/minimumRound`` (a device that answers at once cannot
/// make the loop spin), so an idle reader costs a few frames per second.
///
/// Removal: once an object is announced it stays selected, and the reader asks
/// `nfc_initiator_target_is_present` every ``Timing/presenceInterval`` (250 ms) — not in a tight
/// loop as libnfc's nfc-poll does — and skips the check while the object's transport was used
/// in that interval (a read in progress finds a removal itself). On removal it deselects the
/// target and searches again.
///
/// Closing cancels the search (and `nfc_abort_command` ends a blocking poll on USB readers; on
/// a serial PN532 the round ends by itself within its bound) and closes the device.
public final class LibNFCReader: Reader, Sendable {
    public struct Timing: Sendable {
        /// PollNr and Period of `nfc_initiator_poll_target` (Period in 150 ms units).
        public var pollCount: UInt8 = 1
        public var period: UInt8 = 1
        /// Shortest time one search round takes.
        public var minimumRound: Duration = .milliseconds(250)
        /// Time between presence checks of an announced object.
        public var presenceInterval: Duration = .milliseconds(250)

        public init() {}
        public static let `default` = Timing()
    }

    public let name: String
    public let backend = ReaderBackend.libnfc
    public let connstring: String
    /// The modulations searched.
    public let modulations: [Modulation]
    public let timing: Timing
    private let device: LibNFCDevice
    private let run = ReaderRun()

    /// Modulations worth searching, in order; a device's supported list is filtered to these
    /// (the only ones `nfc_initiator_poll_target` maps to PN532 target types).
    public static let searchOrder: [Modulation] = [.iso14443A, .felica212, .felica424, .iso14443B, .jewel]

    public var status: ReaderStatus { run.status }

    private init(device: LibNFCDevice, modulations: [Modulation], timing: Timing) {
        self.device = device
        self.connstring = device.connstring
        self.name = device.name == device.connstring ? device.name : "\(device.name) (\(device.connstring))"
        self.modulations = modulations
        self.timing = timing
    }

    /// The connstrings libnfc lists (see ``LibNFCContext`` for what it honours).
    public static func connstrings(in context: LibNFCContext) async -> [String] {
        await context.listDevices()
    }

    /// Opens a reader: `connstring`, or the first one libnfc lists. Failures are explained
    /// (``ReaderError``): nothing found, a kernel module or another program holding a USB
    /// reader, no permission on the device node.
    public static func open(_ connstring: String? = nil, context: LibNFCContext, timing: Timing = .default,
                            usbProbe: USBReaderProbe = USBReaderProbe()) async throws(ReaderError) -> LibNFCReader {
        let chosen: String
        if let connstring {
            chosen = connstring
        } else {
            guard let first = await context.listDevices().first else {
                throw usbProbe.problem() ?? .noReaderFound(searched: "libnfc listed no device")
            }
            chosen = first
        }
        let device: LibNFCDevice
        do {
            device = try await context.open(chosen)
        } catch {
            throw diagnose(connstring: chosen, probe: usbProbe)
        }
        do {
            try await device.initiatorInit()
            try await device.setProperty(.infiniteSelect, false)
            try await device.setProperty(.handleCRC, true)
            try await device.setProperty(.handleParity, true)
            try await device.setProperty(.easyFraming, true)
            try await device.setProperty(.autoISO14443_4, true)
            let supported = Set(try await device.supportedModulations())
            let modulations = searchOrder.filter(supported.contains)
            return LibNFCReader(device: device, modulations: modulations.isEmpty ? [.iso14443A] : modulations, timing: timing)
        } catch {
            await device.close()
            throw error.code == .io ? .readerGone(reader: chosen, detail: error.description) : .backend(error)
        }
    }

    /// Why `nfc_open` failed, as far as the system shows it.
    public static func diagnose(connstring: String, probe: USBReaderProbe = USBReaderProbe()) -> ReaderError {
        let parts = connstring.split(separator: ":", maxSplits: 1).map(String.init)
        let driver = parts.first ?? ""
        if let path = devicePath(of: connstring) {
            var info = stat()
            if stat(path, &info) != 0 { return .noReaderFound(searched: connstring) }
            if access(path, R_OK | W_OK) != 0 { return .permissionDenied(path: path) }
            return .openFailed(connstring: connstring)
        }
        if driver.hasSuffix("_usb") {
            let found = probe.scan()
            if parts.count > 1 {
                // pn53x_usb:BBB:DDD names the usbfs node.
                let numbers = parts[1].split(separator: ":").compactMap { Int($0) }
                if numbers.count == 2 {
                    let path = "\(probe.usbfs)/\(USBReaderProbe.pad3(numbers[0]))/\(USBReaderProbe.pad3(numbers[1]))"
                    if let reader = found.first(where: { $0.devicePath == path }) {
                        return reader.problem ?? .openFailed(connstring: connstring)
                    }
                    return .noReaderFound(searched: connstring)
                }
            }
            return found.lazy.compactMap(\.problem).first ?? .openFailed(connstring: connstring)
        }
        return .openFailed(connstring: connstring)
    }

    /// The device node a serial, SPI or I2C connstring names (`pn532_uart:/dev/ttyUSB0:115200`:
    /// `/dev/ttyUSB0`); nil for USB and other connstrings.
    public static func devicePath(of connstring: String) -> String? {
        let parts = connstring.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, ["pn532_uart", "arygon", "acr122s", "pn532_spi", "pn532_i2c"].contains(String(parts[0])),
              let path = parts[1].split(separator: ":").first, !path.isEmpty else { return nil }
        return String(path)
    }

    public var identifier: String { connstring }

    public func events() -> AsyncThrowingStream<ReaderEvent, any Error> {
        run.events { continuation in await self.search(continuation) }
    }

    public func close() async {
        let task = run.close()
        task?.cancel()
        device.abortCommand()
        await task?.value
        await device.close()
    }

    private func setStatus(_ status: ReaderStatus) { run.set(status) }

    private func search(_ continuation: AsyncThrowingStream<ReaderEvent, any Error>.Continuation) async {
        do {
            while !Task.isCancelled {
                let roundStart = ContinuousClock.now
                guard let target = try await device.pollTarget(modulations, pollCount: timing.pollCount, period: timing.period) else {
                    try await Task.sleep(until: roundStart + timing.minimumRound)
                    continue
                }
                let object = detected(target)
                setStatus(.objectPresent)
                continuation.yield(.arrived(object.detected))
                try await watch(object.transport)
                object.transport.retire()
                try? await device.deselectTarget()
                setStatus(.searching)
                continuation.yield(.removed(identifier: target.identifier))
            }
            continuation.finish()
        } catch let error as LibNFCError where error.code == .aborted || error == .closed {
            continuation.finish()
        } catch is CancellationError {
            continuation.finish()
        } catch let error as LibNFCError {
            let failure: ReaderError = error.code == .io ? .readerGone(reader: name, detail: error.description) : .backend(error)
            setStatus(.failed(failure))
            continuation.finish(throwing: failure)
        } catch {
            continuation.finish(throwing: error)
        }
    }

    /// Returns when the object has left the field.
    private func watch(_ transport: LibNFCTransport) async throws {
        while true {
            try await Task.sleep(for: timing.presenceInterval)
            if transport.readsInProgress.withLock({ $0 }) > 0 { continue }
            if let last = transport.lastActivity.withLock({ $0 }), last.duration(to: .now) < timing.presenceInterval { continue }
            if try await !device.targetIsPresent(nil) { return }
        }
    }

    private func detected(_ target: Target) -> (detected: DetectedObject, transport: LibNFCTransport) {
        let technology: DetectedObject.Technology
        switch target.info {
        case .iso14443A(let atqa, let sak, _, let ats): technology = .iso14443A(atqa: atqa, sak: sak, ats: ats)
        case .felica(_, let pmm, let systemCode): technology = .felica(pmm: pmm, systemCode: systemCode)
        case .iso14443B(_, let applicationData, let protocolInfo):
            technology = .iso14443B(applicationData: applicationData, protocolInfo: protocolInfo)
        case .jewel: technology = .jewel
        case .other: technology = .other("\(target.modulation)")
        }
        let platform = DetectedObject.platform(for: technology)
        let transport = LibNFCTransport(device: device, target: target, platform: platform)
        return (DetectedObject(identifier: target.identifier, technology: technology, platform: platform, link: transport), transport)
    }
}
