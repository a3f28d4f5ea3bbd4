/// The rule an application ID read from a unit name or `/.flatpak-info` must pass before it
/// names anything (a desktop entry, a permission, a line the person reads).
///
/// The Desktop Entry Specification ("Desktop File ID", "D-Bus Activation") gives application IDs
/// the rules of D-Bus well-known bus names: "a sequence of non-empty elements separated by dots
/// (U+002E FULL STOP), none of which starts with a digit, and each of which contains only
/// characters from the set [A-Za-z0-9-_]", at most 255 bytes, with at least two elements. Real
/// desktop file IDs of apps that never took a reverse-DNS name (`firefox-esr`, `vlc`) have one
/// element, and a few reverse-DNS names have an element starting with a digit after the first
/// (`org.gnome.2048`-like), so this rule is that one, with two leniencies:
/// - one element is enough;
/// - only the first element may not start with a digit (nor with `-`: the ID's first character
///   is a letter or `_`).
/// Everything else is refused: empty elements (`a..b`, a leading or trailing dot), any byte
/// outside `[A-Za-z0-9._-]` (so no `/`, space, NUL or non-ASCII), more than 255 bytes.
public enum ApplicationID {
    public static let maximumBytes = 255

    /// Whether `text` is an application ID by the rule above.
    public static func isValid(_ text: some StringProtocol) -> Bool {
        isValid(bytes: Array(text.utf8))
    }

    static func isValid(bytes: [UInt8]) -> Bool {
        guard let first = bytes.first, bytes.count <= maximumBytes else { return false }
        guard isLetter(first) || first == UInt8(ascii: "_") else { return false }
        var elementLength = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard elementLength > 0 else { return false }
                elementLength = 0
                continue
            }
            guard isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") else { return false }
            elementLength += 1
        }
        return elementLength > 0
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
