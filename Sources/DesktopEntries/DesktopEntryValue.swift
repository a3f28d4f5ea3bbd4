/// The value types of the Desktop Entry Specification ("Possible value types"), read from a
/// value as written. Each returns nil for a value that is not of its type.
public enum DesktopEntryValue {
    /// `string`/`localestring`: the escapes `\s`, `\n`, `\t`, `\r`, `\\` applied; any other
    /// escape, or a lone `\` at the end, is not a valid value.
    public static func string(_ raw: String) -> String? {
        var result = ""
        var escaped = false
        for scalar in raw.unicodeScalars {
            if escaped {
                switch scalar {
                case "s": result.append(" ")
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "\\": result.append("\\")
                default: return nil
                }
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return escaped ? nil : result
    }

    /// `boolean`: exactly `true` or `false`.
    public static func boolean(_ raw: String) -> Bool? {
        switch raw {
        case "true": true
        case "false": false
        default: nil
        }
    }

    /// A list of strings: `;`-separated, `\;` for a `;` inside an element, the last `;`
    /// optional; each element's other escapes as ``string(_:)``. Empty elements are dropped.
    public static func list(_ raw: String) -> [String]? {
        guard let elements = rawElements(raw) else { return nil }
        var result: [String] = []
        for element in elements {
            guard let value = string(element) else { return nil }
            result.append(value)
        }
        return result
    }

    /// A list's elements with only `\;` undone (their other escapes left as written, for a
    /// format nested inside, such as `X-NFCScan-Filters`'s `,`). Empty elements are dropped.
    public static func rawElements(_ raw: String) -> [String]? {
        var elements: [String] = []
        var current = ""
        var escaped = false
        for scalar in raw.unicodeScalars {
            if escaped {
                if scalar == ";" { current.append(";") } else { current.unicodeScalars.append(contentsOf: ["\\", scalar]) }
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == ";" {
                elements.append(current)
                current = ""
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        if escaped { return nil }
        elements.append(current)
        return elements.filter { !$0.isEmpty }
    }
}
