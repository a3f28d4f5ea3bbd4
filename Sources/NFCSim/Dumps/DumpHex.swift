import NDEF

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
            guard token.utf8.count == 2, token.allSatisfy(\.isHexDigit), let byte = UInt8(token, radix: 16) else {
                throw Problem(words: "'\(printable(token))' is not a byte in hex (two digits such as 0A)")
            }
            bytes.append(byte)
        }
        return bytes
    }

    /// Hex digits, as the JSON formats write them ("04AC6B72").
    static func compact(_ text: String) throws(Problem) -> [UInt8] {
        switch Hex.decode(text) {
        case .success(let bytes): return bytes
        case .failure(let error): throw Problem(words: "'\(printable(text))' is not hex (\(error))")
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

extension DumpHex {
    /// Bytes as the Flipper format writes them: uppercase pairs separated by spaces ("04 AC 6B").
    static func spacedString(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789ABCDEF")
        return bytes.map { String([digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]]) }.joined(separator: " ")
    }
}
