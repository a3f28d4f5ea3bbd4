import Foundation
@testable import NFCDaemon
import Testing

/// The daemon answers Introspect with Docs/dbus/*.xml, byte for byte: the documented interface
/// is the served one. (The e2e test also compares two of them live, over the bus.)
@Suite struct IntrospectionTests {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Docs/dbus").standardized

    @Test(arguments: [("org.nfcscan.Scanner1.xml", Introspection.scanner),
                      ("org.nfcscan.Reader1.xml", Introspection.reader),
                      ("org.nfcscan.ScanSession1.xml", Introspection.session)])
    func servedIsDocumented(file: String, served: String) throws {
        let documented = try String(contentsOf: Self.docs.appendingPathComponent(file), encoding: .utf8)
        #expect(served == documented, "Sources/NFCDaemon/Introspection.swift differs from Docs/dbus/\(file)")
    }
}
