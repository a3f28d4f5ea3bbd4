/// The chip families NXP signs at the factory, by the command that reads their signature and the
/// key that made it (Authenticity's ``OriginalityKeys`` holds the keys).
public enum OriginalityFamily: String, Hashable, Sendable, CaseIterable {
    /// NTAG210/212/213/215/216 (READ_SIG 0x3C, 32 bytes, secp128r1).
    case ntag21x
    /// MIFARE Ultralight EV1 (READ_SIG, 32 bytes, secp128r1).
    case ultralightEV1
    /// NTAG 424 DNA (Read_Sig, 56 bytes, secp224r1).
    case ntag424DNA
    /// MIFARE DESFire EV2 and EV3 (Read_Sig, 56 bytes, secp224r1).
    case desfire
    /// ICODE SLIX2 and ICODE DNA (READ SIGNATURE 0xBD, 32 bytes, secp128r1).
    case icode
}

/// What reading an object's originality signature gave: the evidence, not yet a verdict (that
/// takes the keys and the curve arithmetic: Authenticity's ``OriginalityCheck``).
public enum OriginalityEvidence: Hashable, Sendable {
    /// The chip answered its signature command with these bytes.
    case signature(OriginalityFamily, [UInt8])
    /// A chip that names itself one of this family (GET_VERSION) refused or ignored the command:
    /// a genuine one always answers.
    case missing(OriginalityFamily)
    /// The chip may carry one, but this link cannot send the command (a PC/SC storage-card
    /// reader maps only reads): why, for `--verbose`.
    case notCarried(OriginalityFamily, reason: String)
}
