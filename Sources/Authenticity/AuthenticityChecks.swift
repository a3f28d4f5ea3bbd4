import NFCTags

/// What is checked on every object read, and with what: the cryptography (LibCrypto's OpenSSL in
/// the product) and the person's own trust (configured roots, secure-link keys). Built once by
/// whoever reads (NFCScanKit's ``ScanSession``), run on each reading where it is read.
public struct AuthenticityChecks: Sendable {
    public var ecdsa: any RawECDSAVerifying
    public var aes: any AES128
    public var certificates: any CertificateVerifying
    /// The person's NTAG 424 DNA link templates and keys (``SecureLinkKeysFile``), and where
    /// each chip's last read counter is kept.
    public var secureLinks: [SecureLinkTemplate] = []
    public var secureLinkCounters: any SecureLinkCounters = SecureLinkCounterMemory()
    /// PEM files of roots the person trusts for signed messages besides the system's (the
    /// `*.pem` in `$XDG_CONFIG_HOME/nfcscan/trust/`, listed where the checks are built).
    public var trustAnchors: [String]

    public init(ecdsa: any RawECDSAVerifying, aes: any AES128, certificates: any CertificateVerifying,
                trustAnchors: [String] = []) {
        self.trustAnchors = trustAnchors
        self.ecdsa = ecdsa
        self.aes = aes
        self.certificates = certificates
    }

    /// Everything the checks find on `reading`: each part is pure, given the seams.
    public func examine(_ reading: TagReading) -> AuthenticityFindings {
        var findings = AuthenticityFindings()
        findings.originality = originality(of: reading.originality, uid: reading.uid)
        findings.secureLinks = secureLinks(in: reading)
        findings.signatures = reading.message.map(SignedMessageCheck(certificates: certificates, trustAnchors: trustAnchors).signatures) ?? []
        return findings
    }
}

/// What the checks found on one object: carried on the ``ScannedObject`` into every report.
public struct AuthenticityFindings: Hashable, Sendable {
    /// Whether the chip is the one it claims to be (its originality signature), or why that could
    /// not be checked (no signature to check on such a chip, or the link cannot ask for it).
    public var originality: OriginalityOutcome
    /// Each link record that a configured secure-link template describes, checked.
    public var secureLinks: [SecureLinkFinding] = []
    /// Each Signature record's verdict, in message order (none when the message has none).
    public var signatures: [MessageSignature]

    /// The originality verdict; nil when it could not be checked.
    public var genuine: Genuineness? { originality.verdict }

    public init(originality: OriginalityOutcome = .unchecked("not checked"), signatures: [MessageSignature] = []) {
        self.originality = originality
        self.signatures = signatures
    }
}

/// A chip's originality verdict.
public enum Genuineness: Hashable, Sendable {
    /// Its signature verifies under this NXP key (its name in ``OriginalityKeys``).
    case genuine(key: String)
    /// Its signature does not verify, or it has none where a genuine chip must: why, for `--verbose`.
    case notGenuine(reason: String)
}
