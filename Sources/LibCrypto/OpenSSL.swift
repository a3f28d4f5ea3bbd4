import Authenticity
import COpenSSL

/// OpenSSL's libcrypto behind Authenticity's seams: the one place nfcscan's cryptography runs.
/// Its conformances live beside it, one file each (OriginalitySignatures, AESCipher,
/// Certificates). It holds nothing: every call makes and frees its own OpenSSL objects, and
/// OpenSSL 3 is safe to call from any thread, so one value serves every task.
public struct OpenSSL: Sendable {
    public init() {}

    /// Runs `body` and then empties this thread's OpenSSL error queue: a refusal is an answer
    /// (false, nil, untrusted), not an error, and must not leave entries behind for the next
    /// caller on the thread to trip over.
    static func answering<T>(_ body: () -> T) -> T {
        defer { ERR_clear_error() }
        return body()
    }
}

extension AuthenticityChecks {
    /// The checks as the product runs them: OpenSSL's arithmetic.
    public static var openSSL: AuthenticityChecks {
        AuthenticityChecks(ecdsa: OpenSSL(), aes: OpenSSL(), certificates: OpenSSL())
    }
}
