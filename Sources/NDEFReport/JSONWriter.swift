/// Writes a ``ReportValue`` as compact JSON (RFC 8259).
///
/// Text from an object is untrusted: every control character (C0, DEL, C1), line/paragraph
/// separator and bidirectional formatting character is written as a `\u` escape, so the JSON is
/// safe to print to a terminal and still decodes to the exact original string.
public enum JSONWriter {
    public static func string(_ value: ReportValue) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func write(_ value: ReportValue, to out: inout [UInt8]) {
        switch value {
        case .string(let s): writeString(s, to: &out)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            for (i, field) in fields.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeString(field.key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(field.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out.append(contentsOf: "\\\"".utf8)
            case "\\": out.append(contentsOf: "\\\\".utf8)
            case "\n": out.append(contentsOf: "\\n".utf8)
            case "\r": out.append(contentsOf: "\\r".utf8)
            case "\t": out.append(contentsOf: "\\t".utf8)
            default:
                if DisplayText.isUnsafe(scalar) {
                    // Characters outside the BMP are never unsafe, so one \u escape suffices.
                    let v = scalar.value
                    out.append(contentsOf: "\\u".utf8)
                    for shift in stride(from: 12, through: 0, by: -4) { out.append(hex[Int(v >> UInt32(shift) & 0xF)]) }
                } else {
                    out.append(contentsOf: String(scalar).utf8)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
