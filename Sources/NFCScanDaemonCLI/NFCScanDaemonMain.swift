/// nfcscand's command line, run by the executables that are nfcscand (Sources/nfcscand, and
/// Sources/nfcscan called by that name).
public enum NFCScanDaemonMain {
    public static func main() async { await NFCScanDaemonCommand.main() }
}
