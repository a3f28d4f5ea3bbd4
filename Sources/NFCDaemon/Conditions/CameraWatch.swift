import Glibc
import Logging
import POSIXEvents
import ServiceLifecycle
import FoundationEssentials
import SystemPackage

/// Whether a camera is in use: some process has a V4L2 capture device (`/dev/video*`) open.
///
/// Event-driven: inotify watches each matching node for opens and closes, and the nodes'
/// directory only for nodes coming and going (so opens of `/dev/null` and the like never wake
/// the daemon). Each event is confirmed by looking through `/proc/*/fd` for a descriptor
/// pointing at a matching node, since a close does not say whether others still hold it.
/// Processes whose descriptors this user may not read (other users') are not seen. The pattern
/// is configurable so tests can point it at fixture files.
///
/// The inotify descriptor is one more descriptor in the daemon's ``PollLoop``, which owns it
/// (no dispatch source: none may outlive its descriptor). A change is confirmed on the loop's
/// thread; `/proc` is small enough for that, and camera opens are rare.
final class CameraWatch: ConditionWatch {
    /// The device nodes, as a glob: the directory part is watched, the name part matched.
    let pattern: String
    let source = ConditionSource.camera
    let logger: Logger
    private let loop: PollLoop
    private let changed: @Sendable (Bool?) -> Void

    /// `changed` is told, once ``watch()`` runs, the state then and (on the loop's thread) each new one.
    init(pattern: String, loop: PollLoop, logger: Logger, changed: @escaping @Sendable (Bool?) -> Void) {
        self.pattern = pattern
        self.loop = loop
        self.logger = logger
        self.changed = changed
    }

    /// Watches on the loop until graceful shutdown or cancellation, then gives the inotify
    /// descriptor back to the loop (which closes it). Throws at once when inotify cannot watch
    /// the directory (it does not exist): the condition is then unknown.
    func watch() async throws(SourceUnavailable) {
        let pattern = pattern, changed = changed
        let directory = FilePath(pattern).removingLastComponent().string
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        // Cannot tell (nil) before giving up: the daemon waits for this source's first word.
        guard descriptor >= 0 else { changed(nil); throw SourceUnavailable(pattern) }
        let inotify = FileDescriptor(rawValue: descriptor)
        guard inotify_add_watch(descriptor, directory, UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO)) >= 0 else {
            try? inotify.close()
            changed(nil)
            throw SourceUnavailable(pattern)
        }
        Self.watchNodes(pattern, inotify: descriptor)
        let inUse = LockedValue(Self.anyProcessHolds(pattern))
        changed(inUse.withLock { $0 })
        let watch = loop.add(inotify, events: .readable) { _ in
            var buffer = [UInt8](repeating: 0, count: 4096)
            var relevant = false
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count <= 0 { break }
                relevant = relevant || Self.namesMatch(buffer[0..<count], pattern: pattern)
            }
            guard relevant else { return .keepWatching }
            Self.watchNodes(pattern, inotify: descriptor)
            let now = Self.anyProcessHolds(pattern)
            let previous = inUse.withLock { state -> Bool in defer { state = now }; return state }
            if now != previous { changed(now) }
            return .keepWatching
        }
        defer { loop.remove(watch) }
        try? await gracefulShutdown()
    }

    /// Watches every node matching now for opens and closes (again for one already watched: the
    /// kernel keeps one watch per node; a deleted node's watch goes with it).
    private static func watchNodes(_ pattern: String, inotify: Int32) {
        var matches = glob_t()
        defer { globfree(&matches) }
        guard glob(pattern, 0, nil, &matches) == 0 else { return }
        for index in 0..<Int(matches.gl_pathc) {
            guard let path = matches.gl_pathv[index] else { continue }
            inotify_add_watch(inotify, path, UInt32(IN_OPEN | IN_CLOSE_WRITE | IN_CLOSE_NOWRITE))
        }
    }

    /// Whether any event in `events` (struct inotify_event records) names a matching node.
    private static func namesMatch(_ events: ArraySlice<UInt8>, pattern: String) -> Bool {
        let namePattern = FilePath(pattern).lastComponent?.string ?? ""
        return InotifyEvent.parse(events).contains { $0.name.isEmpty || fnmatch(namePattern, $0.name, 0) == 0 }
    }

    /// Whether some process (that this user may look at) has a matching node open.
    static func anyProcessHolds(_ pattern: String) -> Bool {
        let files = FileManager.default
        guard let processes = try? files.contentsOfDirectory(atPath: "/proc") else { return false }
        for pid in processes where pid.allSatisfy(\.isNumber) {
            guard let descriptors = try? files.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { continue }
            for descriptor in descriptors {
                if let target = try? files.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)"),
                   fnmatch(pattern, target, 0) == 0 {
                    return true
                }
            }
        }
        return false
    }
}
