/// A desktop entry's `Exec` key, split into arguments and field codes as the Desktop Entry
/// Specification ("The Exec key") says, and expanded into the argument vector a program is
/// started with: never through a shell, so nothing in a file name, a link or an app's name is
/// ever read as shell syntax.
///
/// Refused (``ExecProblem``), so the entry is not used:
/// - an empty line, a quote left open, a reserved character (`"'\><~|&;$*?#()` and the
///   backquote) outside quotes, a bad escape inside quotes;
/// - a field code inside a quoted argument (the spec forbids it; only `%%` is allowed there),
///   an unknown field code, `%F`/`%U`/`%i` not standing alone, more than one of
///   `%f %F %u %U`, a field code in the program itself;
/// - a field code that gives its value to an interpreter as code: an argument following `-c`,
///   `-e`, `--command` or `--eval` (`sh -c %u` would run the link as a shell script).
/// The deprecated codes (`%d %D %n %N %v %m`) are dropped, as the spec says.
public struct ExecCommandLine: Sendable, Hashable {
    /// The field codes that carry a value.
    public enum FieldCode: Character, Sendable, Hashable {
        /// One file (path) / several files.
        case file = "f", files = "F"
        /// One URL / several URLs.
        case url = "u", urls = "U"
        /// `--icon ICON`, from the entry's Icon key.
        case icon = "i"
        /// The entry's (translated) Name.
        case name = "c"
        /// The desktop file's location.
        case location = "k"
    }

    public enum Piece: Sendable, Hashable {
        case literal(String)
        case code(FieldCode)
    }

    /// Each argument as the literal text and field codes it is made of, in order.
    public let arguments: [[Piece]]

    /// The first argument: the program (a name looked up in PATH, or an absolute path).
    public var program: String {
        guard case .literal(let text)? = arguments.first?.first else { return "" }
        return text
    }

    /// Which of `%f %F %u %U` the line takes (nil: none).
    public var valueCode: FieldCode? {
        for argument in arguments {
            for case .code(let code) in argument where [.file, .files, .url, .urls].contains(code) { return code }
        }
        return nil
    }

    /// Whether starting the line needs a file: `%f`/`%F`, or `%u`/`%U` when there is no URL to
    /// give (the file's path stands in for it).
    public func takesFile(withURL: Bool) -> Bool {
        switch valueCode {
        case .file?, .files?: true
        case .url?, .urls?: !withURL
        default: false
        }
    }

    /// Longest accepted line and most arguments: a bound on what one entry may cost.
    public static let maximumLength = 4096
    public static let maximumArguments = 256

    /// Options after which the next argument is code for an interpreter or a terminal.
    static let codeOptions: Set<String> = ["-c", "-e", "--command", "--eval"]

