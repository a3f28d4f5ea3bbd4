/// What a station does with an object whose chip is not genuine (its originality signature is
/// missing or does not verify: Docs/authenticity.md); `[authenticity] not-genuine` in nfcscand.conf.
/// An object whose chip could not be checked is never refused: most objects carry no signature.
public enum NotGenuinePolicy: String, Sendable, CaseIterable {
    /// Offered, handed to apps and published like any other, marked `genuine` false.
    case report
    /// Not offered, not handed to a scan session and not published: logged, and told to the
    /// observers as ``DaemonObservation/refused(reader:uid:reason:session:)``.
    case refuse
}
