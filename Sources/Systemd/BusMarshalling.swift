import CSystemd
import DBusValues
import Glibc

/// Moves ``DBusValue``s into and out of sd-bus messages. The only place that walks a message's
/// C containers; everything above works with values.
enum BusMarshalling {
    static func append(_ values: [DBusValue], to message: OpaquePointer) throws(BusError) {
        for value in values { try append(value, to: message) }
    }

    static func append(_ value: DBusValue, to message: OpaquePointer) throws(BusError) {
        func check(_ result: Int32) throws(BusError) {
            if result < 0 { throw .marshal("appending \(value.signature): \(errnoText(-result))") }
        }
        func basic<T>(_ type: Character, _ raw: T) throws(BusError) {
            var raw = raw
            try check(withUnsafePointer(to: &raw) { sd_bus_message_append_basic(message, CChar(type.asciiValue!), $0) })
        }
        switch value {
        case .byte(let v): try basic("y", v)
        case .boolean(let v): try basic("b", Int32(v ? 1 : 0))
        case .int16(let v): try basic("n", v)
        case .uint16(let v): try basic("q", v)
        case .int32(let v): try basic("i", v)
        case .uint32(let v): try basic("u", v)
        case .int64(let v): try basic("x", v)
        case .uint64(let v): try basic("t", v)
        case .double(let v): try basic("d", v)
        case .unixFD(let v): try basic("h", v)
        case .string(let s), .objectPath(let s), .signature(let s):
            // Strings are passed as the characters themselves, not a pointer to them. D-Bus
            // strings hold no NUL, and as a C string one would end the value there: each becomes
            // U+FFFD, so what follows it (text from an object, say) still arrives.
            let type = value.signature.utf8.first!
            let whole = s.utf8.contains(0) ? String(s.unicodeScalars.map { $0 == "\u{0}" ? "\u{FFFD}" : Character($0) }) : s
            try check(whole.withCString { sd_bus_message_append_basic(message, CChar(type), $0) })
        case .array(let element, let elements):
            try container("a", element, message) { () throws(BusError) in
                for item in elements {
                    guard item.signature == element else {
                        throw .marshal("an array of \(element) holds a \(item.signature)")
                    }
                    try append(item, to: message)
                }
            }
        case .dictionary(let key, let valueType, let entries):
            let entry = "{" + key + valueType + "}"
            try container("a", entry, message) { () throws(BusError) in
                for item in entries {
                    guard item.key.signature == key, item.value.signature == valueType else {
                        throw .marshal("a dictionary \(entry) holds {\(item.key.signature)\(item.value.signature)}")
                    }
                    try container("e", key + valueType, message) { () throws(BusError) in
                        try append(item.key, to: message)
                        try append(item.value, to: message)
                    }
                }
            }
        case .structure(let fields):
            let inner = fields.map(\.signature).joined()
            try container("r", inner, message) { () throws(BusError) in try append(fields, to: message) }
        case .variant(let inner):
            try container("v", inner.signature, message) { () throws(BusError) in try append(inner, to: message) }
        }
    }

    private static func container(_ type: Character, _ contents: String, _ message: OpaquePointer,
                                  _ body: () throws(BusError) -> Void) throws(BusError) {
        let opened = contents.withCString { sd_bus_message_open_container(message, CChar(type.asciiValue!), $0) }
        if opened < 0 { throw .marshal("opening \(type)\(contents): \(errnoText(-opened))") }
        try body()
        let closed = sd_bus_message_close_container(message)
        if closed < 0 { throw .marshal("closing \(type)\(contents): \(errnoText(-closed))") }
    }

    /// Every value of `message`, within `limit`: a message over it is refused (``BusError/tooLarge(_:)``)
    /// as soon as its reading passes the bound, before values are made of the rest, so a hostile
    /// peer's 60 MiB argument costs about nothing.
    static func readAll(from message: OpaquePointer, limit: ReadLimit) throws(BusError) -> [DBusValue] {
        var budget = limit
        do {
            return try readAll(from: message, budget: &budget)
        } catch .tooLarge {
            throw .tooLarge("more than \(limit.bytes) bytes or \(limit.values) values in one message")
        }
    }

