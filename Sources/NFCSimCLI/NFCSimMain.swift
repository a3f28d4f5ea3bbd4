/// nfcsim's command line, run by the executables that are nfcsim (Sources/nfcsim, and
/// Sources/nfcscan called by that name).
public enum NFCSimMain {
    public static func main() { NFCSimCommand.main() }
}
