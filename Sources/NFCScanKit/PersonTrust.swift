import Foundation

/// The person's own trust anchors for signed messages: the `*.pem` files in
/// `$XDG_CONFIG_HOME/nfcscan/trust/` (else `~/.config/nfcscan/trust/`), listed where the checks
/// are built (the I/O edge): OpenSSL reads them when a chain is checked. At most
/// ``maximumAnchors`` files, in name order; a missing directory means none.
public enum PersonTrust {
    public static let maximumAnchors = 64

    /// The directory looked in; nil when the environment names no home.
    public static func directory(environment: [String: String]) -> String? {
        UserFiles.configDirectory(environment).map { $0 + "/trust" }
    }

    /// The anchor files found there.
    public static func anchors(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".pem") && !$0.hasPrefix(".") }.sorted()
            .prefix(maximumAnchors).map { directory + "/" + $0 }
    }
}
