// nfcscan, and the one binary the Debian package installs behind three names (nfcscan, with
// nfcscand and nfcsim as links to it): the name it was started by says which command it is.
// One binary holds the Swift runtime once instead of three times (Docs/performance.md).
import NFCScanCLI
import NFCScanDaemonCLI
import NFCSimCLI

switch CommandLine.arguments.first.map({ $0.split(separator: "/").last.map(String.init) ?? $0 }) {
case "nfcscand": await NFCScanDaemonMain.main()
case "nfcsim": NFCSimMain.main()
default: await NFCScanMain.main()
}
