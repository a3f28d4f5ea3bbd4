/// The sheet's wire format: one UTF-8 line per message, on the sheet program's standard input
/// (views, from the daemon) and standard output (events, from the sheet). Fields are separated by
/// tabs; each field is `key=value`, the value escaped (`\\`, `\t`, `\n`), so no text can break a
/// line or a field. Both ends bound what they read (``maximumLine``) and refuse what they do not
/// understand, so either side may treat the other as untrusted.
///
///     view<TAB>app=Posters<TAB>icon=org.example.Posters<TAB>message=Hold the poster near the reader.<TAB>mark=looking<TAB>button=cancel normal Cancel
///     pressed<TAB>id=cancel
public enum SheetWire {
    /// No line is longer (in bytes, without its newline): a view's text is a few sentences.
    public static let maximumLine = 16 * 1024
    /// A view has at most this many buttons.
    public static let maximumButtons = 4
    /// A button's id: at most this many letters, digits and `-`.
    public static let maximumID = 32

    public enum Fault: Error, Equatable, CustomStringConvertible {
        case tooLong
        case notUTF8
        case unknownKind(String)
        case badField(String)
        case missing(String)
        var detail: String {
            switch self {
            case .tooLong: "the line is longer than \(SheetWire.maximumLine) bytes"
            case .notUTF8: "the line is not UTF-8"
            case .unknownKind(let kind): "unknown message \"\(kind.prefix(32))\""
            case .badField(let field): "bad field \"\(field.prefix(32))\""
            case .missing(let key): "no \(key)"
            }
        }
        public var description: String { detail }
    }

    // MARK: Views (daemon → sheet)

    /// The line for `view`, without its newline.
    public static func line(for view: SheetView) -> String {
        var fields = ["view", field("app", view.app), field("icon", view.icon), field("message", view.message),
                      field("detail", view.detail), field("mark", view.mark.rawValue)]
        for button in view.buttons.prefix(maximumButtons) {
            fields.append(field("button", "\(button.id) \(button.style.rawValue) \(button.label)"))
        }
        if let closeAfter = view.closeAfter { fields.append(field("close-after", "\(closeAfter)")) }
        return fields.joined(separator: "\t")
    }

    /// The view a line describes.
    public static func view(from line: some Collection<UInt8>) throws(Fault) -> SheetView {
        let (kind, fields) = try split(line)
        guard kind == "view" else { throw .unknownKind(kind) }
        var view = SheetView(app: "", message: "", mark: .looking)
        var seen: Set<String> = []
        for (key, value) in fields {
            guard key == "button" || seen.insert(key).inserted else { throw .badField(key) }
            switch key {
            case "app": view.app = value
            case "icon": view.icon = value
            case "message": view.message = value
            case "detail": view.detail = value
            case "mark":
                guard let mark = SheetView.Mark(rawValue: value) else { throw .badField(key) }
                view.mark = mark
            case "button":
                guard view.buttons.count < maximumButtons else { throw .badField(key) }
                let parts = value.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.count == 3, isID(parts[0]), let style = SheetView.ButtonStyle(rawValue: String(parts[1])), !parts[2].isEmpty else {
                    throw .badField(key)
                }
                view.buttons.append(.init(id: String(parts[0]), label: String(parts[2]), style: style))
            case "close-after":
                guard value.utf8.count <= 6, let milliseconds = Int(value), milliseconds >= 0 else { throw .badField(key) }
                view.closeAfter = milliseconds
            default: throw .badField(key)
            }
        }
        guard seen.contains("message") else { throw .missing("message") }
        guard seen.contains("mark") else { throw .missing("mark") }
        return view
    }

    // MARK: Events (sheet → daemon)

    public static func line(for event: SheetEvent) -> String {
        switch event {
        case .shown: "shown"
        case .pressed(let id): "pressed\t" + field("id", id)
        }
    }

    public static func event(from line: some Collection<UInt8>) throws(Fault) -> SheetEvent {
        let (kind, fields) = try split(line)
        switch kind {
        case "shown":
            guard fields.isEmpty else { throw .badField(fields[0].key) }
            return .shown
        case "pressed":
            guard fields.count == 1, fields[0].key == "id", isID(Substring(fields[0].value)) else {
                throw fields.isEmpty ? .missing("id") : .badField(fields[0].key)
            }
            return .pressed(fields[0].value)
        default: throw .unknownKind(kind)
        }
    }

    // MARK: Fields

    private static func field(_ key: String, _ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for character in value.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\t": escaped += "\\t"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return key + "=" + escaped
    }

    private static func isID(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumID
            && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D }
    }

    /// The line's kind and its fields, unescaped.
    private static func split(_ line: some Collection<UInt8>) throws(Fault) -> (String, [(key: String, value: String)]) {
        guard line.count <= maximumLine else { throw .tooLong }
        guard let text = String(validating: line, as: UTF8.self) else { throw .notUTF8 }
        let parts = text.split(separator: "\t", omittingEmptySubsequences: false)
        let kind = String(parts[0])
        var fields: [(key: String, value: String)] = []
        for part in parts.dropFirst() {
            guard let equals = part.firstIndex(of: "="), equals != part.startIndex else { throw .badField(String(part)) }
            let key = part[..<equals]
            guard key.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D }) else { throw .badField(String(key)) }
            fields.append((String(key), try unescape(part[part.index(after: equals)...], key: String(key))))
        }
        return (kind, fields)
    }

    private static func unescape(_ value: Substring, key: String) throws(Fault) -> String {
        guard value.contains("\\") else { return String(value) }
        var result = ""
        var escaping = false
        for scalar in value.unicodeScalars {
            if escaping {
                switch scalar {
                case "\\": result += "\\"
                case "t": result += "\t"
                case "n": result += "\n"
                case "r": result += "\r"
                default: throw .badField(key)
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        guard !escaping else { throw .badField(key) }
        return result
    }
}
