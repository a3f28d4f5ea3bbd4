import NFCScanKit
import NFCTags
import Systemd

/// What an app asks for in `StartWriteSession`, checked: untrusted input, so every size is
/// bounded and every fault is named (the D-Bus error's message says which option and what to send).
struct WriteSessionOptions: Sendable, Equatable {
    /// The object's name, the prompts' language and the timeout, as scan sessions take them
    /// (never `multiple` or an alert message: the prompts are the write catalog's).
    var session = ScanSessionOptions()
    var write: ObjectWrite

    /// The largest message an app may send: more than any object nfcsim or NXP's and ST's chips hold (NTAG216: 868 bytes; Type 4: 32 KiB).
    static let maximumMessage = 64 * 1024
    /// Links and texts as long as a notification ever shows, and more.
    static let maximumText = 8192
    static let passwordLength = 4
    static let keys = "message, uri, text, text-language, erase, lock, format, password, object, language, timeout"

    typealias Refusal = ScanSessionOptions.Refusal

    init(_ values: [String: DBusValue]) throws(Refusal) {
        var contents: [(key: String, write: ObjectWrite)] = []
        var options = WriteOptions()
        var lock = false
        var textLanguage = "en"
        var session: [String: DBusValue] = [:]
        var text: String?
        var uri: String?
        // In key order, so that a call with several faults always gets the same answer.
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "object", "language", "timeout":
                session[key] = value
            case "message":
                let bytes = try Self.bytes(key, value, at: 1...Self.maximumMessage)
                guard let write = ObjectWrite.message(bytes) else {
                    throw .badValue(key, "is not a well-formed message (NDEF, strictly decoded); send uri or text for one record")
                }
                contents.append((key, write))
            case "uri":
                uri = try Self.line(key, value)
                guard uri?.isEmpty == false else { throw .badValue(key, "must not be empty (send erase to empty the object)") }
            case "text":
                text = try Self.string(key, value)
                guard text?.isEmpty == false else { throw .badValue(key, "must not be empty (send erase to empty the object)") }
            case "text-language":
                textLanguage = try Self.line(key, value)
                guard (1...63).contains(textLanguage.utf8.count),
                      textLanguage.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                    throw .badValue(key, "must be a language code such as \"en\" or \"zh-Hans\" (letters, digits and -, at most 63)")
                }
            case "erase":
                guard let flag = value.boolValue else { throw .badType(key, "a boolean (b)") }
                if flag { contents.append((key, .erase())) }
            case "lock":
                guard let flag = value.boolValue else { throw .badType(key, "a boolean (b)") }
                lock = flag
            case "format":
                guard let flag = value.boolValue else { throw .badType(key, "a boolean (b)") }
                options.formatIfBlank = flag
            case "password":
                options.password = try Self.bytes(key, value, at: Self.passwordLength...Self.passwordLength)
            default:
                throw .badValue(key, "is not an option of StartWriteSession (\(Self.keys))")
            }
        }
        // A link and a text may go together, as with nfcscan write: two records, the link first.
        if uri != nil || text != nil {
            guard let write = ObjectWrite.records(link: uri, text: text, language: textLanguage) else {
                throw .badValue("text-language", "cannot go in a text record")
            }
            contents.append((uri != nil ? "uri" : "text", write))
        }
        guard contents.count <= 1 else {
            throw .badValue(contents[1].key, "cannot go with \(contents[0].key): send one of message, uri and/or text, or erase")
        }
        guard var write = contents.first?.write ?? (lock ? ObjectWrite(message: nil, action: .lock) : nil) else {
            throw .badValue("message", "is missing: send one of message (ay), uri (s) and/or text (s), or erase (b), or lock (b) alone")
        }
        write.options = options
        write.lock = lock
        self.write = write
        self.session = try ScanSessionOptions(session)
    }

    private static func bytes(_ key: String, _ value: DBusValue, at sizes: ClosedRange<Int>) throws(Refusal) -> [UInt8] {
        guard case .array("y", let elements) = value.unwrapped else { throw .badType(key, "bytes (ay)") }
        guard sizes.contains(elements.count) else {
            throw .badValue(key, sizes.count == 1 ? "must be \(sizes.lowerBound) bytes" : "must be \(sizes.lowerBound) to \(sizes.upperBound) bytes")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(elements.count)
        for element in elements {
            guard case .byte(let byte) = element else { throw .badType(key, "bytes (ay)") }
            bytes.append(byte)
        }
        return bytes
    }

    private static func string(_ key: String, _ value: DBusValue) throws(Refusal) -> String {
        guard let text = value.stringValue else { throw .badType(key, "a string (s)") }
        guard text.utf8.count <= maximumText else { throw .badValue(key, "must be at most \(maximumText) bytes") }
        return text
    }

    /// One line without control characters (a link or a language code).
    private static func line(_ key: String, _ value: DBusValue) throws(Refusal) -> String {
        let text = try string(key, value)
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .badValue(key, "must be one line without control characters")
        }
        return text
    }
}

extension DBusValue {
    /// The value inside a variant (one level).
    fileprivate var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner }
        return self
    }
}
