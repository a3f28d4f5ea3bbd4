import Authenticity
import COpenSSL

extension OpenSSL: RawECDSAVerifying {
    /// The longest value taken to verify: NXP signs UIDs of 4 to 10 bytes, and ECDSA reads no
    /// more of a digest than its curve order's bits (at most 28 bytes here) anyway.
    static let longestRawDigest = 64

    public func verifies(curve: OriginalityCurve, publicKey: [UInt8], digest: [UInt8], signature: [UInt8]) -> Bool {
        let length = curve.scalarLength
        guard publicKey.count == 1 + 2 * length, publicKey.first == 0x04, signature.count == 2 * length,
              (1...Self.longestRawDigest).contains(digest.count) else { return false }
        return Self.answering {
            guard let key = nfc_ec_public_key(curve.rawValue, publicKey, publicKey.count) else { return false }
            defer { EVP_PKEY_free(key) }
            guard let der = Self.derSignature(r: signature[..<length], s: signature[length...]),
                  let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else { return false }
            defer { EVP_PKEY_CTX_free(context) }
            // No digest set on the context: the value is verified as it is, not hashed first.
            return EVP_PKEY_verify_init(context) == 1
                && EVP_PKEY_verify(context, der, der.count, digest, digest.count) == 1
        }
    }

    /// r ‖ s as the ECDSA-Sig-Value (DER) EVP_PKEY_verify takes.
    private static func derSignature(r: ArraySlice<UInt8>, s: ArraySlice<UInt8>) -> [UInt8]? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let rNumber = r.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        let sNumber = s.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        // ECDSA_SIG_set0 takes both numbers on success, neither on failure.
        guard let rNumber, let sNumber, ECDSA_SIG_set0(signature, rNumber, sNumber) == 1 else {
            BN_free(rNumber)
            BN_free(sNumber)
            return nil
        }
        var encoded: UnsafeMutablePointer<UInt8>?
        let count = i2d_ECDSA_SIG(signature, &encoded)
        guard count > 0, let encoded else { return nil }
        defer { nfc_openssl_free(encoded) }
        return Array(UnsafeBufferPointer(start: encoded, count: Int(count)))
    }
}
