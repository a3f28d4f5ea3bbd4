/// nfcscan's command line, run by the executables that are nfcscan (Sources/nfcscan).
public enum NFCScanMain {
    public static func main() async { await NFCScanCommand.main() }
}
