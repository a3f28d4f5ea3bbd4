import ArgumentParser
import NFCCopy
#if canImport(Glibc)
import Glibc
#endif

/// Which object the prompts name and which reader to use: what scanning and every command that
/// changes an object share.
struct ObjectChoice: ParsableArguments {
    @Option(help: ArgumentHelp("What the person holds, named in the prompts (poster, badge, toy, label).", valueName: "name"))
    var object: String?

    @Option(help: ArgumentHelp("Use only this reader: its connstring (pn532_uart:/dev/ttyUSB0) or part of its name (libnfc or pcscd's).", valueName: "name"))
    var reader: String?

    func validate() throws {
        if let object, object.isEmpty || object.count > 30 { throw ValidationError("--object needs a short name, such as poster") }
        if let object, let problem = Self.problem(withName: object) { throw ValidationError(problem) }
    }

    /// Why `name` cannot go into the prompts as it is, if it cannot: it is put after "the" and
    /// "another" ("Hold the poster near…"), so it carries no article, and people read it, so it
    /// follows the copy rules' words (no "NFC tag").
    static func problem(withName name: String) -> String? {
        for article in ["a", "an", "the"] {
            let prefix = article + " "
            if name.lowercased().hasPrefix(prefix), name.count > prefix.count {
                return "--object takes the name alone, without \"\(article)\": --object \"\(name.dropFirst(prefix.count))\""
            }
        }
        for case .bannedWord(let word) in CopyRules.problems(in: name, isSentence: false) {
            return "--object is read by people: \"\(word)\" is a technical word; name what they hold (poster, badge, toy, label)"
        }
        return nil
    }
}

/// What every command that works on one object takes: which object and reader, how long to wait,
/// and how to report.
struct ObjectCommandOptions: ParsableArguments {
    @OptionGroup var choice: ObjectChoice
    var object: String? { choice.object }
    var reader: String? { choice.reader }

    @Option(parsing: .unconditional, help: ArgumentHelp("Give up when no object comes within this many seconds (default 60).", valueName: "seconds"))
    var timeout: Double?

    @Flag(help: "Print a JSON report on standard output instead of sentences.")
    var json = false

    @Flag(help: "Also print the technical cause of failures, and details of each exchange, on standard error.")
    var verbose = false

    func validate() throws {
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout needs a positive number of seconds") }
    }

    /// How long to wait for the object.
    var wait: Duration { .milliseconds(Int64((timeout ?? 60) * 1000)) }
}

/// `--password`, or NFCSCAN_PASSWORD: the password of an object that protects itself with one.
/// The command line shows it to every user of the computer (ps); the environment only to the
/// person's own processes.
struct PasswordOption: ParsableArguments {
    static let environmentVariable = "NFCSCAN_PASSWORD"

    @Option(help: ArgumentHelp("The object's password, when one protects it (or NFCSCAN_PASSWORD, which other users cannot see).", valueName: "8 hex digits"))
    var password: ObjectPassword?

    func validate() throws {
        if password == nil, let text = Self.environment, ObjectPassword(argument: text) == nil {
            throw ValidationError("\(Self.environmentVariable) needs 8 hexadecimal digits, such as 1a2b3c4d")
        }
    }

    /// The password given, nil for none.
    var bytes: [UInt8]? { (password ?? Self.environment.flatMap(ObjectPassword.init(argument:)))?.bytes }

    private static var environment: String? {
        guard let value = getenv(environmentVariable) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}

/// An NTAG password, 8 hexadecimal digits (4 bytes).
struct ObjectPassword: ExpressibleByArgument {
    var bytes: [UInt8]

    init?(argument: String) {
        let digits = argument.filter { $0 != ":" && $0 != " " }
        guard digits.count == 8, digits.allSatisfy(\.isHexDigit) else { return nil }
        bytes = stride(from: 0, to: 8, by: 2).map { index in
            let start = digits.index(digits.startIndex, offsetBy: index)
            return UInt8(digits[start..<digits.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    static var defaultValueDescription: String { "8 hexadecimal digits" }
}
