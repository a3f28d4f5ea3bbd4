/// One D-Bus value with its type: what a message carries, as a value type the rest of the
/// program can build, compare and inspect without touching a bus.
public indirect enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// A file descriptor; the value owns nothing (``BusMessage`` duplicates received descriptors).
    case unixFD(Int32)
    /// An array of values of one type, given by `elementSignature` (so an empty array keeps its type).
    case array(elementSignature: String, [DBusValue])
    /// A dictionary `a{kv}`; entries keep their order.
    case dictionary(keySignature: String, valueSignature: String, [DBusDictEntry])
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value's D-Bus type signature ("s", "a{sv}", …).
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }
}

/// One entry of ``DBusValue/dictionary(keySignature:valueSignature:_:)``.
public struct DBusDictEntry: Sendable, Hashable {
    public var key: DBusValue
    public var value: DBusValue
    public init(_ key: DBusValue, _ value: DBusValue) {
        self.key = key
        self.value = value
    }
}

extension DBusValue {
    /// `a{sv}`, the usual options/properties dictionary, from a Swift dictionary (keys sorted, so
    /// the same dictionary always marshals the same way).
    public static func vardict(_ entries: [String: DBusValue]) -> DBusValue {
        .dictionary(keySignature: "s", valueSignature: "v",
                    entries.sorted { $0.key < $1.key }.map { DBusDictEntry(.string($0.key), .variant($0.value)) })
    }

    /// `as`.
    public static func strings(_ strings: [String]) -> DBusValue {
        .array(elementSignature: "s", strings.map(DBusValue.string))
    }

    public var stringValue: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): s
        case .variant(let inner): inner.stringValue
        default: nil
        }
    }

    public var boolValue: Bool? {
        switch self {
        case .boolean(let b): b
        case .variant(let inner): inner.boolValue
        default: nil
        }
    }

    /// Any integer type that fits an Int.
    public var intValue: Int? {
        switch self {
        case .byte(let v): Int(v)
        case .int16(let v): Int(v)
        case .uint16(let v): Int(v)
        case .int32(let v): Int(v)
        case .uint32(let v): Int(v)
        case .int64(let v): Int(v)
        case .uint64(let v): Int(exactly: v)
        case .variant(let inner): inner.intValue
        default: nil
        }
    }

    /// The elements of an array (or the values of a variant holding one).
    public var arrayValue: [DBusValue]? {
        switch self {
        case .array(_, let elements): elements
        case .variant(let inner): inner.arrayValue
        default: nil
        }
    }

    /// A dictionary with string keys (`a{s…}`), variants unwrapped one level.
    public var stringKeyedValue: [String: DBusValue]? {
        switch self {
        case .dictionary(_, _, let entries):
            var result: [String: DBusValue] = [:]
            for entry in entries {
                guard let key = entry.key.stringValue else { return nil }
                if case .variant(let inner) = entry.value { result[key] = inner } else { result[key] = entry.value }
            }
            return result
        case .variant(let inner): return inner.stringKeyedValue
        default: return nil
        }
    }
}

/// Splits a D-Bus signature into its complete types ("sa{sv}as" → ["s", "a{sv}", "as"]);
/// nil when the signature is malformed.
public func splitSignature(_ signature: String) -> [String]? {
    var types: [String] = []
    var rest = Substring(signature)
    while !rest.isEmpty {
        guard let length = completeTypeLength(rest) else { return nil }
        types.append(String(rest.prefix(length)))
        rest = rest.dropFirst(length)
    }
    return types
}

/// The length of the single complete type at the start of `signature`.
func completeTypeLength(_ signature: Substring) -> Int? {
    guard let first = signature.first else { return nil }
    switch first {
    case "y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g", "h", "v": return 1
    case "a":
        guard let inner = completeTypeLength(signature.dropFirst()) else { return nil }
        return 1 + inner
    case "(", "{":
        let close: Character = first == "(" ? ")" : "}"
        var length = 1
        var rest = signature.dropFirst()
        while let next = rest.first, next != close {
            guard let inner = completeTypeLength(rest) else { return nil }
            length += inner
            rest = rest.dropFirst(inner)
        }
        return rest.first == close ? length + 1 : nil
    default: return nil
    }
}
