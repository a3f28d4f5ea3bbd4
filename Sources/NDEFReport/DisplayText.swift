/// Makes text read from an object safe to show a person: in a terminal, a notification or a log.
///
/// Objects are untrusted. Their text may carry terminal escape sequences, bidirectional overrides
/// that reorder what a person reads (making `evil.com/moc.elgoog` look like a trusted link), or be
/// long enough to push everything else off the screen.
public enum DisplayText {
    /// Control characters (C0 except none, DEL, C1), line/paragraph separators, and the Unicode
    /// bidirectional formatting characters (embeddings, overrides, isolates, marks).
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x061C: true          // LRM, RLM, ALM
        case 0x202A...0x202E: true                 // LRE, RLE, PDF, LRO, RLO
        case 0x2066...0x2069: true                 // LRI, RLI, FSI, PDI
        case 0x2028, 0x2029: true                  // line and paragraph separators
        default: false
        }
    }

    /// One line of display text: unsafe characters shown as `\u{…}` escapes (so nothing is
    /// hidden), and at most `maxCharacters` characters, ending in `…` when shortened.
    public static func sanitized(_ text: String, maxCharacters: Int = 200) -> String {
        var out = ""
        var count = 0
        for character in text {
            if count == maxCharacters {
                out.append("…")
                return out
            }
            for scalar in character.unicodeScalars {
                if isUnsafe(scalar) {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            count += 1
        }
        return out
    }
}
