import Authenticity
import COpenSSL

/// OpenSSL's libcrypto behind Authenticity's seams: the one place nfcscan's cryptography runs.
public struct OpenSSL: Sendable {
    public init() {}
}
