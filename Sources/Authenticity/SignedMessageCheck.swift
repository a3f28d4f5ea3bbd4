import NDEF

/// NFC Forum Signature RTD 2.0: what each Signature record of a message signs, and whether it
/// holds, given the certificate seam and the person's trust anchors. Pure: nothing is read from
/// disk and nothing is fetched (a signature or certificate given as a URI is reported, not used).
///
/// What a Signature record covers and what bytes are signed follow ndeflib's signing example, the
/// one open implementation of version 2.0 (Docs/authenticity.md): the records since the message
/// began or since the previous Signature record, encoded as a message of their own would be
/// (canonical headers, MB on the first, ME on none, since the Signature record follows).
public struct SignedMessageCheck: Sendable {
    /// Bounds on what a hostile message can make the check do.
    public struct Limits: Hashable, Sendable {
        /// Signature records checked per message; later ones are reported unverified.
        public var signatures = 4
        /// Certificates per chain (the format allows 15).
        public var certificates = 8
        /// Bytes of one certificate.
        public var certificateBytes = 8_192
        /// Bytes hashed for all signatures of a message together.
        public var signedBytes = 256 * 1024

        public init() {}
    }

    public var certificates: any CertificateVerifying
    /// PEM files of roots trusted besides the system's (the person's `trust/*.pem`).
    public var trustAnchors: [String]
    public var limits: Limits

    public init(certificates: any CertificateVerifying, trustAnchors: [String], limits: Limits = Limits()) {
        self.certificates = certificates
        self.trustAnchors = trustAnchors
        self.limits = limits
    }

    /// One verdict per Signature record in `message`'s top-level records, in order.
    public func signatures(in message: NDEFMessage) -> [MessageSignature] {
        var found: [MessageSignature] = []
        var start = 0
        var hashed = 0
        for (index, record) in message.records.enumerated() where record.isWellKnown("Sig") {
            let covered = start..<index
            start = index + 1
            let verdict: SignatureVerdict
            if found.count >= limits.signatures {
                verdict = .unverified(.tooManySignatures)
            } else {
                verdict = check(record, covering: Array(message.records[covered]), hashed: &hashed)
            }
            found.append(MessageSignature(recordIndex: index, covered: covered, verdict: verdict))
        }
        return found
    }

    private func check(_ record: NDEFRecord, covering covered: [NDEFRecord], hashed: inout Int) -> SignatureVerdict {
        guard let signature = try? SignatureRecord(payload: record.payload) else { return .unverified(.undecodable) }
        guard signature.signatureType != 0 else { return .unverified(.marker) }
        guard !covered.isEmpty else { return .unverified(.coversNothing) }
        guard case .bytes(let signatureBytes) = signature.signature else {
            if case .uri(let uri) = signature.signature { return .unverified(.signatureAtURI(uri)) }
            return .unverified(.undecodable)
        }
        guard signature.hashType == 0x02 else { return .unverified(.unsupportedHash(signature.hashType)) }
        guard let shape = SignatureShape(code: signature.signatureType) else {
            return .unverified(.unsupportedSignatureType(signature.signatureType))
        }
        guard signature.certificateFormat == 0 else { return .unverified(.certificateFormat(signature.certificateFormat)) }
        guard let leaf = signature.certificates.first else {
            if let uri = signature.certificateURI { return .unverified(.certificateAtURI(uri)) }
            return .unverified(.noCertificate)
        }
        // Bytes that are no DER element at all are no certificate: nothing to check, rather
        // than a signature that "does not verify" and content called changed.
        guard signature.certificates.allSatisfy(DER.isOneElement) else { return .unverified(.unreadableCertificate) }
        guard signature.certificates.count <= limits.certificates,
              signature.certificates.allSatisfy({ $0.count <= limits.certificateBytes }) else {
            return .unverified(.tooLarge)
        }
        let signed = Self.signedBytes(covered)
        hashed += signed.count
        guard hashed <= limits.signedBytes else { return .unverified(.tooLarge) }

        guard certificates.verifies(certificate: leaf, scheme: shape.scheme, data: signed,
                                    signature: shape.encoded(signatureBytes)) else {
            return .failed
        }
        switch certificates.chain(certificate: leaf, intermediates: Array(signature.certificates.dropFirst()),
                                  extraAnchors: trustAnchors) {
        case .trusted(let organization, let commonName):
            return .verified(signer: Self.signer(organization: organization, commonName: commonName))
        case .untrusted(let why):
            // The chain may end in certificates only the URI holds: not fetched, so not known.
            if let uri = signature.certificateURI { return .unverified(.certificateAtURI(uri)) }
            return .untrusted(reason: String(why.prefix(Self.maxTextLength)))
        }
    }

