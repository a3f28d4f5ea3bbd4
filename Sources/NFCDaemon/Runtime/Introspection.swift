/// The introspection data the daemon answers with: the files of Docs/dbus/, embedded at build time
/// (`.embedInCode("dbus")` in Package.swift, through the symlink Sources/NFCDaemon/dbus), so the
/// interface apps generate bindings from and the one the daemon serves are the same bytes.
enum Introspection {
    /// /org/nfcscan/Scanner1, the manager.
    static let scanner = text(PackageResources.org_nfcscan_Scanner1_xml)
    /// /org/nfcscan/Scanner1/readers/N.
    static let reader = text(PackageResources.org_nfcscan_Reader1_xml)
    /// /org/nfcscan/Scanner1/sessions/N.
    static let session = text(PackageResources.org_nfcscan_ScanSession1_xml)
    /// /org/nfcscan/Scanner1/writes/N.
    static let writeSession = text(PackageResources.org_nfcscan_WriteSession1_xml)

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
