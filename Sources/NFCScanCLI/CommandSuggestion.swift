/// "Did you mean": the subcommand closest to a word the parser did not know (`nfcscan scna`).
/// argument-parser suggests long options itself; a mistyped subcommand reaches it as an
/// argument of the default command (scan), which it cannot place.
enum CommandSuggestion {
    /// The subcommand `arguments` most likely meant, when their first word is not one but is
    /// close to one (one edit, a swap of two letters counting as one; two for longer names).
    static func subcommand(for arguments: [String], among names: [String]) -> (typed: String, meant: String)? {
        guard let typed = arguments.first, !typed.hasPrefix("-"), !names.contains(typed), typed.count <= 64 else { return nil }
        let ranked = names.map { (name: $0, distance: editDistance(typed.lowercased(), $0)) }
            .filter { $0.distance <= min(2, max(1, $0.name.count / 3)) }
            .min { $0.distance < $1.distance }
        return ranked.map { (typed, $0.name) }
    }

    /// The error for a mistyped subcommand, argument-parser's way: what was typed, the
    /// suggestion, where help is.
    static func message(typed: String, meant: String, command: String) -> String {
        "Error: Unknown subcommand '\(typed)'. Did you mean '\(command) \(meant)'?\n  See '\(command) --help' for more information."
    }

    /// Edit distance over characters: insertions, deletions, substitutions and swaps of two
    /// neighbours (optimal string alignment), the usual typing slips.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