    /// The bytes a Signature record after `covered` signs: those records as the first records of
    /// a message that goes on (MB on the first, ME on none). Encoding them followed by an empty
    /// record (3 bytes: header, type length 0, payload length 0) and dropping it gives exactly that.
    public static func signedBytes(_ covered: [NDEFRecord]) -> [UInt8] {
        Array(NDEFMessage(records: covered + [.empty]).encoded().dropLast(3))
    }

    /// The name a person is shown: the organization, else the common name (untrusted text from
    /// the certificate, bounded here and escaped where shown).
    static func signer(organization: String?, commonName: String?) -> String? {
        let name = [organization, commonName].lazy.compactMap { $0?.trimmingWhitespace }.first { !$0.isEmpty }
        return name.map { String($0.prefix(maxTextLength)) }
    }

    static let maxTextLength = 200
}

/// How a signature type code (Signature RTD 2.0, table of signature types) is verified: the scheme
/// the certificate's key runs, and for DSA and ECDSA how long r and s are (the record carries them
/// as r ‖ s, each as long as the key's order, as ndeflib and Proxmark read them; X.509 tools
/// want DER). The key size the code names is the certificate's to keep: its key verifies or not.
struct SignatureShape: Hashable, Sendable {
    var scheme: SignedDataScheme
    /// Possible lengths of r (and of s), for DSA and ECDSA.
    var scalarLengths: [Int] = []

    init?(code: UInt8) {
        switch code {
        case 0x01, 0x05: scheme = .rsaPSS
        case 0x02, 0x06: scheme = .rsaPKCS1v15
        case 0x03: scheme = .dsa; scalarLengths = [20]
        case 0x07: scheme = .dsa; scalarLengths = [28, 32]
        case 0x04: scheme = .ecdsa; scalarLengths = [24]
        case 0x08: scheme = .ecdsa; scalarLengths = [28]
        case 0x09, 0x0A: scheme = .ecdsa; scalarLengths = [30]
        case 0x0B: scheme = .ecdsa; scalarLengths = [32]
        default: return nil
        }
    }

    /// The signature as the seam takes it: r ‖ s of the expected length becomes DER
    /// (Dss-Sig-Value / ECDSA-Sig-Value); anything else is passed on as it is (DER already, or
    /// malformed: then it does not verify).
    func encoded(_ signature: [UInt8]) -> [UInt8] {
        guard scalarLengths.contains(where: { signature.count == 2 * $0 }) else { return signature }
        let half = signature.count / 2
        return DER.sequence(DER.integer(signature[..<half]) + DER.integer(signature[half...]))
    }
}

/// The little DER a signature value needs: unsigned integers and a sequence of them.
enum DER {
    static func integer(_ magnitude: ArraySlice<UInt8>) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.first.map({ $0 & 0x80 != 0 }) ?? true { bytes.insert(0, at: 0) }
        return [0x02] + length(bytes.count) + bytes
    }

    static func sequence(_ content: [UInt8]) -> [UInt8] { [0x30] + length(content.count) + content }

    /// Whether `bytes` are one SEQUENCE whose length field (definite, at most 4 bytes) spans them
    /// exactly: the outside of a certificate, checked before anything parses it.
    static func isOneElement(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2, bytes[0] == 0x30 else { return false }
        let first = Int(bytes[1])
        if first < 0x80 { return bytes.count == 2 + first }
        let count = first & 0x7F
        guard (1...4).contains(count), bytes.count >= 2 + count else { return false }
        let length = bytes[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) }
        return bytes.count == 2 + count + length
    }

    private static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        let bytes = withUnsafeBytes(of: UInt32(count).bigEndian) { Array($0.drop { $0 == 0 }) }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
}

/// One Signature record's verdict, and which records it speaks for.
public struct MessageSignature: Hashable, Sendable {
    /// Where the Signature record is among the message's records.
    public var recordIndex: Int
    /// The records it covers (those since the message began or since the previous Signature record).
    public var covered: Range<Int>
    public var verdict: SignatureVerdict

    public init(recordIndex: Int, covered: Range<Int>, verdict: SignatureVerdict) {
        self.recordIndex = recordIndex
        self.covered = covered
        self.verdict = verdict
    }
}

