import DesktopEntries
import NFCDispatch
import Testing

/// Desktop entries as apps write them, and as a hostile or careless file might.
@Suite struct DesktopEntryTests {
    static let posters = """
        [Desktop Entry]
        Type=Application
        Name=Posters
        Name[de]=Plakate
        Icon=org.example.Posters
        Exec=posters --scan %f
        X-NFCScan-Filters=uri-scheme=https,uri-host=example.com,uri-path-prefix=/posters;media-type=text/vcard;

        [Desktop Action New]
        Name=New
        Exec=posters --new
        """

    func entry(_ text: String, id: String = "org.example.Posters.desktop") throws(DesktopEntryProblem) -> DesktopEntry {
        try DesktopEntry(id: DesktopFileID(relativePath: id)!, path: "/apps/\(id)", file: DesktopEntryFile(bytes: Array(text.utf8)))
    }

    func problem(_ text: String) -> DesktopEntryProblem? {
        do { _ = try entry(text); return nil } catch { return error }
    }

    func declarationProblem(_ text: String) -> DesktopEntryProblem? {
        do { _ = try AppDeclaration(try entry(text)); return nil } catch { return error }
    }

    @Test func anAppDeclaresFiltersWithRegisterHandlersKeys() throws {
        let declaration = try #require(try AppDeclaration(try entry(Self.posters)))
        #expect(declaration.appName == "Posters")
        #expect(declaration.request.appIcon == "org.example.Posters")
        #expect(declaration.request.desktopEntry == "org.example.Posters")
        #expect(declaration.filters == [try .uri(scheme: "https", host: "example.com", pathPrefix: "/posters"), try .mediaType("text/vcard")])
        #expect(declaration.filters.map(\.specificity.level) == [.uriPathPrefix, .exactType])
        guard case .exec(let exec) = declaration.launch else { Issue.record("not an Exec launch"); return }
        #expect(exec.expanded(.init(files: ["/run/user/1/x.json"], name: "Posters")) == ["posters", "--scan", "/run/user/1/x.json"])
    }

    @Test func anEntryWithoutTheKeyDeclaresNothing() throws {
        #expect(try AppDeclaration(try entry("[Desktop Entry]\nType=Application\nName=Editor\nExec=editor %F\n")) == nil)
    }

    @Test func dbusActivatableAppsAreCalledAtThePathMadeFromTheirID() throws {
        let text = "[Desktop Entry]\nType=Application\nName=Posters\nDBusActivatable=true\nX-NFCScan-Filters=media-type=text/vcard\n"
        let declaration = try #require(try AppDeclaration(try entry(text, id: "org.example.Poster-Wall.desktop")))
        #expect(declaration.launch == .dbusActivation(busName: "org.example.Poster-Wall", objectPath: "/org/example/Poster_Wall"))
        // An ID that is no bus name cannot be activated.
        let bad = try entry(text, id: "posters.desktop")
        #expect(throws: DesktopEntryProblem.self) { try AppDeclaration(bad) }
    }

    @Test func fileIDsComeFromThePathBelowApplications() {
        #expect(DesktopFileID(relativePath: "kde/konsole.desktop")?.value == "kde-konsole.desktop")
        #expect(DesktopFileID(relativePath: "org.example.App.desktop")?.busName == "org.example.App")
        #expect(DesktopFileID(relativePath: "konsole.desktop")?.busName == nil)
        #expect(DesktopFileID(relativePath: "org.1example.App.desktop")?.busName == nil)
        #expect(DesktopFileID(relativePath: ".desktop") == nil)
        #expect(DesktopFileID(relativePath: "a/../b.desktop") == nil)
        #expect(DesktopFileID(relativePath: "readme.txt") == nil)
    }

    @Test func invalidFiltersAreRefusedWithTheirLineAndRegisterHandlersMessage() {
        let base = "[Desktop Entry]\nType=Application\nName=P\nExec=p %u\n"
        let unknown = declarationProblem(base + "X-NFCScan-Filters=uri-scheme=https,uri-hots=example.com\n")
        #expect(unknown?.line == 5)
        #expect(unknown?.detail.contains("unknown filter key \"uri-hots\"") == true)
        #expect(declarationProblem(base + "X-NFCScan-Filters=media-type=*/*\n")?.detail.contains("*/*") == true)
        #expect(declarationProblem(base + "X-NFCScan-Filters=uri-host=example.com\n")?.detail.contains("needs uri-scheme") == true)
        #expect(declarationProblem(base + "X-NFCScan-Filters=media-type\n")?.detail.contains("not key=value") == true)
        #expect(declarationProblem(base + "X-NFCScan-Filters=;;\n")?.detail.contains("no filter") == true)
        let many = (0..<65).map { _ in "uri-scheme=https" }.joined(separator: ";")
        #expect(declarationProblem(base + "X-NFCScan-Filters=\(many)\n")?.detail.contains("at most 64") == true)
        // The name is RegisterHandler's app-name: no control or bidirectional characters.
        #expect(declarationProblem("[Desktop Entry]\nType=Application\nName=P\u{202E}x\nExec=p\nX-NFCScan-Filters=uri-scheme=x\n") != nil)
    }

