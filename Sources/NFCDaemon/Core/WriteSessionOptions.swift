import DBusValues
import NFCObjects
import NFCTags

/// What an app asks for in `StartWriteSession`, checked: untrusted input, so every size is
/// bounded and every fault is named (the D-Bus error's message says which option and what to send).
struct WriteSessionOptions: Sendable, Equatable {
    /// The object's name, the prompts' language and the timeout, as scan sessions take them
    /// (never `multiple` or an alert message: the prompts are the write catalog's).
    var session = ScanSessionOptions()
    var write: ObjectWrite

    static let keys = "message, uri, text, text-language, erase, lock, format, overwrite, password, object, language, timeout, origin"

    typealias Refusal = ScanSessionOptions.Refusal

    init(_ values: [String: DBusValue]) throws(Refusal) {
        var contents: [(key: String, write: ObjectWrite)] = []
        var options = WriteOptions()
        var lock = false
        var overwrite = true
        var textLanguage = "en"
        var session: [String: DBusValue] = [:]
        var text: String?
        var uri: String?
        // In key order, so that a call with several faults always gets the same answer.
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "object", "language", "timeout", "origin":
                session[key] = value
            case "message":
                let bytes = try ScanSessionOptions.bytes(key, value, at: 1...WriteInput.maximumMessage)
                contents.append((key, try Self.checked(key) { () throws(WriteInputFault) in try WriteInput.message(bytes) }))
            case "uri":
                let link = try Self.string(key, value)
                uri = try Self.checked(key) { () throws(WriteInputFault) in try WriteInput.link(link) }
            case "text":
                let value = try Self.string(key, value)
                text = try Self.checked(key) { () throws(WriteInputFault) in try WriteInput.text(value) }
            case "text-language":
                let tag = try Self.string(key, value)
                textLanguage = try Self.checked(key) { () throws(WriteInputFault) in try WriteInput.language(tag) }
            case "erase":
                guard let flag = value.boolValue else { throw .badType(key, "a boolean (b)") }
                if flag { contents.append((key, .erase())) }
            case "lock":
                guard let flag = value.boolValue else { throw .badType(key, "a boolean (b)") }
                lock = flag
            case "format":
                guard let flag = value.boolValue else { throw .badType(key, "a boolean (b)") }
                options.formatIfBlank = flag
            case "overwrite":
                guard let flag = value.boolValue else { throw .badType(key, "a boolean (b)") }
                overwrite = flag
            case "password":
                options.password = try ScanSessionOptions.bytes(key, value, at: SessionPassword.length...SessionPassword.length)
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
        write.overwrite = overwrite
        self.write = write
        self.session = try ScanSessionOptions(session)
    }

    private static func string(_ key: String, _ value: DBusValue) throws(Refusal) -> String {
        guard let text = value.stringValue else { throw .badType(key, "a string (s)") }
        return text
    }

    /// One of ``WriteInput``'s checks, its fault named by the key (and, for an empty value, what to send instead).
    private static func checked<T>(_ key: String, _ check: () throws(WriteInputFault) -> T) throws(Refusal) -> T {
        do { return try check() } catch .empty where key != "message" {
            throw .badValue(key, "\(WriteInputFault.empty.requirement) (send erase to empty the object)")
        } catch {
            throw .badValue(key, error.requirement)
        }
    }
}

