import NFCTags

/// What checking a chip's originality signature came to: a verdict, or why there is none.
public enum OriginalityOutcome: Hashable, Sendable {
    case verdict(Genuineness)
    /// Nothing could be checked: why, for `--verbose`.
    case unchecked(String)
}

extension AuthenticityChecks {
    /// The verdict on `evidence` for the chip whose UID is `uid` (most significant byte first,
    /// as reports give it). Pure, given the seam: OpenSSL does the arithmetic. Every key of the
    /// family's curve is tried, its own first (``OriginalityKeys/candidates(for:)``).
    public func originality(of evidence: OriginalityEvidence?, uid: [UInt8]?) -> OriginalityOutcome {
        switch evidence {
        case nil:
            return .unchecked("not a chip NXP signs at the factory, or its kind is not known")
        case .notCarried(let family, let reason):
            return .unchecked("this reader cannot ask the chip (\(family.chipName)) for its signature: \(reason)")
        case .missing(let family):
            return .verdict(.notGenuine(reason: "it names itself \(family.chipName) but did not answer the signature command; a genuine one always does"))
        case .signature(let family, let signature):
            guard let uid, !uid.isEmpty else {
                return .unchecked("the reader gave no UID to check the \(family.chipName) signature against")
            }
            let expected = 2 * family.curve.scalarLength
            guard signature.count == expected else {
                return .verdict(.notGenuine(reason: "its signature is \(signature.count) bytes, not the \(expected) of \(family.chipName)"))
            }
            guard signature.contains(where: { $0 != 0 }) else {
                return .verdict(.notGenuine(reason: "its signature is all zeros, as copies and rewritable look-alikes answer"))
            }
            let message = family.signedMessage(uid: uid)
            for key in OriginalityKeys.candidates(for: family)
            where ecdsa.verifies(curve: key.curve, publicKey: key.point, digest: message, signature: signature) {
                return .verdict(.genuine(key: key.name))
            }
            return .verdict(.notGenuine(reason: "its signature does not verify under any of NXP's \(family.curve.rawValue) keys for this UID"))
        }
    }
}

extension OriginalityOutcome {
    public var verdict: Genuineness? {
        if case .verdict(let verdict) = self { verdict } else { nil }
    }

    public var uncheckedReason: String? {
        if case .unchecked(let reason) = self { reason } else { nil }
    }

    /// One developer-facing line for `--verbose` and logs: the verdict and its key or reason.
    public var explanation: String {
        switch self {
        case .verdict(.genuine(let key)): "genuine: its originality signature verifies under \(key)"
        case .verdict(.notGenuine(let reason)): "not genuine: \(reason)"
        case .unchecked(let reason): "genuineness not checked: \(reason)"
        }
    }
}

extension OriginalityFamily {
    /// Its name in developer-facing explanations (`--verbose`, logs).
    public var chipName: String {
        switch self {
        case .ntag21x: "NTAG21x"
        case .ultralightEV1: "MIFARE Ultralight EV1"
        case .ntag424DNA: "NTAG 424 DNA"
        case .desfire: "MIFARE DESFire"
        case .icode: "ICODE SLIX2/DNA"
        }
    }
}
