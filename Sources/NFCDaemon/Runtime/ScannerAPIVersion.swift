import NFCBusAPI
import NFCScanKit

extension ScannerAPI {
    /// The daemon's `Version` property: the version written once, in NFCScanKit (the Makefile
    /// and the package read it there).
    public static let version = NFCScanVersion.string
}