    /// Every value left at the current level of `message`.
    static func readAll(from message: OpaquePointer, budget: inout ReadLimit) throws(BusError) -> [DBusValue] {
        var values: [DBusValue] = []
        while let value = try readNext(from: message, budget: &budget) { values.append(value) }
        return values
    }

    /// The next value at the current level, or nil at its end.
    static func readNext(from message: OpaquePointer, budget: inout ReadLimit) throws(BusError) -> DBusValue? {
        var type: CChar = 0
        var contentsPointer: UnsafePointer<CChar>? = nil
        let peeked = sd_bus_message_peek_type(message, &type, &contentsPointer)
        if peeked < 0 { throw .marshal("reading: \(errnoText(-peeked))") }
        if peeked == 0 { return nil }
        let contents = contentsPointer.map { String(cString: $0) } ?? ""
        let code = Character(Unicode.Scalar(UInt8(bitPattern: type)))
        try budget.spend(values: 1, bytes: 8)

        func basic<T>(_ initial: T) throws(BusError) -> T {
            var raw = initial
            let result = withUnsafeMutablePointer(to: &raw) { sd_bus_message_read_basic(message, type, $0) }
            if result < 0 { throw .marshal("reading \(code): \(errnoText(-result))") }
            return raw
        }
        switch code {
        case "y": return .byte(try basic(UInt8(0)))
        case "b": return .boolean(try basic(Int32(0)) != 0)
        case "n": return .int16(try basic(Int16(0)))
        case "q": return .uint16(try basic(UInt16(0)))
        case "i": return .int32(try basic(Int32(0)))
        case "u": return .uint32(try basic(UInt32(0)))
        case "x": return .int64(try basic(Int64(0)))
        case "t": return .uint64(try basic(UInt64(0)))
        case "d": return .double(try basic(Double(0)))
        case "h":
            // The message owns the descriptor; the value gets a duplicate of its own.
            let fd = try basic(Int32(-1))
            return .unixFD(fcntl(fd, F_DUPFD_CLOEXEC, 3))
        case "s", "o", "g":
            let pointer = try basic(UnsafePointer<CChar>?.none)
            try budget.spend(values: 0, bytes: pointer.map { strlen($0) } ?? 0)
            let string = pointer.map { String(cString: $0) } ?? ""
            return code == "s" ? .string(string) : code == "o" ? .objectPath(string) : .signature(string)
        case "a":
            if let fixed = try fixedArray(contents, message, budget: &budget) { return fixed }
            return try inside("a", contents, message) { () throws(BusError) -> DBusValue in
                if contents.hasPrefix("{") {
                    let types = splitSignature(String(contents.dropFirst().dropLast())) ?? []
                    guard types.count == 2 else { throw .marshal("bad dictionary entry \(contents)") }
                    var entries: [DBusDictEntry] = []
                    while try nextIsEntry(message) {
                        let pair = try inside("e", types[0] + types[1], message) { () throws(BusError) in try readAll(from: message, budget: &budget) }
                        guard pair.count == 2 else { throw .marshal("dictionary entry with \(pair.count) values") }
                        entries.append(DBusDictEntry(pair[0], pair[1]))
                    }
                    return .dictionary(keySignature: types[0], valueSignature: types[1], entries)
                }
                return .array(elementSignature: contents, try readAll(from: message, budget: &budget))
            }
        case "r":
            return try inside("r", contents, message) { () throws(BusError) in .structure(try readAll(from: message, budget: &budget)) }
        case "v":
            return try inside("v", contents, message) { () throws(BusError) -> DBusValue in
                guard let inner = try readNext(from: message, budget: &budget) else { throw .marshal("empty variant") }
                return .variant(inner)
            }
        default:
            throw .marshal("unknown type \(code)")
        }
    }

