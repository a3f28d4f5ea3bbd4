/// Why one exchange with an object did not complete.
///
/// Backends (libnfc, PC/SC, the in-process simulator) map their own codes onto these cases, so
/// tag protocols and everything above them handle reader trouble once, whatever the reader.
public enum TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The object left the field: the backend saw it go (PC/SC removal, libnfc presence check
    /// failing). A read in progress is lost; callers say "moved away too soon", never show a
    /// partial message.
    case objectRemoved
    /// The object did not answer in time but may still be there (a plain Ultralight falls
    /// silent on a command it does not know; a weak coupling drops one frame).
    case timeout
    /// The reader itself went away (unplugged, daemon stopped): nothing more can be read from it.
    case readerGone
    /// The link cannot carry this command (a PC/SC storage-card reader that maps only READ;
    /// an extended-length APDU on a reader without them). The text names what was refused.
    case notSupported(String)
    /// The reader says the object refused the command for want of a password (a PC/SC
    /// storage-card reader's "security status not satisfied", 69 82, for an NTAG21x page its
    /// password protects): the link itself cannot send one, since the reader passes only its own
    /// commands to the chip.
    case passwordNotPassed
    /// The reader or link reported a framing, CRC or protocol fault. The text is the backend's
    /// explanation, for logs.
    case protocolError(String)

    public var description: String {
        switch self {
        case .objectRemoved: "the object was moved away too soon"
        case .timeout: "the object did not answer in time"
        case .readerGone: "the reader is no longer available"
        case .notSupported(let what): "the reader cannot send \(what)"
        case .passwordNotPassed: "the object refused to be read without its password, which this reader cannot send (status 69 82)"
        case .protocolError(let detail): "reader protocol error: \(detail)"
        }
    }
}