    @Test func escapedSeparatorsStayInsideAValue() throws {
        let fields = try AppDeclaration.filterFields("uri-scheme=https,uri-host=example.com,uri-path-prefix=/a\\,b\\;c;external-type=example.com:t")
        #expect(fields == [["uri-scheme": "https", "uri-host": "example.com", "uri-path-prefix": "/a,b;c"], ["external-type": "example.com:t"]])
    }

    @Test func malformedFilesNameTheLine() {
        #expect(problem("Type=Application\n")?.line == 1)
        #expect(problem("[Desktop Entry]\nType=Application\nName=A\nName=B\nExec=a\n")?.line == 4)
        #expect(problem("[Desktop Entry]\nType=Application\nName=A\nExec=a\n[Desktop Entry]\n")?.line == 5)
        #expect(problem("[Desktop Entry]\nType=Application\nName=A\nExec=a\nthis line\n")?.line == 5)
        #expect(problem("[Desktop Entry]\nType=Application\nName=A\nExe c=a\n")?.line == 4)
        #expect(problem("[Desktop Entry]\nType=Application\nName=A\nExec=a\nKey[=x\n")?.line == 5)
        #expect(problem("[Desktop Entry]\nType=Link\nName=A\nURL=https://example.com\n")?.line == 2)
        #expect(problem("[Desktop Entry]\nType=Application\nExec=a\n") != nil)
        #expect(problem("[Desktop Entry]\nType=Application\nName=A\n")?.detail.contains("cannot be started") == true)
        #expect(problem("[Desktop Entry]\nType=Application\nName=A\nExec=a\nHidden=yes\n")?.line == 5)
        #expect(problem("[Other]\nA=b\n[Desktop Entry]\nType=Application\nName=A\nExec=a\n")?.line == 3)
        #expect(problem("[Desktop Entry]\nType=Application\nName=A\u{1B}[31m\nExec=a\n")?.line == 3)
    }

    @Test func bytesThatAreNotUTF8AreRefused() {
        var bytes = Array("[Desktop Entry]\nType=Application\nName=".utf8)
        bytes += [0xC3, 0x28, 0x0A]
        bytes += Array("Exec=a\n".utf8)
        #expect(throws: DesktopEntryProblem(line: 3, "the line is not UTF-8")) { try DesktopEntryFile(bytes: bytes) }
    }

    @Test func hugeFilesAreRefusedBeforeReading() {
        let bytes = [UInt8](repeating: UInt8(ascii: "#"), count: DesktopEntryFile.maximumBytes + 1)
        #expect(throws: DesktopEntryProblem.self) { try DesktopEntryFile(bytes: bytes) }
        let keys = "[Desktop Entry]\n" + (0...DesktopEntryFile.maximumEntries).map { "K\($0)=v" }.joined(separator: "\n")
        #expect(throws: DesktopEntryProblem.self) { try DesktopEntryFile(bytes: Array(keys.utf8)) }
    }

    @Test func localisedKeysAndOtherGroupsAreIgnored() throws {
        let posters = try entry(Self.posters)
        #expect(posters.name == "Posters")
        #expect(posters.exec?.program == "posters")
    }

    @Test func stringEscapesApply() throws {
        #expect(DesktopEntryValue.string("a\\sb\\\\c\\n") == "a b\\c\n")
        #expect(DesktopEntryValue.string("bad\\q") == nil)
        #expect(DesktopEntryValue.string("end\\") == nil)
        #expect(DesktopEntryValue.list("a;b\\;c;;") == ["a", "b;c"])
    }

    // MARK: Exec

    func exec(_ line: String) throws(ExecProblem) -> ExecCommandLine { try ExecCommandLine(line) }

    func refusal(_ line: String) -> ExecProblem? {
        do { _ = try exec(line); return nil } catch { return error }
    }