    /// An array of a fixed-size type (`ay`, `au`, …) read in one piece, its size checked against
    /// the budget before a value is made; nil for other arrays.
    private static func fixedArray(_ contents: String, _ message: OpaquePointer, budget: inout ReadLimit) throws(BusError) -> DBusValue? {
        let sizes: [String: Int] = ["y": 1, "b": 4, "n": 2, "q": 2, "i": 4, "u": 4, "x": 8, "t": 8, "d": 8]
        guard let size = sizes[contents], let type = contents.utf8.first else { return nil }
        var pointer: UnsafeRawPointer?
        var length = 0
        let result = sd_bus_message_read_array(message, CChar(bitPattern: type), &pointer, &length)
        if result < 0 { throw .marshal("reading a\(contents): \(errnoText(-result))") }
        try budget.spend(values: 1, bytes: length)
        guard let pointer, length > 0 else { return .array(elementSignature: contents, []) }
        let raw = UnsafeRawBufferPointer(start: pointer, count: length)
        func each<T>(_: T.Type, _ make: (T) -> DBusValue) -> [DBusValue] {
            (0..<(length / size)).map { make(raw.loadUnaligned(fromByteOffset: $0 * size, as: T.self)) }
        }
        let values: [DBusValue] = switch contents {
        case "y": raw.map(DBusValue.byte)
        case "b": each(Int32.self) { .boolean($0 != 0) }
        case "n": each(Int16.self, DBusValue.int16)
        case "q": each(UInt16.self, DBusValue.uint16)
        case "i": each(Int32.self, DBusValue.int32)
        case "u": each(UInt32.self, DBusValue.uint32)
        case "x": each(Int64.self, DBusValue.int64)
        case "t": each(UInt64.self, DBusValue.uint64)
        default: each(Double.self, DBusValue.double)
        }
        return .array(elementSignature: contents, values)
    }

    private static func nextIsEntry(_ message: OpaquePointer) throws(BusError) -> Bool {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>? = nil
        let peeked = sd_bus_message_peek_type(message, &type, &contents)
        if peeked < 0 { throw .marshal("reading: \(errnoText(-peeked))") }
        return peeked > 0 && type == CChar(UInt8(ascii: "e"))
    }

    private static func inside<T>(_ type: Character, _ contents: String, _ message: OpaquePointer,
                                  _ body: () throws(BusError) -> T) throws(BusError) -> T {
        let entered = contents.withCString { sd_bus_message_enter_container(message, CChar(type.asciiValue!), $0) }
        if entered < 0 { throw .marshal("entering \(type)\(contents): \(errnoText(-entered))") }
        let value = try body()
        let exited = sd_bus_message_exit_container(message)
        if exited < 0 { throw .marshal("leaving \(type)\(contents): \(errnoText(-exited))") }
        return value
    }
}

/// How much of a message is read before it is refused as too large: bytes of values (strings by
/// their length, every value at least 8) and values (each element, entry and container counts).
public struct ReadLimit: Sendable, Equatable {
    public var bytes: Int
    public var values: Int

    public init(bytes: Int, values: Int) {
        self.bytes = bytes
        self.values = values
    }

    /// What a method call to a service of ours may carry (Docs/dbus-api.md: the largest
    /// well-formed call, a write session's 64 KiB message or 64 filters of long values, is well below).
    public static let methodCall = ReadLimit(bytes: 1 << 20, values: 1 << 16)
    /// A reply or signal from a peer (logind's and NetworkManager's properties, an app's answer).
    public static let peerMessage = ReadLimit(bytes: 4 << 20, values: 1 << 18)

    mutating func spend(values: Int, bytes: Int) throws(BusError) {
        self.values -= values
        self.bytes -= bytes
        guard self.values >= 0, self.bytes >= 0 else { throw .tooLarge("") }
    }
}

/// `strerror` for a positive errno.
func errnoText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
