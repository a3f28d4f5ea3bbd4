import Foundation
import Glibc
import POSIXEvents
import Synchronization
import Testing

/// PathWatch follows paths that do not exist yet (through the nearest ancestor), whole
/// directories one level deep, and stays silent for other entries.
@Suite struct PathWatchTests {
    /// Counts `changed` calls.
    private final class Count: Sendable {
        let value = Atomic(0)
        func add() { value.add(1, ordering: .relaxed) }
        var now: Int { value.load(ordering: .relaxed) }
        /// Whether the count passes `old` within about two seconds.
        func grows(from old: Int) -> Bool {
            for _ in 0..<400 where now <= old { usleep(5_000) }
            return now > old
        }
    }

    private static func directory() throws -> String {
        let path = NSTemporaryDirectory() + "pathwatch-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aPathIsFollowedThroughMissingDirectoriesAsTheyAppear() throws {
        let root = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let loop = try PollLoop()
        defer { loop.cancel() }
        let count = Count()
        let watch = try #require(PathWatch(paths: ["\(root)/a/b/node"], loop: loop, changed: count.add))
        defer { watch.stop() }
        loop.start(name: "pathwatch-test")
        var seen = count.now
        try FileManager.default.createDirectory(atPath: "\(root)/a", withIntermediateDirectories: false)
        #expect(count.grows(from: seen), "the first missing level")
        seen = count.now
        try FileManager.default.createDirectory(atPath: "\(root)/a/b", withIntermediateDirectories: false)
        #expect(count.grows(from: seen), "the next one, followed once the first appeared")
        seen = count.now
        try FileManager.default.createSymbolicLink(atPath: "\(root)/a/b/node", withDestinationPath: "/dev/null")
        #expect(count.grows(from: seen), "the node itself")
        seen = count.now
        try FileManager.default.removeItem(atPath: "\(root)/a/b/node")
        #expect(count.grows(from: seen), "the node gone")
        // Other entries of a watched directory say nothing (bounded: 0.3 s shows no call).
        seen = count.now
        FileManager.default.createFile(atPath: "\(root)/a/b/other", contents: nil)
        FileManager.default.createFile(atPath: "\(root)/unrelated", contents: nil)
        usleep(300_000)
        #expect(count.now == seen)
        #expect(loop.turns < 20, "no polling: one turn per batch of events (\(loop.turns))")
    }

    @Test func aDirectoryIsFollowedWholeWithItsSubdirectories() throws {
        let root = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: "\(root)/usb/001", withIntermediateDirectories: true)
        let loop = try PollLoop()
        defer { loop.cancel() }
        let count = Count()
        let watch = try #require(PathWatch(paths: [], directories: ["\(root)/usb"], loop: loop, changed: count.add))
        defer { watch.stop() }
        loop.start(name: "pathwatch-test")
        var seen = count.now
        FileManager.default.createFile(atPath: "\(root)/usb/001/004", contents: nil)
        #expect(count.grows(from: seen), "a node in a subdirectory")
        seen = count.now
        chmod("\(root)/usb/001/004", 0o666)
        #expect(count.grows(from: seen), "its permissions changed (udev)")
        seen = count.now
        try FileManager.default.createDirectory(atPath: "\(root)/usb/002", withIntermediateDirectories: false)
        #expect(count.grows(from: seen), "a new bus")
        seen = count.now
        FileManager.default.createFile(atPath: "\(root)/usb/002/001", contents: nil)
        #expect(count.grows(from: seen), "a node on the new bus, followed once it appeared")
    }

    @Test func theStreamStartsWithOneElementAndEndsItsThread() async throws {
        let root = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        func threads() -> Int {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return tasks.filter { (try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8)) == "pathwatch-end\n" }.count
        }
        do {
            let changes = try #require(PathWatch.changes(paths: ["\(root)/node"], thread: "pathwatch-end"))
            var iterator = changes.makeAsyncIterator()
            #expect(await iterator.next() != nil, "the first element: the paths are followed")
            FileManager.default.createFile(atPath: "\(root)/node", contents: nil)
            #expect(await iterator.next() != nil, "the node appearing")
            #expect(threads() == 1)
        }
        // The stream dropped: its loop's thread returns.
        for _ in 0..<400 where threads() > 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(threads() == 0)
    }

    @Test func recordsAreParsedAndATruncatedOneDropped() {
        func record(_ wd: Int32, _ mask: UInt32, _ name: String) -> [UInt8] {
            var bytes = withUnsafeBytes(of: wd) { Array($0) } + withUnsafeBytes(of: mask) { Array($0) } + [0, 0, 0, 0]
            let padded = Array(name.utf8) + [UInt8](repeating: 0, count: 16 - name.utf8.count % 16)
            bytes += withUnsafeBytes(of: UInt32(name.isEmpty ? 0 : padded.count)) { Array($0) }
            return bytes + (name.isEmpty ? [] : padded)
        }
        let bytes = record(3, UInt32(IN_CREATE), "ttyUSB0") + record(4, UInt32(IN_DELETE_SELF), "") + record(5, 1, "cut")
        let whole = [InotifyEvent(watch: 3, mask: UInt32(IN_CREATE), name: "ttyUSB0"),
                     InotifyEvent(watch: 4, mask: UInt32(IN_DELETE_SELF), name: ""),
                     InotifyEvent(watch: 5, mask: 1, name: "cut")]
        #expect(InotifyEvent.parse(bytes[...]) == whole)
        #expect(InotifyEvent.parse(bytes[...].dropLast(20)) == Array(whole.prefix(2)), "a record cut in its header")
    }
}
