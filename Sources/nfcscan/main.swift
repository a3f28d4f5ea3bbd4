// nfcscan, and the one binary the Debian package installs behind four names (nfcscan, with
// nfcscand, nfcsim and libexec/nfcscan/nfcscan-webnfc-host, the browsers' native messaging host,
// as links to it): the name it was started by says which command it is.
// One binary holds the Swift runtime once instead of three times (Docs/performance.md).
import NFCScanCLI
import NFCScanDaemonCLI
import NFCSimCLI
import WebNFCHost

switch CommandLine.arguments.first.map({ $0.split(separator: "/").last.map(String.init) ?? $0 }) {
case "nfcscand": await NFCScanDaemonMain.main()
case "nfcsim": NFCSimMain.main()
case "nfcscan-webnfc-host": await WebNFCHostMain.main()
default: await NFCScanMain.main()
}
