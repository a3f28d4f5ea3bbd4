import NDEF

/// The person's secure-link templates and keys, `$XDG_CONFIG_HOME/nfcscan/secure-links`
/// (Docs/authenticity.md): parsing only, pure; NFCScanKit reads the file, refusing it unless it
/// is the user's own with mode 0600.
///
///     # The posters at the front desk
///     [poster]
///     url = https://example.com/t?picc_data={picc_data}&cmac={cmac}
///     mode = aes
///     meta-read-key = 00112233445566778899aabbccddeeff
///     file-read-key = 00112233445566778899aabbccddeeff
///     mac-input = empty
///
/// One section per template, its name in brackets; `url` and both keys are required, `mode`
/// (`aes`, the default, or `lrp`) and `mac-input` (`empty`, `picc_data` or `enc`; by default
/// `enc` when the link has `{enc}`, else `empty`) are not. A `url` without placeholders gets NXP's
/// `?picc_data={picc_data}&cmac={cmac}`. Lines starting with `#` or `;` and blank lines are
/// skipped. Errors name the line; none repeats a key's value.
public enum SecureLinkKeysFile {
    /// Largest file read, and most templates.
    public static let maximumBytes = 64 * 1024
    public static let maximumTemplates = 64

    public static func parse(_ text: [UInt8]) throws(SecureLinkKeysFileError) -> [SecureLinkTemplate] {
        guard text.count <= maximumBytes else { throw .init(line: nil, "the file is larger than \(maximumBytes) bytes") }
        guard let text = String(validating: text, as: UTF8.self) else { throw .init(line: nil, "the file is not UTF-8 text") }
        var templates: [SecureLinkTemplate] = []
        var section: Section?
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let line = raw.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else { throw .init(line: number, "a section is [name]") }
                if let done = section { templates.append(try done.template()) }
                let name = String(line.dropFirst().dropLast()).trimmingWhitespace()
                guard !name.isEmpty, name.count <= 64, name.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0 != "]" }) else {
                    throw .init(line: number, "a section's name is up to 64 letters, digits or marks, without spaces")
                }
                guard !templates.contains(where: { $0.name == name }) else { throw .init(line: number, "[\(name)] twice") }
                guard templates.count < maximumTemplates else { throw .init(line: number, "more than \(maximumTemplates) templates") }
                section = Section(name: name, line: number)
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { throw .init(line: number, "expected key = value") }
            let key = String(line[..<equals]).trimmingWhitespace()
            let value = String(line[line.index(after: equals)...]).trimmingWhitespace()
            guard section != nil else { throw .init(line: number, "\(key) before any [section]") }
            try section!.set(key, value, line: number)
        }
        if let done = section { templates.append(try done.template()) }
        return templates
    }

    private struct Section {
        var name: String
        var line: Int
        var url: String?
        var urlLine = 0
        var mode: SecureDynamicMessage.Mode = .aes
        var metaReadKey: [UInt8]?
        var fileReadKey: [UInt8]?
        var macInput: SecureLinkTemplate.MACInput?
        var seen: Set<String> = []

        mutating func set(_ key: String, _ value: String, line: Int) throws(SecureLinkKeysFileError) {
            guard seen.insert(key).inserted else { throw .init(line: line, "\(key) twice in [\(name)]") }
            switch key {
            case "url":
                guard !value.isEmpty else { throw .init(line: line, "url is empty") }
                url = value
                urlLine = line
            case "mode":
                guard let chosen = SecureDynamicMessage.Mode(rawValue: value) else { throw .init(line: line, "mode is aes or lrp") }
                mode = chosen
            case "meta-read-key", "file-read-key":
                // The value is a secret: the message never repeats it.
                guard case .success(let bytes) = Hex.decode(value), bytes.count == 16 else {
                    throw .init(line: line, "\(key) is 16 bytes in hex (32 digits)")
                }
                if key == "meta-read-key" { metaReadKey = bytes } else { fileReadKey = bytes }
            case "mac-input":
                guard let chosen = SecureLinkTemplate.MACInput(rawValue: value) else { throw .init(line: line, "mac-input is empty, picc_data or enc") }
                macInput = chosen
            default:
                throw .init(line: line, "unknown key \(key) (known: url, mode, meta-read-key, file-read-key, mac-input)")
            }
        }

        func template() throws(SecureLinkKeysFileError) -> SecureLinkTemplate {
            guard let url else { throw .init(line: line, "[\(name)] has no url") }
            guard let metaReadKey, let fileReadKey else { throw .init(line: line, "[\(name)] needs meta-read-key and file-read-key") }
            do {
                return try SecureLinkTemplate(name: name, url: url, mode: mode, metaReadKey: metaReadKey, fileReadKey: fileReadKey, macInput: macInput)
            } catch {
                throw .init(line: urlLine, "url: \(error)")
            }
        }
    }
}

/// What is wrong with the keys file, and on which line (1-based).
public struct SecureLinkKeysFileError: Error, Hashable, Sendable {
    public var line: Int?
    public var message: String

    init(line: Int?, _ message: String) {
        self.line = line
        self.message = message
    }

    /// `FILE:LINE: message`.
    public func description(file: String) -> String {
        line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        String(drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
