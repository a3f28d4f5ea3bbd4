import LibNFC
import NFCTags

/// One backend's way to find and open readers. Tools keep a list of providers (libnfc and PC/SC:
/// `ReaderDirectory.standard()`) and treat every reader the same.
public protocol ReaderProvider: Sendable {
    var backend: ReaderBackend { get }
    /// The identifiers of the readers this backend can see now (libnfc: connstrings).
    func identifiers() async throws(ReaderError) -> [String]
    /// Opens the reader with this identifier; nil: the backend's first (explaining why none
    /// could be opened).
    func open(_ identifier: String?) async throws(ReaderError) -> any Reader
    /// Whether `identifier` looks like one of this backend's (libnfc: `driver:port`), so a
    /// reader can be named even when it is not listed.
    func recognises(_ identifier: String) -> Bool
    /// Where this backend looked, when it lists no reader ("libnfc listed no device").
    var noneListed: String { get }
    /// One element whenever this backend's readers may have changed (hotplug), so a scan can
    /// open readers that appear after it started; nil when the backend cannot notify.
    /// Calling it starts the watch: call it where the stream will be consumed.
    func readerChanges() -> AsyncStream<Void>?
    /// Whether ``readerChanges()`` gives a stream, known without starting a watch.
    var notifiesReaderChanges: Bool { get }
}

extension ReaderProvider {
    public var noneListed: String { "\(backend.rawValue) listed no reader" }
    /// A backend that cannot notify: a reader connected after the scan started is not seen.
    public func readerChanges() -> AsyncStream<Void>? { nil }
    public var notifiesReaderChanges: Bool { false }
}

/// Readers through libnfc: devices named by `LIBNFC_DEVICE`, libnfc.conf and devices.d, and
/// USB readers when libnfc's auto-scan is on.
public final class LibNFCReaderProvider: ReaderProvider, Sendable {
    public let backend = ReaderBackend.libnfc
    public let noneListed = "libnfc listed no device"
    public let timing: LibNFCReader.Timing
    private let context: Result<LibNFCContext, ReaderError>

    public init(timing: LibNFCReader.Timing = .default) {
        self.timing = timing
        do { context = .success(try LibNFCContext()) } catch { context = .failure(.backend(error)) }
    }

    public func identifiers() async throws(ReaderError) -> [String] {
        await LibNFCReader.connstrings(in: try context.get())
    }

    public func open(_ identifier: String?) async throws(ReaderError) -> any Reader {
        try await LibNFCReader.open(identifier, context: try context.get(), timing: timing)
    }

    /// libnfc itself cannot notify, so this follows the device nodes behind its devices with
    /// inotify (``LibNFCDeviceNodes``, through ``PathWatch``): each serial, SPI or I2C node its
    /// configuration names (``LibNFCConfiguration``: a USB serial adapter's `/dev/ttyUSB0`, a
    /// link an emulator makes), through the directory that holds it, and every node under
    /// `/dev/bus/usb`, where the USB readers of libnfc's auto-scan live (udev giving a new node
    /// its permissions counts too), counting only changes of those nodes and of the known USB
    /// readers. A change costs the scan one `nfc_list_devices` and an `nfc_open` per new device;
    /// nothing polls meanwhile. Nil without inotify: readers are then those present at the start.
    public func readerChanges() -> AsyncStream<Void>? {
        LibNFCDeviceNodes(paths: LibNFCConfiguration.current().connstrings.compactMap(LibNFCReader.devicePath(of:)),
                          probe: USBReaderProbe()).changes()
    }
    public var notifiesReaderChanges: Bool { true }

    public func recognises(_ identifier: String) -> Bool {
        let driver = identifier.split(separator: ":", maxSplits: 1).first ?? ""
        return identifier.contains(":") && ["pn532_uart", "pn532_spi", "pn532_i2c", "arygon", "acr122s", "acr122_usb",
                                            "pn53x_usb", "pn71xx"].contains(String(driver))
    }
}
