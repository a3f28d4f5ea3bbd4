/// The cryptography authenticity checks need, as seams: this module decides what to check and what
/// a result means; the arithmetic is OpenSSL's (LibCrypto, the one wrapper of libcrypto), passed in
/// by whoever runs a check. Nothing here computes a curve or a cipher of its own.

/// The elliptic curves NXP signs its chips' identifiers on (SEC 2 names, as OpenSSL knows them).
public enum OriginalityCurve: String, Hashable, Sendable {
    /// 16-byte coordinates, 32-byte signatures (NTAG21x, Ultralight EV1, ICODE SLIX2/DNA).
    case secp128r1
    /// 28-byte coordinates, 56-byte signatures (NTAG 424 DNA, DESFire EV2/EV3).
    case secp224r1

    /// Bytes of r and of s.
    public var scalarLength: Int { self == .secp128r1 ? 16 : 28 }
}

/// ECDSA verification of a value that is not hashed first: NXP's originality signatures sign the
/// UID itself.
public protocol RawECDSAVerifying: Sendable {
    /// Whether `signature` (r ‖ s, each ``OriginalityCurve/scalarLength`` bytes, big-endian)
    /// signs `digest` under `publicKey` (an uncompressed point, 04 ‖ X ‖ Y). False for any
    /// malformed input: never throws, never traps.
    func verifies(curve: OriginalityCurve, publicKey: [UInt8], digest: [UInt8], signature: [UInt8]) -> Bool
}

/// AES-128, for NTAG 424 DNA's secure dynamic messages (AES and LRP modes both build on it).
public protocol AES128: Sendable {
    /// One block (16 bytes) enciphered under a 16-byte key (ECB); nil for wrong lengths.
    func encryptBlock(key: [UInt8], _ block: [UInt8]) -> [UInt8]?
    /// CBC decryption without padding (the length a multiple of 16); nil for wrong lengths.
    func decryptCBC(key: [UInt8], iv: [UInt8], _ data: [UInt8]) -> [UInt8]?
    /// AES-CMAC (NIST SP 800-38B, RFC 4493): 16 bytes; nil for a wrong key length.
    func cmac(key: [UInt8], _ message: [UInt8]) -> [UInt8]?
}

/// The signature schemes NFC Forum Signature RTD 2.0 names, as a certificate's key verifies them.
public enum SignedDataScheme: Hashable, Sendable {
    case rsaPSS
    case rsaPKCS1v15
    case dsa
    /// The signature DER-encoded (ECDSA-Sig-Value), as X.509 carries it.
    case ecdsa
}

/// What a certificate chain comes to.
public enum ChainVerdict: Hashable, Sendable {
    /// The chain reaches a trusted root. `organization` and `commonName` are the first
    /// certificate's subject's (O and CN), untrusted text to be escaped where shown.
    case trusted(organization: String?, commonName: String?)
    /// It does not: why, in OpenSSL's words (for `--verbose`).
    case untrusted(String)
}

/// X.509 as Signature RTD records carry it (DER certificates).
public protocol CertificateVerifying: Sendable {
    /// Whether `signature` over `data`, hashed with SHA-256, verifies under the public key of
    /// `certificate` (DER) with `scheme`. False for anything malformed.
    func verifies(certificate: [UInt8], scheme: SignedDataScheme, data: [UInt8], signature: [UInt8]) -> Bool
    /// Whether `certificate` chains through `intermediates` (DER, any order) to a root in the
    /// system's trust store or in `extraAnchors` (PEM files a configuration names).
    func chain(certificate: [UInt8], intermediates: [[UInt8]], extraAnchors: [String]) -> ChainVerdict
}
