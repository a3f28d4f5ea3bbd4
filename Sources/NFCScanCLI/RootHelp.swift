import ArgumentParser

/// `nfcscan --help`: the root's help with the options of the default command (scan) in place of
/// the root's own two, so the first help a person reads shows how to scan as well as the
/// subcommands. `nfcscan scan --help` and `nfcscan help SUBCOMMAND` stay argument-parser's.
enum RootHelp {
    /// Whether `arguments` ask for the root's help (`nfcscan --help`, `-h`, `help`).
    static func isRequested(by arguments: [String]) -> Bool {
        arguments.count == 1 && ["--help", "-h", "help"].contains(arguments[0])
    }

    static func text(columns: Int? = nil) -> String {
        merge(root: NFCScanCommand.helpMessage(columns: columns),
              scan: NFCScanCommand.helpMessage(for: ScanCommand.self, columns: columns))
    }

    /// `root` with its USAGE and OPTIONS sections taken from `scan` (its usage as `nfcscan
    /// [scan] …`, then `nfcscan <subcommand>`).
    static func merge(root: String, scan: String) -> String {
        let scanSections = sections(of: scan)
        var result: [String] = []
        for section in sections(of: root) {
            switch section.title {
            case "USAGE":
                guard let usage = scanSections.first(where: { $0.title == "USAGE" }) else { result.append(section.text); continue }
                let named = "USAGE: nfcscan scan"
                let scanUsage = usage.text.hasPrefix(named) ? "USAGE: nfcscan [scan]" + usage.text.dropFirst(named.count) : usage.text
                result.append(trimmed(scanUsage) + "\n       nfcscan <subcommand> [<options>]\n\n")
            case "OPTIONS":
                result.append(trimmed(scanSections.first(where: { $0.title == "OPTIONS" })?.text ?? section.text) + "\n\n")
            default:
                result.append(section.text)
            }
        }
        return result.joined()
    }

    private static func trimmed(_ text: String) -> String {
        String(text.reversed().drop(while: \.isNewline).reversed())
    }

    /// The help's sections: each starts at a line beginning with a capitalised title and a colon
    /// ("USAGE: …", "OPTIONS:"); the text before the first is one untitled section.
    static func sections(of help: String) -> [(title: String, text: String)] {
        var sections: [(title: String, text: String)] = [("", "")]
        for line in help.split(separator: "\n", omittingEmptySubsequences: false).dropLast(help.hasSuffix("\n") ? 1 : 0) {
            if let colon = line.firstIndex(of: ":"), line[..<colon].allSatisfy({ $0.isUppercase }), colon > line.startIndex {
                sections.append((String(line[..<colon]), ""))
            }
            sections[sections.count - 1].text += line + "\n"
        }
        return sections
    }
}
