import Authenticity
import COpenSSL

/// OpenSSL's libcrypto behind Authenticity's seams: the one place nfcscan's cryptography runs.
public struct OpenSSL: RawECDSAVerifying, AES128, CertificateVerifying {
    public init() {}

    public func verifies(curve: OriginalityCurve, publicKey: [UInt8], digest: [UInt8], signature: [UInt8]) -> Bool { false }
    public func encryptBlock(key: [UInt8], _ block: [UInt8]) -> [UInt8]? { nil }
    public func decryptCBC(key: [UInt8], iv: [UInt8], _ data: [UInt8]) -> [UInt8]? { nil }
    public func cmac(key: [UInt8], _ message: [UInt8]) -> [UInt8]? { nil }
    public func verifies(certificate: [UInt8], scheme: SignedDataScheme, data: [UInt8], signature: [UInt8]) -> Bool { false }
    public func chain(certificate: [UInt8], intermediates: [[UInt8]], extraAnchors: [String]) -> ChainVerdict { .untrusted("not built yet") }
}

extension AuthenticityChecks {
    /// The checks as the product runs them: OpenSSL's arithmetic.
    public static var openSSL: AuthenticityChecks {
        AuthenticityChecks(ecdsa: OpenSSL(), aes: OpenSSL(), certificates: OpenSSL())
    }
}
