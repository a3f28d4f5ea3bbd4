import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import NFCDaemon
import Testing
import TestSupport

/// Docs/dbus/*.xml is the API's one source: apps generate bindings from it and the daemon serves it
/// (embedded at build time), so each file must be XML that an app's D-Bus library and gdbus-codegen
/// accept, and what the daemon embeds must be the file as it is now. (The e2e test introspects every
/// kind of object live, over the bus, with dbus-python.)
@Suite struct IntrospectionTests {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Docs/dbus").standardized
    static let files = ((try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? [])
        .filter { $0.hasSuffix(".xml") }.sorted()

    /// Guards the tests below, which take their arguments from the folder, against an empty one.
    @Test func everyInterfaceHasItsFile() {
        #expect(Self.files == ["org.nfcscan.Handler1.xml", "org.nfcscan.Reader1.xml",
                               "org.nfcscan.ScanSession1.xml", "org.nfcscan.Scanner1.xml", "org.nfcscan.WriteSession1.xml"])
    }

    @Test(arguments: files)
    func wellFormed(file: String) throws {
        let outline = try InterfaceOutline(Data(contentsOf: Self.docs.appendingPathComponent(file)))
        #expect(outline.problem == nil, "Docs/dbus/\(file) is not well-formed XML: \(outline.problem ?? "")")
        #expect(outline.root == "node")
        let interface = String(file.dropLast(".xml".count))
        #expect(!(outline.members[interface] ?? []).isEmpty, "Docs/dbus/\(file) declares no members of \(interface)")
    }

    /// What the daemon answers Introspect with, by the file it must be.
    static let served = ["org.nfcscan.Scanner1.xml": Introspection.scanner,
                         "org.nfcscan.Reader1.xml": Introspection.reader,
                         "org.nfcscan.ScanSession1.xml": Introspection.session,
                         "org.nfcscan.WriteSession1.xml": Introspection.writeSession]

    @Test(arguments: served.keys.sorted())
    func servedIsDocumented(file: String) throws {
        let documented = try Data(contentsOf: Self.docs.appendingPathComponent(file))
        #expect(Data((Self.served[file] ?? "").utf8) == documented,
                "the daemon serves other bytes than Docs/dbus/\(file): rebuild NFCDaemon")
    }

    /// What an app developer runs (Docs/dbus-api.md): it must accept the file, and the bindings it
    /// writes must name every method, signal and property the file declares.
    @Test(arguments: files)
    func gdbusCodegenAccepts(file: String) throws {
        let source = Self.docs.appendingPathComponent(file)
        let interface = String(file.dropLast(".xml".count))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("nfcscan-codegen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        let codegen = try BoundedProcess.run("/usr/bin/env", ["gdbus-codegen", "--generate-c-code", interface, "--output-directory", output.path, source.path],
                                             output: .together, timeout: 60)
        try #require(codegen.status == 0 && !codegen.timedOut,
                     "gdbus-codegen refuses Docs/dbus/\(file) (exit \(codegen.status); 127: install libglib2.0-dev-bin, scripts/install-deps.sh): \(codegen.output)")
        let code = try String(contentsOf: output.appendingPathComponent(interface + ".c"), encoding: .utf8)
        let members = try InterfaceOutline(Data(contentsOf: source)).members[interface] ?? []
        #expect(!members.isEmpty)
        for member in members {
            #expect(code.contains("\"\(member)\""), "the bindings of \(interface) lack \(member)")
        }
    }
}

/// A D-Bus introspection document as XMLParser reads it: the root element and the names of each
/// interface's methods, signals and properties, or why the document is not XML.
private final class InterfaceOutline: NSObject, XMLParserDelegate {
    private(set) var root: String?
    private(set) var members: [String: [String]] = [:]
    private(set) var problem: String?
    private var interface: String?

    init(_ data: Data) {
        super.init()
        let parser = XMLParser(data: data)
        parser.delegate = self
        if !parser.parse(), problem == nil { problem = "\(parser.parserError.map { "\($0)" } ?? "unknown error")" }
    }

    /// Where the parser stands when it finds the fault (after `parse()` it reports the end).
    func parser(_ parser: XMLParser, parseErrorOccurred error: any Error) {
        if problem == nil { problem = "line \(parser.lineNumber), column \(parser.columnNumber): \(error)" }
    }

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        if root == nil { root = element }
        switch element {
        case "interface": interface = attributes["name"]
        case "method", "signal", "property":
            if let interface, let name = attributes["name"] { members[interface, default: []].append(name) }
        default: break
        }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        if element == "interface" { interface = nil }
    }
}
