import Authenticity
import COpenSSL
import Glibc

extension OpenSSL: CertificateVerifying {
    /// The largest certificate read (DER): real ones are 1 to 3 KiB.
    static let longestCertificate = 16 * 1024
    /// The most intermediate certificates a chain is built through.
    static let mostIntermediates = 8
    /// The most bytes a signature covers: an NDEF message is smaller by far.
    static let longestSignedData = 1 << 20
    /// The longest signature: RSA-8192's is 1 KiB.
    static let longestSignature = 2 * 1024
    /// The largest trust anchor file read (PEM): the system's whole bundle is about 200 KiB.
    static let longestAnchorFile = 1 << 20
    /// The most bytes of a subject's organization or common name returned.
    static let longestSubjectText = 256

    public func verifies(certificate: [UInt8], scheme: SignedDataScheme, data: [UInt8], signature: [UInt8]) -> Bool {
        guard data.count <= Self.longestSignedData, !signature.isEmpty, signature.count <= Self.longestSignature else { return false }
        return Self.answering {
            guard let x509 = Self.parse(certificate) else { return false }
            defer { X509_free(x509) }
            guard let key = X509_get0_pubkey(x509), scheme.fits(key), let context = EVP_MD_CTX_new() else { return false }
            defer { EVP_MD_CTX_free(context) }
            // The key context belongs to `context`, freed with it.
            var keyContext: OpaquePointer?
            guard EVP_DigestVerifyInit(context, &keyContext, EVP_sha256(), nil, key) == 1, let keyContext else { return false }
            switch scheme {
            case .rsaPSS:
                guard EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1,
                      EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, RSA_PSS_SALTLEN_DIGEST) == 1 else { return false }
            case .rsaPKCS1v15:
                guard EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING) == 1 else { return false }
            case .dsa, .ecdsa:
                break
            }
            return EVP_DigestVerify(context, signature, signature.count, data, data.count) == 1
        }
    }

    public func chain(certificate: [UInt8], intermediates: [[UInt8]], extraAnchors: [String]) -> ChainVerdict {
        guard intermediates.count <= Self.mostIntermediates else {
            return .untrusted("more than \(Self.mostIntermediates) intermediate certificates")
        }
        return Self.answering {
            guard let leaf = Self.parse(certificate) else {
                return .untrusted("the certificate is malformed or larger than \(Self.longestCertificate / 1024) KiB")
            }
            defer { X509_free(leaf) }
            guard let untrusted = nfc_x509_stack_new() else { return .untrusted("out of memory") }
            defer { nfc_x509_stack_free(untrusted) }
            for (index, der) in intermediates.enumerated() {
                guard let intermediate = Self.parse(der) else {
                    return .untrusted("intermediate certificate \(index + 1) is malformed or larger than \(Self.longestCertificate / 1024) KiB")
                }
                guard nfc_x509_stack_push(untrusted, intermediate) == 1 else {
                    X509_free(intermediate)
                    return .untrusted("out of memory")
                }
            }
            guard let store = X509_STORE_new() else { return .untrusted("out of memory") }
            defer { X509_STORE_free(store) }
            // The system's trust store (Debian's /etc/ssl/certs), read from disk: nothing is fetched,
            // and no revocation list is asked for.
            guard X509_STORE_set_default_paths(store) == 1 else { return .untrusted("the system's trust store could not be read") }
            let unread = extraAnchors.filter { !Self.addAnchors(file: $0, to: store) }
            guard let context = X509_STORE_CTX_new() else { return .untrusted("out of memory") }
            defer { X509_STORE_CTX_free(context) }
            guard X509_STORE_CTX_init(context, store, leaf, untrusted) == 1,
                  X509_STORE_CTX_set_purpose(context, X509_PURPOSE_ANY) == 1 else { return .untrusted("out of memory") }
            if X509_verify_cert(context) == 1 {
                return .trusted(organization: Self.subject(leaf, NID_organizationName), commonName: Self.subject(leaf, NID_commonName))
            }
            var reason = String(cString: X509_verify_cert_error_string(Int(X509_STORE_CTX_get_error(context))))
            if !unread.isEmpty { reason += " (trust anchors not read from \(unread.joined(separator: ", ")))" }
            return .untrusted(reason)
        }
    }

    /// A certificate from exactly its DER bytes (nothing after them), or nil. The caller frees it.
    private static func parse(_ der: [UInt8]) -> OpaquePointer? {
        guard !der.isEmpty, der.count <= longestCertificate else { return nil }
        return der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            guard let certificate = d2i_X509(nil, &cursor, buffer.count) else { return nil }
            guard cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                X509_free(certificate)
                return nil
            }
            return certificate
        }
    }

    /// Adds the certificates of a PEM file to `store`; false if it is not a regular file of at
    /// most ``longestAnchorFile`` bytes holding at least one (a FIFO or a device would block or
    /// never end). A file that is not read adds nothing, so it can only make a chain fail.
    private static func addAnchors(file: String, to store: OpaquePointer) -> Bool {
        var status = stat()
        guard stat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size <= longestAnchorFile else { return false }
        return X509_STORE_load_file(store, file) == 1
    }

    /// The first `nid` entry (O, CN) of `certificate`'s subject as UTF-8, at most
    /// ``longestSubjectText`` bytes of it.
    private static func subject(_ certificate: OpaquePointer, _ nid: Int32) -> String? {
        guard let name = X509_get_subject_name(certificate) else { return nil }
        let index = X509_NAME_get_index_by_NID(name, nid, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index), let value = X509_NAME_ENTRY_get_data(entry) else { return nil }
        var utf8: UnsafeMutablePointer<UInt8>?
        let count = ASN1_STRING_to_UTF8(&utf8, value)
        guard count >= 0, let utf8 else { return nil }
        defer { nfc_openssl_free(utf8) }
        return String(decoding: UnsafeBufferPointer(start: utf8, count: min(Int(count), longestSubjectText)), as: UTF8.self)
    }
}

private extension SignedDataScheme {
    /// Whether a certificate's `key` is of the kind this scheme signs with.
    func fits(_ key: OpaquePointer) -> Bool {
        switch self {
        case .rsaPSS: EVP_PKEY_is_a(key, "RSA") == 1 || EVP_PKEY_is_a(key, "RSA-PSS") == 1
        case .rsaPKCS1v15: EVP_PKEY_is_a(key, "RSA") == 1
        case .dsa: EVP_PKEY_is_a(key, "DSA") == 1
        case .ecdsa: EVP_PKEY_is_a(key, "EC") == 1
        }
    }
}