extension MessageSignature {
    /// One line for `--verbose` (developer words; the signer's name as the certificate says it).
    public var explanation: String {
        let records = covered.isEmpty ? "no records" : covered.count == 1 ? "record \(covered.lowerBound + 1)"
            : "records \(covered.lowerBound + 1)–\(covered.upperBound)"
        let outcome = switch verdict {
        case .verified(let signer): "verified, signed by \(signer ?? "a certificate naming no one")"
        default: "not verified: \(verdict.reason ?? "")"
        }
        return "signature record \(recordIndex + 1) (covering \(records)): \(outcome)"
    }
}

public enum SignatureVerdict: Hashable, Sendable {
    /// The signature verifies under the first certificate, and its chain reaches a trusted root:
    /// the covered records are as `signer` signed them (its organization, else common name; nil
    /// when the certificate names neither).
    case verified(signer: String?)
    /// The signature verifies, but the certificates reach no root trusted here: the records are
    /// as the certificate's key signed them, but nobody vouches for who holds that key.
    case untrusted(reason: String)
    /// The signature does not verify: the covered records were changed after signing (or were
    /// never signed with this certificate's key).
    case failed
    /// Nothing could be checked, and why.
    case unverified(Unverifiable)

    /// What each covered record is marked: nil for a marker, which signs nothing yet.
    public var recordStatus: RecordSignatureStatus? {
        switch self {
        case .verified: .verified
        case .failed: .failed
        case .unverified(.marker): nil
        case .untrusted, .unverified: .unverified
        }
    }

    /// Why it is not verified, in developer words (reports, `--verbose`); nil when verified.
    public var reason: String? {
        switch self {
        case .verified: nil
        case .untrusted(let why): "the certificate chain reaches no trusted root: \(why)"
        case .failed: "the signature does not verify: the signed records were changed, or signed with another key"
        case .unverified(let why): why.reason
        }
    }
}

/// What a covered record is marked in reports (`"signature"`).
public enum RecordSignatureStatus: String, Hashable, Sendable {
    case verified, failed, unverified
}

/// Why a Signature record could not be checked.
public enum Unverifiable: Hashable, Sendable {
    /// Signature type 0: marks where a signature is to go, signs nothing.
    case marker
    /// The record's payload does not decode (its error is in the record's report).
    case undecodable
    /// No record precedes it since the message began or the previous Signature record.
    case coversNothing
    /// The signature is only at this URI, which is never fetched.
    case signatureAtURI(String)
    /// The certificate (or the rest of its chain) is only at this URI, which is never fetched.
    case certificateAtURI(String)
    case noCertificate
    /// A certificate that is not even one DER element.
    case unreadableCertificate
    /// Certificates not in X.509 (1 is M2M): not supported.
    case certificateFormat(UInt8)
    case unsupportedSignatureType(UInt8)
    case unsupportedHash(UInt8)
    /// More certificates, or longer ones, or more signed bytes than ``SignedMessageCheck/Limits`` allows.
    case tooLarge
    /// More Signature records than ``SignedMessageCheck/Limits`` allows.
    case tooManySignatures

    public var reason: String {
        switch self {
        case .marker: "a marker: no signature yet"
        case .undecodable: "the signature record does not decode"
        case .coversNothing: "no records precede the signature record"
        case .signatureAtURI: "the signature is at a URI, which is not fetched"
        case .certificateAtURI: "the certificate chain continues at a URI, which is not fetched"
        case .noCertificate: "no certificate"
        case .unreadableCertificate: "a certificate does not decode"
        case .certificateFormat(let code):
            "\(SignatureRecord.certificateFormatNames[code] ?? Hex.code(code)) certificates are not supported"
        case .unsupportedSignatureType(let code): "signature type \(Hex.code(code)) is not supported"
        case .unsupportedHash(let code): "hash type \(Hex.code(code)) is not supported"
        case .tooLarge: "the certificates or signed records are larger than checked"
        case .tooManySignatures: "more signature records than checked"
        }
    }
}

extension [MessageSignature] {
    /// The mark of the top-level record at `index`: that of the Signature record covering it.
    public func status(ofRecord index: Int) -> RecordSignatureStatus? {
        first { $0.covered.contains(index) }?.verdict.recordStatus
    }

    /// The verdict of the Signature record at `index`, if it is one.
    public func verdict(ofSignatureRecord index: Int) -> SignatureVerdict? {
        first { $0.recordIndex == index }?.verdict
    }
}

private extension String {
    var trimmingWhitespace: Substring {
        let trimmed = drop { $0.isWhitespace }
        return trimmed.dropLast(trimmed.reversed().prefix { $0.isWhitespace }.count)
    }
}
