#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import SystemPackage

/// Tells when some paths may have appeared, vanished or changed (their permissions, a link
/// replaced), with inotify on a ``PollLoop``: no polling, so following paths that never change
/// costs nothing.
///
/// A path is followed through the directory that holds it, or, while that directory is missing,
/// through its nearest existing ancestor (watched for the next missing level only); as levels
/// appear the watches move down. A directory followed whole (`/dev/bus/usb`) counts every
/// entry of it and of its subdirectories. Events naming other entries of a watched directory
/// (`/dev` holds many) are read and dropped without a word.
///
/// The inotify descriptor is the loop's (``PollLoop/Ownership/owned``); `changed` runs on the
/// loop's thread, so it must only hand the news on.
public final class PathWatch: Sendable {
    /// What one inotify watch (a directory) is followed for.
    private enum Interest: Sendable {
        /// These entries only.
        case names(Set<String>)
        /// Every entry (a directory followed whole, or one of its subdirectories).
        case everything
    }

    private struct State {
        var watch: PollWatch?
        var interests: [Int32: Interest] = [:]
    }

    private let descriptor: Int32
    private let paths: [String]
    private let directories: [String]
    private let loop: PollLoop
    private let changed: @Sendable () -> Void
    private let state = Mutex(State())

    private static let directoryMask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
                                              | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// Starts following `paths` (each by its name in its directory) and `directories` (every
    /// entry, one level of subdirectories) on `loop`; nil when inotify is unavailable.
    public init?(paths: [String], directories: [String] = [], loop: PollLoop, changed: @escaping @Sendable () -> Void) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        self.paths = paths
        self.directories = directories
        self.loop = loop
        self.changed = changed
        arm()
        let watch = loop.add(FileDescriptor(rawValue: descriptor), events: .readable) { [self] events in
            guard !events.contains(.error), !events.contains(.hangUp) else { return .stopWatching }
            if readEvents() {
                arm()
                changed()
            }
            return .keepWatching
        }
        state.withLock { $0.watch = watch }
    }

    /// Stops following (the loop closes the descriptor).
    public func stop() {
        if let watch = state.withLock({ state -> PollWatch? in defer { state.watch = nil }; return state.watch }) { loop.remove(watch) }
    }

    /// Watches, for each followed path, the deepest directory of it that exists now, and drops
    /// the watches no path needs any more (an ancestor, once the path's directory appeared).
    private func arm() {
        // Under the lock throughout: the first arming (on the caller's thread) and one after an
        // event (on the loop's) must not each drop the other's watches as stale.
        state.withLock { state in arm(&state) }
    }

    private func arm(_ state: inout State) {
        var interests: [Int32: Interest] = [:]
        func follow(_ directory: String, _ interest: Interest) {
            let wd = inotify_add_watch(descriptor, directory, Self.directoryMask)
            guard wd >= 0 else { return }
            switch (interests[wd], interest) {
            case (.everything, _), (_, .everything): interests[wd] = .everything
            case (.names(let old), .names(let new)): interests[wd] = .names(old.union(new))
            case (nil, _): interests[wd] = interest
            }
        }
        for path in paths {
            var (directory, name) = Self.split(path)
            // Up to the nearest level that exists, following the name of the next one down.
            while !Self.isDirectory(directory), directory != "/" { (directory, name) = Self.split(directory) }
            follow(directory, .names([name]))
        }
        for directory in directories {
            guard Self.isDirectory(directory) else {
                var (parent, name) = Self.split(directory)
                while !Self.isDirectory(parent), parent != "/" { (parent, name) = Self.split(parent) }
                follow(parent, .names([name]))
                continue
            }
            follow(directory, .everything)
            for entry in Self.subdirectories(of: directory) { follow(entry, .everything) }
        }
        for wd in state.interests.keys where interests[wd] == nil { inotify_rm_watch(descriptor, wd) }
        state.interests = interests
    }

    /// Reads every pending event; whether one concerns a followed path.
    private func readEvents() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var relevant = false
        let interests = state.withLock { $0.interests }
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            for event in InotifyEvent.parse(buffer[0..<count]) {
                // Events were lost: anything may have changed.
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { relevant = true }
                switch interests[event.watch] {
                // A watched directory itself went (its watch with it): follow its ancestor.
                case _ where event.mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0:
                    relevant = relevant || interests[event.watch] != nil
                case .everything: relevant = true
                case .names(let names): relevant = relevant || names.contains(event.name)
                // A watch dropped as stale (its IN_IGNORED), or events queued before it was.
                case nil: continue
                }
            }
        }
        return relevant
    }

    static func split(_ path: String) -> (directory: String, name: String) {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", trimmed) }
        let directory = slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
        return (directory, String(trimmed[trimmed.index(after: slash)...]))
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private static func subdirectories(of directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var found: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != "..", found.count < 256 else { continue }
            let path = directory + "/" + name
            if isDirectory(path) { found.append(path) }
        }
        return found
    }
}

extension PathWatch {
    /// The changes as a stream, starting with one element once the paths are followed (what
    /// appeared before is noticed then), coalesced (the latest only); the watch sleeps on a
    /// ``PollLoop`` thread of its own, named `thread`, which ends with the stream. Nil when
    /// inotify is unavailable.
    public static func changes(paths: [String], directories: [String] = [], thread: String) -> AsyncStream<Void>? {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        guard let loop = try? PollLoop(),
              let watch = PathWatch(paths: paths, directories: directories, loop: loop, changed: { continuation.yield() }) else {
            return nil
        }
        loop.start(name: thread)
        continuation.yield()
        continuation.onTermination = { _ in
            watch.stop()
            loop.cancel()
        }
        return stream
    }
}

/// One record of what an inotify descriptor reads (`struct inotify_event`).
public struct InotifyEvent: Sendable, Equatable {
    /// The watch descriptor it concerns.
    public var watch: Int32
    public var mask: UInt32
    /// The entry's name in the watched directory ("" for the directory itself).
    public var name: String

    public init(watch: Int32, mask: UInt32, name: String) {
        (self.watch, self.mask, self.name) = (watch, mask, name)
    }

    /// The records in what one `read` returned; a truncated last record is dropped.
    public static func parse(_ bytes: ArraySlice<UInt8>) -> [InotifyEvent] {
        let header = MemoryLayout<inotify_event>.size
        var events: [InotifyEvent] = [], offset = bytes.startIndex
        while offset + header <= bytes.endIndex {
            func word(_ at: Int) -> UInt32 { bytes[offset + at..<offset + at + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } }
            let length = Int(word(12))
            let end = min(bytes.endIndex, offset + header + length)
            let name = String(decoding: bytes[(offset + header)..<end].prefix { $0 != 0 }, as: UTF8.self)
            events.append(InotifyEvent(watch: Int32(bitPattern: word(0)), mask: word(4), name: name))
            offset += header + length
        }
        return events
    }
}
