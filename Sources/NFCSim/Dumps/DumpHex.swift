/// Hex byte strings as the dump formats write them: "04 AC 6B 72" (Flipper, with `??` for a byte
/// the reader could not read) or "04AC6B72" (Proxmark3, Metrodroid).
enum DumpHex {
    /// One byte of a dump: its value, or nil where the dump says `??`.
    typealias Byte = UInt8?

    /// What is wrong with a hex string, in words for the error message.
    struct Problem: Error {
        var words: String
    }

    /// Space-separated pairs, each two hex digits or `??` (when `unknownAllowed`).
    static func spaced(_ text: Substring, unknownAllowed: Bool = false) throws(Problem) -> [Byte] {
        var bytes: [Byte] = []
        for token in text.split(separator: " ", omittingEmptySubsequences: true) {
            if token == "??" {
                guard unknownAllowed else { throw Problem(words: "'??' (an unread byte) where the value is needed") }
                bytes.append(nil)
                continue
            }
            guard token.utf8.count == 2, let byte = UInt8(token, radix: 16) else {
                throw Problem(words: "'\(printable(token))' is not a byte in hex (two digits such as 0A)")
            }
            bytes.append(byte)
        }
        return bytes
    }

    /// Hex digits with no separators, an even number of them.
    static func compact(_ text: String) throws(Problem) -> [UInt8] {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { throw Problem(words: "'\(printable(text))' has an odd number of hex digits") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else {
                throw Problem(words: "'\(printable(text))' is not hex")
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// At most 40 characters of file text, control characters and anything non-ASCII escaped,
    /// so a hostile file cannot reach the terminal through an error message.
    static func printable<S: StringProtocol>(_ text: S) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(40) {
            out += (0x20..<0x7F).contains(scalar.value) ? String(scalar) : scalar.escaped(asASCII: true)
        }
        return text.unicodeScalars.count > 40 ? out + "…" : out
    }
}
