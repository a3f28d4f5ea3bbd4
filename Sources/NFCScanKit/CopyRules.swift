/// Checks a string a person will read against the copy rules in ../shared/guidance/nfc.md.
public enum CopyRules {
    /// What is wrong with a string.
    public enum Problem: Hashable, Sendable, CustomStringConvertible {
        /// A word people should not read: "tap"/"touch" (they only hold things near), or jargon.
        case bannedWord(String)
        /// A sentence must end with `.`, `!`, `?` or `…`.
        case noEndingPunctuation
        /// A sentence must start with a capital letter.
        case noCapital
        /// Longer than ``maximumLength`` characters (it would be cut off).
        case tooLong(Int)
        case empty

        public var description: String {
            switch self {
            case .bannedWord(let word): "uses the word \"\(word)\""
            case .noEndingPunctuation: "does not end with punctuation"
            case .noCapital: "does not start with a capital letter"
            case .tooLong(let count): "is \(count) characters long (at most \(CopyRules.maximumLength))"
            case .empty: "is empty"
            }
        }
    }

    /// Aim for this many characters in English so nothing is truncated.
    public static let maximumLength = 60

    /// Words (and phrases) a person must not read, matched whole and case-insensitively.
    public static let bannedWords: [String] = [
        // Don't ask people to touch things.
        "tap", "taps", "tapped", "tapping", "touch", "touches", "touched", "touching",
        "swipe", "swiping", "bump", "bumping",
        // No technical terms.
        "nfc", "near-field", "near field", "tag", "tags", "ndef", "rfid", "uid", "iso 14443", "iso/iec 14443",
        "apdu", "pc/sc", "pcsc", "libnfc", "reader session", "mifare", "ntag",
    ]

    /// Every problem of `text`; empty when it follows the rules. Labels ("Link: …") are checked
    /// for words and length only.
    public static func problems(in text: String, isSentence: Bool = true) -> [Problem] {
        var problems: [Problem] = []
        let trimmed = text.trimmingWhitespace
        if trimmed.isEmpty { return [.empty] }
        let lower = trimmed.lowercased()
        for word in bannedWords where containsWhole(word, in: lower) {
            problems.append(.bannedWord(word))
        }
        if isSentence {
            if let first = trimmed.first, first.isLetter, !first.isUppercase { problems.append(.noCapital) }
            if let last = trimmed.last, !".!?…".contains(last) { problems.append(.noEndingPunctuation) }
        }
        if trimmed.count > maximumLength { problems.append(.tooLong(trimmed.count)) }
        return problems
    }

    /// Whether `word` occurs in `text` with no letter or digit directly on either side.
    static func containsWhole(_ word: String, in text: String) -> Bool {
        let characters = Array(text), target = Array(word)
        guard target.count <= characters.count else { return false }
        for start in 0...(characters.count - target.count) where Array(characters[start..<(start + target.count)]) == target {
            let before = start == 0 ? nil : characters[start - 1]
            let afterIndex = start + target.count
            let after = afterIndex < characters.count ? characters[afterIndex] : nil
            let isWordCharacter: (Character?) -> Bool = { $0.map { $0.isLetter || $0.isNumber } ?? false }
            if !isWordCharacter(before), !isWordCharacter(after) { return true }
        }
        return false
    }
}

extension String {
    var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
