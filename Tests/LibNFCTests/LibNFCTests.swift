import Foundation
import LibNFC
import Testing

@Suite struct LibNFCTests {
    /// The C interop module links against the system libnfc and calls into it: the version it
    /// reports is the one pkg-config found at build time.
    @Test func reportsTheLinkedLibraryVersion() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pkg-config", "--modversion", "libnfc"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let expected = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        process.waitUntilExit()
        #expect(!expected.isEmpty)
        #expect(LibNFC.version.hasPrefix(expected))
    }
}
