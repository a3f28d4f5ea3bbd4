/// A JSON value as the JSON dump formats (Proxmark3, Metrodroid) need it, parsed from UTF-8
/// without Foundation (the simulator's modules use the standard library only). Strict RFC 8259
/// syntax, nesting bounded so a hostile file cannot exhaust the stack.
indirect enum DumpJSON: Hashable, Sendable {
    case object([(key: String, value: DumpJSON)])
    case array([DumpJSON])
    case string(String)
    /// A number as written; the formats' numbers (timestamps) are never needed as values.
    case number(String)
    case bool(Bool)
    case null

    static let maxDepth = 32

    static func == (a: DumpJSON, b: DumpJSON) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let x), .array(let y)): x == y
        case (.string(let x), .string(let y)), (.number(let x), .number(let y)): x == y
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null): true
        default: false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .object(let members): for member in members { hasher.combine(member.key); hasher.combine(member.value) }
        case .array(let items): hasher.combine(items)
        case .string(let text), .number(let text): hasher.combine(text)
        case .bool(let value): hasher.combine(value)
        case .null: hasher.combine(0)
        }
    }

    /// The member named `key` (the first, if the file repeats it).
    subscript(key: String) -> DumpJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var members: [(key: String, value: DumpJSON)]? {
        if case .object(let members) = self { members } else { nil }
    }

    var items: [DumpJSON]? {
        if case .array(let items) = self { items } else { nil }
    }

    var text: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// Parses a whole document; the error names the byte offset.
    static func parse(_ bytes: [UInt8]) throws(DumpError) -> DumpJSON {
        var parser = Parser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.error("text after the end of the JSON document") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        func error(_ problem: String) -> DumpError {
            DumpError("byte \(index)", "not valid JSON: " + problem, remedy: DumpError.fromTheReader)
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func expect(_ literal: String) throws(DumpError) {
            for byte in literal.utf8 {
                guard index < bytes.count, bytes[index] == byte else { throw error("expected '\(literal)'") }
                index += 1
            }
        }

        mutating func value(depth: Int) throws(DumpError) -> DumpJSON {
            guard depth < DumpJSON.maxDepth else { throw error("nested more than \(DumpJSON.maxDepth) deep") }
            guard index < bytes.count else { throw error("the file ends where a value should be") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [(key: String, value: DumpJSON)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
                    let key = try string()
                    skipSpace()
                    try expect(":")
                    skipSpace()
                    members.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard index < bytes.count else { throw error("the file ends inside an object") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect("}")
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [DumpJSON] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw error("the file ends inside an array") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect("]")
                    return .array(items)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "n"): try expect("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = index
                while index < bytes.count, "+-.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                guard Double(text) != nil else { throw error("'\(DumpHex.printable(text))' is not a number") }
                return .number(text)
            default:
                throw error("unexpected character")
            }
        }

        mutating func string() throws(DumpError) -> String {
            index += 1
            var utf8: [UInt8] = []
            while true {
                guard index < bytes.count else { throw error("the file ends inside a string") }
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") { return String(decoding: utf8, as: UTF8.self) }
                guard byte >= 0x20 else { throw error("a control character inside a string") }
                guard byte == UInt8(ascii: "\\") else { utf8.append(byte); continue }
                guard index < bytes.count else { throw error("the file ends inside a string") }
                let escape = bytes[index]
                index += 1
                let scalar: Unicode.Scalar
                switch escape {
                case UInt8(ascii: "\""): scalar = "\""
                case UInt8(ascii: "\\"): scalar = "\\"
                case UInt8(ascii: "/"): scalar = "/"
                case UInt8(ascii: "b"): scalar = "\u{08}"
                case UInt8(ascii: "f"): scalar = "\u{0C}"
                case UInt8(ascii: "n"): scalar = "\n"
                case UInt8(ascii: "r"): scalar = "\r"
                case UInt8(ascii: "t"): scalar = "\t"
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16) else {
                        throw error("a \\u escape without four hex digits")
                    }
                    index += 4
                    // Surrogates (a pair or a lone one) stand for text the formats never hold in hex.
                    scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                default:
                    throw error("an unknown escape in a string")
                }
                utf8 += Array(String(scalar).utf8)
            }
        }
    }
}