    /// `exec` is the key's value with the string escapes already applied (``DesktopEntryValue/string(_:)``).
    public init(_ exec: String) throws(ExecProblem) {
        guard exec.utf8.count <= Self.maximumLength else { throw .tooLong }
        var arguments: [[Piece]] = []
        var current: [Piece] = []
        var literal = ""
        var inArgument = false, quoted = false, escaped = false, percent = false
        var quotedHere = false

        func flushLiteral() {
            if !literal.isEmpty { current.append(.literal(literal)); literal = "" }
        }
        for scalar in exec.unicodeScalars {
            if quoted {
                if escaped {
                    guard "\"`$\\".unicodeScalars.contains(scalar) else { throw .badEscape }
                    literal.unicodeScalars.append(scalar)
                    escaped = false
                } else if percent {
                    guard scalar == "%" else { throw .fieldCodeInQuotes }
                    literal.append("%")
                    percent = false
                } else if scalar == "\\" {
                    escaped = true
                } else if scalar == "%" {
                    percent = true
                } else if scalar == "\"" {
                    quoted = false
                } else {
                    literal.unicodeScalars.append(scalar)
                }
                continue
            }
            if percent {
                percent = false
                switch scalar {
                case "%": literal.append("%")
                case "d", "D", "n", "N", "v", "m": break
                default:
                    guard let code = FieldCode(rawValue: Character(scalar)) else { throw .unknownFieldCode(String(scalar)) }
                    flushLiteral()
                    current.append(.code(code))
                }
                continue
            }
            switch scalar {
            case " ":
                if inArgument {
                    flushLiteral()
                    if !current.isEmpty || quotedHere { arguments.append(current) }
                    current = []
                    inArgument = false
                    quotedHere = false
                }
            case "\"":
                inArgument = true
                quoted = true
                quotedHere = true
            case "%":
                inArgument = true
                percent = true
            case "\t", "\n", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`":
                throw .reservedCharacter(String(scalar))
            default:
                inArgument = true
                literal.unicodeScalars.append(scalar)
            }
            guard arguments.count <= Self.maximumArguments else { throw .tooManyArguments }
        }
        guard !quoted else { throw .unclosedQuote }
        guard !percent else { throw .unknownFieldCode("") }
        if inArgument {
            flushLiteral()
            if !current.isEmpty || quotedHere { arguments.append(current) }
        }
        guard arguments.count <= Self.maximumArguments else { throw .tooManyArguments }
        guard let first = arguments.first else { throw .empty }
        guard first.count == 1, case .literal(let program) = first[0], !program.isEmpty else { throw .fieldCodeInProgram }

        var valueCodes = 0
        for (index, argument) in arguments.enumerated() {
            for case .code(let code) in argument {
                if [.files, .urls, .icon].contains(code), argument.count != 1 { throw .notStandalone(code.rawValue) }
                if [.file, .files, .url, .urls].contains(code) { valueCodes += 1 }
                if index > 0, code != .icon, case .literal(let previous)? = arguments[index - 1].first,
                   arguments[index - 1].count == 1, Self.codeOptions.contains(previous) {
                    throw .valueAsCode(previous)
                }
            }
        }
        guard valueCodes <= 1 else { throw .severalValueCodes }
        self.arguments = arguments
    }

    /// What the field codes stand for when a program is started.
    public struct Values: Sendable, Equatable {
        public var files: [String]
        public var urls: [String]
        public var icon: String?
        public var name: String
        public var location: String?

        public init(files: [String] = [], urls: [String] = [], icon: String? = nil, name: String, location: String? = nil) {
            self.files = files
            self.urls = urls
            self.icon = icon
            self.name = name
            self.location = location
        }
    }

    /// The argument vector. A `%u`/`%U` with no URL gets the files instead (the spec lets a
    /// local file be passed as its path); an argument that was only field codes with no value
    /// is left out; `%i` becomes `--icon ICON` when there is an icon.
    public func expanded(_ values: Values) -> [String] {
        var result: [String] = []
        let urls = values.urls.isEmpty ? values.files : values.urls
        for argument in arguments {
            if argument.count == 1, case .code(let code) = argument[0] {
                switch code {
                case .files: result += values.files
                case .urls: result += urls
                case .icon: if let icon = values.icon, !icon.isEmpty { result += ["--icon", icon] }
                case .file: if let file = values.files.first { result.append(file) }
                case .url: if let url = urls.first { result.append(url) }
                case .name: result.append(values.name)
                case .location: if let location = values.location { result.append(location) }
                }
                continue
            }
            var text = ""
            for piece in argument {
                switch piece {
                case .literal(let literal): text += literal
                case .code(.file), .code(.files): text += values.files.first ?? ""
                case .code(.url), .code(.urls): text += urls.first ?? ""
                case .code(.name): text += values.name
                case .code(.location): text += values.location ?? ""
                case .code(.icon): break
                }
            }
            result.append(text)
        }
        return result
    }
}

/// Why an `Exec` line is refused.
public enum ExecProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case empty, tooLong, tooManyArguments, unclosedQuote, badEscape
    case reservedCharacter(String)
    case fieldCodeInQuotes
    case unknownFieldCode(String)
    case notStandalone(Character)
    case severalValueCodes
    case fieldCodeInProgram
    case valueAsCode(String)

    public var description: String {
        switch self {
        case .empty: "Exec is empty"
        case .tooLong: "Exec is longer than \(ExecCommandLine.maximumLength) bytes"
        case .tooManyArguments: "Exec has more than \(ExecCommandLine.maximumArguments) arguments"
        case .unclosedQuote: "Exec leaves a quote open"
        case .badEscape: "Exec: inside quotes only \\\", \\`, \\$ and \\\\ are escapes"
        case .reservedCharacter(let character):
            "Exec: '\(character.unicodeScalars.first.map { $0.value < 0x20 ? "\\u{\(String($0.value, radix: 16))}" : String($0) } ?? "")' must be inside double quotes"
        case .fieldCodeInQuotes: "Exec: a field code inside a quoted argument (only %% may be there)"
        case .unknownFieldCode(let code): "Exec: %\(code) is not a field code"
        case .notStandalone(let code): "Exec: %\(code) must be an argument of its own"
        case .severalValueCodes: "Exec: at most one of %f, %F, %u, %U"
        case .fieldCodeInProgram: "Exec: the program must be a plain name or path"
        case .valueAsCode(let option): "Exec: a field code after \(option) would run the object's content as code"
        }
    }
}
