import DesktopEntries
import Foundation
@testable import NFCDaemon
import NFCDispatch
import POSIXEvents
import Testing

/// The application directories followed with real inotify: what is installed, changed and removed
/// while the daemon runs reaches the core without a restart.
@Suite struct ApplicationWatchTests {
    static let entry = "[Desktop Entry]\nType=Application\nName=Posters\nDBusActivatable=true\nX-NFCScan-Filters=media-type=text/vcard\n"

    /// The next report, or nil after `seconds`: the stream is finished then (the test has failed),
    /// so a report that never comes ends the wait instead of hanging it.
    static func next(_ reports: inout AsyncStream<InstalledApps>.Iterator, finishing sink: AsyncStream<InstalledApps>.Continuation,
                     within seconds: Int = 5) async -> InstalledApps? {
        let deadline = Task {
            try? await Task.sleep(for: .seconds(seconds))
            if !Task.isCancelled { sink.finish() }
        }
        defer { deadline.cancel() }
        return await reports.next()
    }

    /// The first report that `holds`, of the next few: one change on disk may reach the watch in
    /// more than one batch of events (a file written through a temporary one and renamed, a
    /// directory made then filled), each reported, on a loaded machine more often.
    static func first(_ reports: inout AsyncStream<InstalledApps>.Iterator, finishing sink: AsyncStream<InstalledApps>.Continuation,
                      where holds: (InstalledApps) -> Bool) async -> InstalledApps? {
        var last: InstalledApps?
        for _ in 0..<4 {
            last = await next(&reports, finishing: sink)
            guard let report = last else { return nil }
            if holds(report) { return report }
        }
        return last
    }

    @Test func installedChangedAndRemovedAppsAreReported() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nfcscan-watch-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        // The person's directory does not exist yet: it is noticed when made.
        try FileManager.default.createDirectory(atPath: root + "/home", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/system/applications/vendor", withIntermediateDirectories: true)
        let loop = try PollLoop()
        loop.start(name: "watch-test")
        defer { loop.cancel() }
        let (stream, sink) = AsyncStream.makeStream(of: InstalledApps.self)
        var reports = stream.makeAsyncIterator()
        let watch = ApplicationWatch(directories: ApplicationDirectories(paths: [root + "/home/applications", root + "/system/applications"]),
                                     searchPath: "/usr/bin:/bin", loop: loop) { apps, _ in sink.yield(apps) }
        #expect(watch.start())
        defer { watch.stop() }
        #expect(await Self.next(&reports, finishing: sink)?.declarations.isEmpty == true, "the first reading is reported")

        try Self.entry.write(toFile: root + "/system/applications/vendor/org.example.Posters.desktop", atomically: true, encoding: .utf8)
        let installed = await Self.first(&reports, finishing: sink) { !$0.declarations.isEmpty }
        #expect(installed?.declarations.map(\.id.value) == ["vendor-org.example.Posters.desktop"])

        // The person's own entry of the same ID would win; a different ID adds one.
        try FileManager.default.createDirectory(atPath: root + "/home/applications", withIntermediateDirectories: true)
        try Self.entry.replacingOccurrences(of: "text/vcard", with: "text/calendar")
            .write(toFile: root + "/home/applications/org.example.Calendar.desktop", atomically: true, encoding: .utf8)
        let both = await Self.first(&reports, finishing: sink) { $0.declarations.count == 2 }
        #expect(both?.declarations.map(\.id.value) == ["org.example.Calendar.desktop", "vendor-org.example.Posters.desktop"])

        try "[Desktop Entry]\nType=Application\nName=Broken\nExec=sh -c %u\nX-NFCScan-Filters=uri-scheme=https\n"
            .write(toFile: root + "/home/applications/broken.desktop", atomically: true, encoding: .utf8)
        let refused = await Self.first(&reports, finishing: sink) { !$0.refusals.isEmpty }
        #expect(refused?.refusals == [root + "/home/applications/broken.desktop:4: Exec: a field code after -c would run the object's content as code"])

        try FileManager.default.removeItem(atPath: root + "/system/applications/vendor/org.example.Posters.desktop")
        let removed = await Self.first(&reports, finishing: sink) { $0.declarations.count == 1 }
        #expect(removed?.declarations.map(\.id.value) == ["org.example.Calendar.desktop"])
    }
}
