import NFCCopy

/// nfcscan's command line, run by the executables that are nfcscan (Sources/nfcscan).
public enum NFCScanMain {
    public static func main() async {
        // The person's language's words now, before anything runs beside this thread: reading a
        // catalog sets LANGUAGE for a moment (NFCCopy's Gettext). English reads none.
        _ = CopyTranslations.of(ScanCopy.Language.preferred())
        await NFCScanCommand.main()
    }
}
