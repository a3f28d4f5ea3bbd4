// nfcscand on its own (development builds and tests; the package links it to nfcscan).
import NFCScanDaemonCLI

await NFCScanDaemonMain.main()
