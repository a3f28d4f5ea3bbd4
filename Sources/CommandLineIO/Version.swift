/// nfcscan's version: the one place it is written. `nfcscan --version`, `nfcscand --version`,
/// the daemon's Version property and `make deb` (the package's Version, read from this line by
/// the Makefile) all take it from here.
public enum NFCScanVersion {
    public static let string = "0.1.0"
}
