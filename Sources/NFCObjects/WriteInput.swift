import NDEF
import NFCTags

/// The checks every face applies to what it is asked to write, before any reader opens: `nfcscan
/// write`'s options and a D-Bus app's `StartWriteSession` are both untrusted, and one set of bounds
/// keeps them from drifting apart (an app may send what the command line may, and no more). Each
/// face names the fault in its own terms (an option, a key) with ``WriteInputFault/requirement``.
public enum WriteInput {
    /// The largest message accepted: more than any object nfcsim or NXP's and ST's chips hold
    /// (NTAG216: 868 bytes; a Type 4 file: 32 KiB), small enough to hold and check in memory.
    public static let maximumMessage = 64 * 1024
    /// A link longer than any browser or notification takes.
    public static let maximumLink = 8192
    /// RTD-Text's language code field holds at most 63 bytes.
    public static let maximumLanguage = 63

    /// A link: one line, not empty, bounded.
    public static func link(_ link: String) throws(WriteInputFault) -> String {
        guard !link.isEmpty else { throw .empty }
        guard link.utf8.count <= maximumLink else { throw .tooLong(limit: maximumLink) }
        guard !link.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { throw .notOneLine }
        // Saved without its scheme, a link reads back like a working one, yet nothing opens it.
        guard URIScheme.of(link) != nil, !link.unicodeScalars.contains(where: \.properties.isWhitespace) else {
            throw .notALink(suggestion: suggestedLink(for: link))
        }
        return link
    }

    /// The web link `text` most likely meant ("example.com/menu" gives "https://example.com/menu"):
    /// when it starts with something shaped like a host name; nil otherwise ("not a url").
    static func suggestedLink(for text: String) -> String? {
        let host = text.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == ":" } }),
              !text.contains(where: \.isWhitespace) else { return nil }
        return "https://" + text
    }

    /// A text: not empty, bounded (several lines allowed).
    public static func text(_ text: String) throws(WriteInputFault) -> String {
        guard !text.isEmpty else { throw .empty }
        guard text.utf8.count <= maximumMessage else { throw .tooLong(limit: maximumMessage) }
        return text
    }

    /// A text's language: an IANA tag as a Text record carries it (ASCII letters, digits and -).
    public static func language(_ tag: String) throws(WriteInputFault) -> String {
        guard (1...maximumLanguage).contains(tag.utf8.count),
              tag.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else { throw .notALanguage }
        return tag
    }

    /// A whole encoded message, bounded and strictly decoded (it came from outside): the write that
    /// saves it as it is.
    public static func message(_ bytes: [UInt8], options: WriteOptions = .init(), lock: Bool = false) throws(WriteInputFault) -> ObjectWrite {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count <= maximumMessage else { throw .tooLong(limit: maximumMessage) }
        let message: NDEFMessage
        do { message = try NDEFMessage(decoding: bytes) } catch { throw .notAMessage(problem: "\(error)") }
        return ObjectWrite(message: bytes, options: options, lock: lock, action: .save(ObjectWrite.subject(of: message)))
    }
}

/// What is wrong with one piece of write input. Developer-facing: the faces put the option's or
/// key's name before ``requirement``.
public enum WriteInputFault: Error, Equatable, Sendable {
    case empty
    case tooLong(limit: Int)
    case notOneLine
    /// Not a whole link: no scheme (`example.com/menu`), or spaces; the web link it likely meant.
    case notALink(suggestion: String?)
    case notALanguage
    /// The codec's explanation, with the byte offset.
    case notAMessage(problem: String)

    /// What the input must be, to follow the option's or key's name.
    public var requirement: String {
        switch self {
        case .empty: "must not be empty"
        case .tooLong(let limit): "must be at most \(limit) bytes"
        case .notOneLine: "must be one line without control characters"
        case .notALink(let suggestion?): "must be a whole link, with its scheme: \(suggestion)"
        case .notALink(nil): "must be a whole link, with its scheme, such as https://example.com/menu"
        case .notALanguage: "must be a language code such as \"en\" or \"zh-Hans\" (letters, digits and -, at most \(WriteInput.maximumLanguage))"
        case .notAMessage(let problem): "is not a well-formed message (NDEF, strictly decoded): \(problem)"
        }
    }
}
