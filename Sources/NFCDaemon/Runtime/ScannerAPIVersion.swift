import CommandLineIO
import NFCBusAPI

extension ScannerAPI {
    /// The daemon's `Version` property: the version written once, in CommandLineIO (the Makefile
    /// and the package read it there).
    public static let version = NFCScanVersion.string
}
