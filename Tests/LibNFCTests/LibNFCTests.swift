import Foundation
import LibNFC
import Testing
import TestSupport

@Suite struct LibNFCTests {
    /// The C interop module links against the system libnfc and calls into it: the version it
    /// reports is the one pkg-config found at build time.
    @Test func reportsTheLinkedLibraryVersion() throws {
        let pkgConfig = try BoundedProcess.run("/usr/bin/env", ["pkg-config", "--modversion", "libnfc"], timeout: 10)
        let expected = pkgConfig.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!expected.isEmpty)
        #expect(LibNFC.version.hasPrefix(expected))
    }
}
