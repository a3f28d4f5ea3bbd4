// Fuzz target `cgroup`: a process's /proc/PID/cgroup as nfcscand reads it to learn which app a
// D-Bus caller is (SystemdScope, IdentityResolver). A process names the cgroups below its own
// delegated subtree as it likes, so the lines and the unit names in them are untrusted.
//
// Beyond "no crash": an app found has an application ID by ApplicationID's rule, a launcher of
// letters and digits, a unit name of systemd's length; the unit name alone parses to the same
// app; the ID escaped as systemd escapes it, in a unit of its own, parses back to the same ID;
// a line of another hierarchy added at the end changes nothing; the same bytes as a unit name
// give a valid ID or none; the resolver's key is an application ID or an absolute path.
import AppIdentity

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let found = SystemdScope(cgroup: input)
    if let found { checkScope(found, input) }
    if let found, SystemdScope(unitName: Array(found.unit.utf8)) != found {
        violated("the unit \(found.unit) alone parses otherwise", input)
    }
    if input.count + 12 <= SystemdScope.maximumBytes, SystemdScope(cgroup: input + Array("\n9:cpu:/x\n".utf8)) != found {
        violated("a line of another hierarchy at the end changes the app", input)
    }
    if let alone = SystemdScope(unitName: input) { checkScope(alone, input) }

    let identity = IdentityResolver.resolve(credentials: .init(pid: 7, uid: 1000), cgroup: input, flatpakInfo: .missing, executable: input)
    if identity.sandbox != .none { violated("no /.flatpak-info but sandbox \(identity.sandbox)", input) }
    if identity.appID != found?.applicationID { violated("the resolver's app ID \(String(describing: identity.appID)) is not the unit's", input) }
    if let key = identity.key, !(key.utf8.first == UInt8(ascii: "/") || ApplicationID.isValid(key)) { violated("key \(key)", input) }
    if identity.displayName(entry: nil).text.isEmpty { violated("an empty name shown", input) }
    return 0
}

private func checkScope(_ scope: SystemdScope, _ input: [UInt8]) {
    if !ApplicationID.isValid(scope.applicationID) { violated("application ID \(scope.applicationID) breaks the rule", input) }
    if !scope.unit.utf8.starts(with: "app-".utf8) || scope.unit.utf8.count > SystemdScope.maximumUnitBytes { violated("unit \(scope.unit)", input) }
    if let launcher = scope.launcher, launcher.isEmpty || !launcher.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }) {
        violated("launcher \(launcher)", input)
    }
    let escaped = scope.applicationID.replacing("-", with: "\\x2d")
    let unit = "app-\(escaped)-1.scope"
    if unit.utf8.count <= SystemdScope.maximumUnitBytes, SystemdScope(unitName: Array(unit.utf8))?.applicationID != scope.applicationID {
        violated("the ID escaped in \(unit) does not parse back", input)
    }
}