    @Test func fieldCodesExpandToWholeArgumentsWithoutAShell() throws {
        let values = ExecCommandLine.Values(files: ["/run/a b.json"], urls: ["https://example.com/?q=$(reboot)"], icon: "poster",
                                            name: "Posters; rm -rf ~", location: "/apps/p.desktop")
        #expect(try exec("p %u").expanded(values) == ["p", "https://example.com/?q=$(reboot)"])
        #expect(try exec("p --file=%f").expanded(values) == ["p", "--file=/run/a b.json"])
        #expect(try exec("p %F").expanded(values) == ["p", "/run/a b.json"])
        #expect(try exec("p %i %c %k").expanded(values) == ["p", "--icon", "poster", "Posters; rm -rf ~", "/apps/p.desktop"])
        #expect(try exec("p 100%% %d %D %n %N %v %m").expanded(values) == ["p", "100%"])
        #expect(try exec("\"/opt/My App/p\" \"a \\\"b\\\"\" %U").expanded(values)
                == ["/opt/My App/p", "a \"b\"", "https://example.com/?q=$(reboot)"])
        // %u without a link: the file, as the spec allows for local files.
        #expect(try exec("p %u").expanded(.init(files: ["/f.json"], name: "P")) == ["p", "/f.json"])
        // No value at all: the argument is left out.
        #expect(try exec("p %f x").expanded(.init(name: "P")) == ["p", "x"])
        #expect(try exec("p %i").expanded(.init(name: "P")) == ["p"])
        #expect(try exec("p \"\"").expanded(.init(name: "P")) == ["p", ""])
    }

    @Test func hostileExecLinesAreRefused() {
        #expect(refusal("sh -c \"echo %u\"") == .fieldCodeInQuotes)
        #expect(refusal("p \"%f\"") == .fieldCodeInQuotes)
        #expect(refusal("sh -c %u") == .valueAsCode("-c"))
        #expect(refusal("python3 -c %f") == .valueAsCode("-c"))
        #expect(refusal("xterm -e %u") == .valueAsCode("-e"))
        #expect(refusal("sh -c $(curl evil)") == .reservedCharacter("$"))
        #expect(refusal("p ; rm -rf ~") == .reservedCharacter(";"))
        #expect(refusal("p `id`") == .reservedCharacter("`"))
        #expect(refusal("p | tee") == .reservedCharacter("|"))
        #expect(refusal("p \"unclosed") == .unclosedQuote)
        #expect(refusal("p \"\\q\"") == .badEscape)
        #expect(refusal("p %x") == .unknownFieldCode("x"))
        #expect(refusal("p %") == .unknownFieldCode(""))
        #expect(refusal("p %f %u") == .severalValueCodes)
        #expect(refusal("p --files=%F") == .notStandalone("F"))
        #expect(refusal("p x%i") == .notStandalone("i"))
        #expect(refusal("%f") == .fieldCodeInProgram)
        #expect(refusal("") == .empty)
        #expect(refusal("   ") == .empty)
        #expect(refusal(String(repeating: "a ", count: 300)) == .tooManyArguments)
        // A quoted shell script with no field code is the app's own business: allowed.
        #expect(refusal("sh -c \"exec posters \\\"\\$0\\\"\"") == nil)
    }

    @Test func aDeclarationWithAHostileExecIsRefusedWithItsLine() {
        let text = "[Desktop Entry]\nType=Application\nName=P\nExec=sh -c \"open %u\"\nX-NFCScan-Filters=uri-scheme=https\n"
        #expect(problem(text)?.line == 4)
    }

    // MARK: Directories

    @Test func directoriesFollowTheBaseDirectorySpecification() {
        #expect(ApplicationDirectories(environment: ["HOME": "/home/ann"]).paths
                == ["/home/ann/.local/share/applications", "/usr/local/share/applications", "/usr/share/applications"])
        #expect(ApplicationDirectories(environment: ["XDG_DATA_HOME": "/d/home/", "XDG_DATA_DIRS": "/d/a:relative:/d/b/:/d/a", "HOME": "/h"]).paths
                == ["/d/home/applications", "/d/a/applications", "/d/b/applications"])
    }

    func found(_ id: String, _ directory: Int, _ text: String) -> ApplicationIndex.Found {
        .init(id: DesktopFileID(relativePath: id)!, path: "/d\(directory)/\(id)", directory: directory, contents: .success(Array(text.utf8)))
    }

    @Test func theFirstDirectoryHoldingAnIDWinsAndHiddenHidesIt() {
        let app = "[Desktop Entry]\nType=Application\nName=A\nExec=a\n"
        let user = "[Desktop Entry]\nType=Application\nName=Mine\nExec=a\n"
        let hidden = "[Desktop Entry]\nHidden=true\n"
        let index = ApplicationIndex(found: [found("a.desktop", 1, app), found("a.desktop", 0, user), found("b.desktop", 1, app),
                                             found("b.desktop", 0, hidden), found("c.desktop", 0, "junk"), found("c.desktop", 1, app)])
        #expect(index.entries.map(\.id.value) == ["a.desktop", "c.desktop"])
        #expect(index.entries.map(\.name) == ["Mine", "A"])
        #expect(index.refused.map(\.description) == ["/d0/c.desktop:1: a key before the first group header"])
        let tried = ApplicationIndex(found: [found("t.desktop", 0, "[Desktop Entry]\nType=Application\nName=T\nTryExec=/nope\nExec=t\n")],
                                     isExecutable: { $0 != "/nope" })
        #expect(tried.entries.isEmpty)
        #expect(tried.refused.first?.problem.line == 4)
    }

    @Test func changesAreNamedByID() {
        let app = "[Desktop Entry]\nType=Application\nName=A\nExec=a\n"
        let before = ApplicationIndex(found: [found("a.desktop", 0, app), found("b.desktop", 0, app)])
        let after = ApplicationIndex(found: [found("b.desktop", 0, app + "NoDisplay=true\n"), found("c.desktop", 0, app)])
        let changes = after.changes(since: before)
        #expect(changes.added.map(\.value) == ["c.desktop"])
        #expect(changes.removed.map(\.value) == ["a.desktop"])
        #expect(changes.changed.map(\.value) == ["b.desktop"])
        #expect(before.changes(since: before).isEmpty)
    }
}
