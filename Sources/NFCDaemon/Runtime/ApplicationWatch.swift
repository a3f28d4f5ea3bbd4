import DesktopEntries
import Glibc
import NFCDispatch
import POSIXEvents
import SystemPackage

/// Follows the application directories ($XDG_DATA_HOME/applications, then each of
/// $XDG_DATA_DIRS/applications) with inotify, so an app installed, changed or removed counts for
/// the next object without a restart. Each change reads the directories again
/// (``ApplicationDirectoryReader``, bounded) and hands the result, merged by the pure
/// ``ApplicationIndex`` and ``InstalledApps``, to `changed`; the core decides what it means.
///
/// The inotify descriptor is one more descriptor of the daemon's ``PollLoop`` (which owns and
/// closes it); reading happens on the loop's thread: a few hundred small files, and only when
/// something changed. Directories that do not exist yet are noticed through their parent (the
/// data directory), and subdirectories as they appear.
final class ApplicationWatch: Sendable {
    private let reader: ApplicationDirectoryReader
    private let searchPath: String
    private let loop: PollLoop
    /// The mimeapps.list files, most important first (``MimeAppsList/searchPath(environment:)``).
    private let mimeApps: [(path: String, desktopSpecific: Bool)]
    private let changed: @Sendable (InstalledApps, PersonalDefaults) -> Void
    private let state = LockedValue<(watch: PollWatch?, last: InstalledApps?, defaults: PersonalDefaults?, watched: Set<String>)>(
        (nil, nil, nil, []))

    init(directories: ApplicationDirectories, mimeApps: [(path: String, desktopSpecific: Bool)] = [], searchPath: String, loop: PollLoop,
         changed: @escaping @Sendable (InstalledApps, PersonalDefaults) -> Void) {
        reader = ApplicationDirectoryReader(directories: directories)
        self.mimeApps = mimeApps
        self.searchPath = searchPath
        self.loop = loop
        self.changed = changed
    }

    /// Reads the directories once, reports, and watches them; false when inotify is unavailable
    /// (the first reading is still reported: installed apps count, only changes go unnoticed).
    @discardableResult
    func start() -> Bool {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        rescan(inotify: descriptor >= 0 ? descriptor : nil)
        guard descriptor >= 0 else { return false }
        let watch = loop.add(FileDescriptor(rawValue: descriptor), events: .readable) { [self] _ in
            var buffer = [UInt8](repeating: 0, count: 8192)
            var any = false
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count <= 0 { break }
                any = true
            }
            if any { rescan(inotify: descriptor) }
            return .keepWatching
        }
        state.withLock { $0.watch = watch }
        return true
    }

    /// Stops watching (the loop closes the descriptor).
    func stop() {
        if let watch = state.withLock({ state -> PollWatch? in defer { state.watch = nil }; return state.watch }) { loop.remove(watch) }
    }

    private func rescan(inotify: Int32?) {
        var (found, visited) = reader.read()
        if let inotify {
            let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_ATTRIB)
            // A directory read before its watch was added may have gained a file in between (made,
            // then filled at once): whenever a directory is watched for the first time, the
            // directories are read again, now that nothing in them goes unnoticed (a few rounds
            // at most: each adds a level that just appeared).
            for _ in 0..<4 {
                let new = state.withLock { state in
                    defer { state.watched.formUnion(visited) }
                    return Set(visited).subtracting(state.watched)
                }
                for directory in visited { inotify_add_watch(inotify, directory, mask) }
                guard !new.isEmpty else { break }
                (found, visited) = reader.read()
            }
            // A directory not made yet appears in its parent.
            for path in reader.directories.paths where !visited.contains(path) {
                let parent = String(path.dropLast("/applications".count))
                if !parent.isEmpty { inotify_add_watch(inotify, parent, UInt32(IN_CREATE | IN_MOVED_TO)) }
            }
            // The mimeapps.list directories ($XDG_CONFIG_HOME, …): a settings app replaces the
            // file (a move); a directory not made yet is noticed in its parent.
            for directory in Set(mimeApps.map { Self.parent(of: $0.path) }) where inotify_add_watch(inotify, directory, mask) < 0 {
                inotify_add_watch(inotify, Self.parent(of: directory), UInt32(IN_CREATE | IN_MOVED_TO))
            }
        }
        let mentioning = Set(found.filter { (try? $0.contents.get()).map(InstalledApps.mentionsKey) ?? false }.map(\.path))
        let searchPath = searchPath
        let index = ApplicationIndex(found: found) { ApplicationDirectoryReader.executable($0, searchPath: searchPath) != nil }
        let apps = InstalledApps(index: index, mentionsKey: mentioning.contains)
        let defaults = PersonalDefaults(files: mimeApps.map { file in
            (file.path, file.desktopSpecific, access(file.path, F_OK) == 0 ? ApplicationDirectoryReader.contents(of: file.path) : nil)
        }, index: index)
        let isNew = state.withLock { state -> Bool in
            defer { (state.last, state.defaults) = (apps, defaults) }
            return state.last != apps || state.defaults != defaults
        }
        if isNew { changed(apps, defaults) }
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
