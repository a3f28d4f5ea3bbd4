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
            case .tooLong(let count): "is \(count) columns wide (at most \(CopyRules.maximumLength))"
            case .empty: "is empty"
            }
        }
    }

    /// Aim for this many columns so nothing is truncated: 60 characters in English, 30 in
    /// Chinese (each Chinese character takes two columns, as in a terminal).
    public static let maximumLength = 60

    /// Columns `text` takes: East Asian wide and fullwidth characters count two.
    public static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6:
                width + 2
            default:
                width + (scalar.properties.generalCategory == .nonspacingMark ? 0 : 1)
            }
        }
    }

    /// Words (and phrases) a person must not read, matched whole and case-insensitively.
    public static let bannedWords: [String] = [
        // Don't ask people to touch things.
        "tap", "taps", "tapped", "tapping", "touch", "touches", "touched", "touching",
        "swipe", "swiping", "bump", "bumping",
        // No technical terms.
        "nfc", "near-field", "near field", "tag", "tags", "ndef", "rfid", "uid", "iso 14443", "iso/iec 14443",
        "apdu", "pc/sc", "pcsc", "libnfc", "reader session", "mifare", "ntag",
    ]

    /// The same in Simplified Chinese: matched anywhere (Chinese has no spaces between words).
    public static let bannedChineseWords: [String] = [
        "轻触", "轻点", "轻拍", "触碰", "触摸", "碰一碰",
        "近场通信", "近场通讯", "标签", "射频识别",
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
        for word in bannedChineseWords where trimmed.contains(word) {
            problems.append(.bannedWord(word))
        }
        if isSentence {
            // Scripts without case (Chinese) have no capital to start with.
            if let first = trimmed.first, first.isLowercase { problems.append(.noCapital) }
            if let last = trimmed.last, !".!?…。！？".contains(last) { problems.append(.noEndingPunctuation) }
        }
        let width = displayWidth(trimmed)
        if width > maximumLength { problems.append(.tooLong(width)) }
        return problems
    }

    /// Whether `word` occurs in `text` with no (narrow) letter or digit directly on either side.
    static func containsWhole(_ word: String, in text: String) -> Bool {
        let characters = Array(text), target = Array(word)
        guard target.count <= characters.count else { return false }
        for start in 0...(characters.count - target.count) where Array(characters[start..<(start + target.count)]) == target {
            let before = start == 0 ? nil : characters[start - 1]
            let afterIndex = start + target.count
            let after = afterIndex < characters.count ? characters[afterIndex] : nil
            // A Chinese character next to a Latin word does not join it ("请轻触NFC标签" holds "nfc").
            let isWordCharacter: (Character?) -> Bool = {
                $0.map { ($0.isLetter || $0.isNumber) && displayWidth(String($0)) == 1 } ?? false
            }
            if !isWordCharacter(before), !isWordCharacter(after) { return true }
        }
        return false
    }
}
