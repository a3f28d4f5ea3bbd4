// Fuzz target `config`: nfcscand's configuration file (DaemonSettings.parse), the bytes read as
// UTF-8 as DaemonSettings.load does. The file is the person's, not an attacker's, but a typo or
// an editor's line endings must give a clear error naming the line, never a trap or a setting
// that silently does something else.
//
// Beyond "no crash": accepted settings hold only the conditions a kiosk may ignore and read back
// the same from their canonical spelling; an accepted [broker] has a usable topic prefix and port; a refusal names the file and a line of it; and lines
// are independent: a comment line added at the end changes nothing, one added at the start moves
// a refusal down one line.
import NFCCopy
@testable import NFCDaemon
import NFCScanKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let text = String(decoding: input, as: UTF8.self)
    let path = "/fuzz/nfcscand.conf"
    let outcome = parse(text, path)

    switch outcome {
    case .success(let settings):
        if !settings.ignoredConditions.isSubset(of: BackgroundPause.systemConditions) {
            violated("ignores \(settings.ignoredConditions.map(\.rawValue)), not only system conditions", input)
        }
        let canonical = "[background]\nignore = " + settings.ignoredConditions.map(\.rawValue).sorted().joined(separator: ", ") + "\n"
        if (try? parse(canonical, path).get())?.ignoredConditions != settings.ignoredConditions {
            violated("canonical spelling \(canonical.debugDescription) reads otherwise", input)
        }
        let policy = "[authenticity]\nnot-genuine = \(settings.notGenuine.rawValue)\n"
        if (try? parse(policy, path).get())?.notGenuine != settings.notGenuine {
            violated("not-genuine \(settings.notGenuine.rawValue) reads otherwise from its canonical spelling", input)
        }
        if let broker = settings.broker, !TopicName.isValidPrefix(broker.topicPrefix) || !(1...65535).contains(broker.port) {
            violated("accepted a [broker] publishing on \(broker.topicPrefix.debugDescription) port \(broker.port)", input)
        }
    case .failure(let problem):
        if problem.path != path || !problem.description.hasPrefix(path + ":") { violated("refusal \(problem) does not name the file", input) }
        if problem.line < 1 || problem.line > text.unicodeScalars.count + 1 { violated("refusal \(problem) names no line of the file", input) }
        if problem.detail.isEmpty { violated("refusal without a detail", input) }
    }

    let appended = parse(text + "\n# a comment\n", path)
    if appended != outcome { violated("a comment line at the end turns \(outcome) into \(appended)", input) }
    let prepended = parse("# a comment\n" + text, path)
    let moved = outcome.mapError { DaemonSettings.Problem(path: $0.path, line: $0.line + 1, detail: $0.detail) }
    if prepended != moved { violated("a comment line at the start turns \(outcome) into \(prepended)", input) }
    return 0
}

private func parse(_ text: String, _ path: String) -> Result<DaemonSettings, DaemonSettings.Problem> {
    Result { () throws(DaemonSettings.Problem) in try DaemonSettings.parse(text, path: path) }
}
