import Authenticity
import Foundation
import LibCrypto

/// The person's own trust anchors for signed messages: the `*.pem` files in
/// `$XDG_CONFIG_HOME/nfcscan/trust/` (else `~/.config/nfcscan/trust/`), listed where the checks
/// are built (the I/O edge): OpenSSL reads them when a chain is checked. At most
/// ``maximumAnchors`` files, in name order; a missing directory means none.
public enum PersonTrust {
    public static let maximumAnchors = 64

    /// The directory looked in.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.config"
        return base + "/nfcscan/trust"
    }

    /// The anchor files found there.
    public static func anchors(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".pem") && !$0.hasPrefix(".") }.sorted()
            .prefix(maximumAnchors).map { directory + "/" + $0 }
    }
}

extension AuthenticityChecks {
    /// The checks as nfcscan and nfcscand run them: OpenSSL's, with the person's trust anchors.
    public static func forPerson(environment: [String: String] = ProcessInfo.processInfo.environment) -> AuthenticityChecks {
        var checks = AuthenticityChecks.openSSL
        checks.trustAnchors = PersonTrust.anchors(in: PersonTrust.directory(environment: environment))
        return checks
    }
}
