#if canImport(Glibc)
import Glibc
#endif
import POSIXEvents

/// What libnfc's readers depend on in the file system, so that the hotplug watch lists devices
/// again only when something libnfc would see differently changed: the serial, SPI and I2C
/// nodes its configuration names (there or not, which file, its permissions) and the known USB
/// readers (``USBReaderProbe``: which, where, whether this user may open them). `/dev/bus/usb`
/// changes for every USB device (a mouse, a disk); listing then would make libnfc try to set the
/// configuration of a USB reader in use (refused, and logged by libnfc and the kernel) for nothing.
struct LibNFCDeviceNodes: Sendable {
    var paths: [String]
    var probe: USBReaderProbe

    /// One node as `stat` and `access` see it (through links), and the path itself as `lstat`
    /// does; nil when it is not there. The change times tell a node made again apart (a new
    /// pseudo-terminal may reuse the number and inode of the last one).
    struct Node: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
        var mode: UInt32
        var owner: UInt32
        var group: UInt32
        var changed: [Int]
        var accessible: Bool
    }

    struct State: Hashable, Sendable {
        var nodes: [Node?]
        /// The known USB readers; the driver left out (this process holding one changes it).
        var usb: Set<[String]>
    }

    func state() -> State {
        let nodes = paths.map { path -> Node? in
            var info = stat(), link = stat()
            guard stat(path, &info) == 0, lstat(path, &link) == 0 else { return nil }
            let changed = [info.st_ctim, link.st_ctim].flatMap { [Int($0.tv_sec), Int($0.tv_nsec)] } + [Int(link.st_ino)]
            return Node(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), mode: UInt32(info.st_mode),
                        owner: UInt32(info.st_uid), group: UInt32(info.st_gid), changed: changed,
                        accessible: access(path, R_OK | W_OK) == 0)
        }
        let usb = Set(probe.scan().map { [$0.model.name, $0.devicePath, $0.accessible ? "accessible" : ""] })
        return State(nodes: nodes, usb: usb)
    }

    /// One element when the nodes are first followed, then one per change of ``state()``, noticed
    /// through `PathWatch` on the nodes and the usbfs tree. Nil without inotify.
    func changes() -> AsyncStream<Void>? {
        guard let events = PathWatch.changes(paths: paths, directories: [probe.usbfs], thread: "libnfc-hotplug") else { return nil }
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let task = Task { [self] in
            var last: State?
            for await _ in events {
                let now = state()
                if now != last { continuation.yield() }
                last = now
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
