// Fuzz target `flatpakinfo`: a sandbox's /.flatpak-info as nfcscand reads it through
// /proc/PID/root (FlatpakInfo, IdentityResolver). Flatpak writes it, but a process in a mount
// namespace of its own can put any file there, so its bytes are untrusted.
//
// Beyond "no crash": an accepted file names an application ID by ApplicationID's rule; a refusal
// names a line of the file (0: the file as a whole) and says why; a comment line added at the end
// changes nothing; the resolver gives a Flatpak app keyed by that ID for an accepted file, and a
// caller of unknown sandbox with no app ID and no key for a refused one.
import AppIdentity

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let outcome = read(input)
    let lines = input.count(where: { $0 == UInt8(ascii: "\n") }) + 1
    switch outcome {
    case .success(let info):
        if !ApplicationID.isValid(info.appID) { violated("app ID \(info.appID) breaks the rule", input) }
        if info.kind == .runtime, info.runtime != nil { violated("a runtime with a runtime", input) }
    case .failure(let problem):
        if problem.line < 0 || problem.line > lines { violated("refusal \(problem) names no line of the file", input) }
        if problem.detail.isEmpty { violated("refusal without a detail", input) }
    }
    if input.count + 14 <= FlatpakInfo.maximumBytes, (try? read(input + Array("\n# a comment\n".utf8)).get()) != (try? outcome.get()) {
        violated("a comment at the end changes what is read", input)
    }

    let identity = IdentityResolver.resolve(credentials: .init(pid: 7, uid: 1000), cgroup: nil, flatpakInfo: .contents(input), executable: nil)
    switch outcome {
    case .success(let info):
        if identity.sandbox != .flatpak || identity.appID != info.appID || identity.key != info.appID || identity.flatpak != info {
            violated("accepted file, identity \(identity)", input)
        }
    case .failure:
        if identity.sandbox != .unknown || identity.appID != nil || identity.key != nil || identity.problems.isEmpty {
            violated("refused file, identity \(identity)", input)
        }
    }
    return 0
}

private func read(_ bytes: [UInt8]) -> Result<FlatpakInfo, FlatpakInfoProblem> {
    Result { () throws(FlatpakInfoProblem) in try FlatpakInfo(bytes: bytes) }
}
