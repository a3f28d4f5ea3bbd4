// Fuzz target `desktop`: a desktop entry file as nfcscand reads it from the application
// directories (DesktopEntryFile, DesktopEntry), and its Exec line (ExecCommandLine); the same
// bytes as a mimeapps.list (MimeAppsList, DefaultApplications). Anyone who
// can write to ~/.local/share/applications can write these, and a package can ship a careless one.
//
// Beyond "no crash": a refusal names a line of the file (0: the file as a whole); an accepted
// Exec line has a plain program first and expands to an argument vector whose values appear
// no more often than the line has field codes; no field code follows an interpreter's code option; a
// comment line added at the end changes nothing; one added at the start moves a refusal down a line.
import DesktopEntries

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let id = DesktopFileID(relativePath: "org.example.Fuzz.desktop")!
    let outcome = read(input, id)
    let lines = input.count(where: { $0 == UInt8(ascii: "\n") }) + 1

    switch outcome {
    case .success(let entry):
        if entry.name.isEmpty, !entry.isHidden { violated("accepted an entry without a Name", input) }
        if let exec = entry.exec {
            checkExec(exec, input)
        } else if !entry.dbusActivatable && !entry.isHidden {
            violated("accepted an entry that cannot be started", input)
        }
    case .failure(let problem):
        if problem.line < 0 || problem.line > lines { violated("refusal \(problem) names no line of the file", input) }
        if problem.detail.isEmpty { violated("refusal without a detail", input) }
    }
    let appended = read(input + Array("\n# a comment\n".utf8), id)
    if (try? appended.get())?.name != (try? outcome.get())?.name { violated("a comment at the end changes the entry", input) }
    if case .failure(let problem) = outcome, problem.line > 0, input.count + 12 <= DesktopEntryFile.maximumBytes,
       case .failure(let moved) = read(Array("# a comment\n".utf8) + input, id), moved.line != problem.line + 1 {
        violated("a comment at the start moves \(problem) to \(moved)", input)
    }

    // The bytes as a mimeapps.list (the same layout, MIME types for keys): whatever it holds, the
    // default found is one of the IDs it names, and one "installed".
    if let file = try? DesktopEntryFile(bytes: input, keys: .mimeTypes) {
        let list = MimeAppsList(file: file, desktopSpecific: false)
        let named = Set(list.defaults.values.joined()).union(list.added.values.joined())
        for type in list.defaults.keys.prefix(8) {
            let found = DefaultApplications(lists: [list]).defaultApp(for: type, declaring: []) { $0.hasSuffix(".desktop") }
            if let found, !named.contains(found) || !found.hasSuffix(".desktop") { violated("default \(found) for \(type) is not one the list names", input) }
        }
    }

    // The bytes as an Exec line of their own.
    if let text = String(validating: input, as: UTF8.self), let exec = try? ExecCommandLine(text) { checkExec(exec, input) }
    return 0
}

private func read(_ bytes: [UInt8], _ id: DesktopFileID) -> Result<DesktopEntry, DesktopEntryProblem> {
    Result { () throws(DesktopEntryProblem) in try DesktopEntry(id: id, path: "/fuzz/\(id)", file: DesktopEntryFile(bytes: bytes)) }
}

private func checkExec(_ exec: ExecCommandLine, _ input: [UInt8]) {
    if exec.program.isEmpty { violated("an Exec line without a program", input) }
    let marker = "\u{1}VALUE\u{1}"
    let argv = exec.expanded(.init(files: [marker], urls: [marker], icon: marker, name: marker, location: marker))
    if argv.first != exec.program { violated("the program is not the first argument: \(argv)", input) }
    if argv.count > 2 * ExecCommandLine.maximumArguments { violated("\(argv.count) arguments", input) }
    // Each field code gives at most one value per argument it stands in (the files and links are one each here).
    let codes = exec.arguments.reduce(0) { $0 + $1.count(where: { if case .code = $0 { true } else { false } }) }
    if argv.reduce(0, { $0 + $1.split(separator: marker, omittingEmptySubsequences: false).count - 1 }) > codes {
        violated("more values than field codes in \(argv)", input)
    }
    if exec.valueCode != nil, exec.arguments.enumerated().contains(where: { index, argument in
        index > 0 && argument.contains(where: { if case .code = $0 { true } else { false } })
            && ["-c", "-e", "--command", "--eval"].contains(exec.arguments[index - 1].first.flatMap { if case .literal(let t) = $0 { t } else { nil } } ?? "")
            && exec.arguments[index - 1].count == 1 && argument != [.code(.icon)]
    }) {
        violated("a field code follows an interpreter's code option", input)
    }
}
