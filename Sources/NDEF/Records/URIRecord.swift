/// A well-known URI record (`U`, NFC Forum RTD-URI 1.0): a URI whose common prefix is one byte.
public struct URIRecord: Hashable, Sendable {
    /// The identifier code (0–35) abbreviating the start of the URI; 0 means none.
    public private(set) var prefixCode: UInt8
    /// The rest of the URI after the prefix, as stored.
    public var remainder: String

    /// Nil when `prefixCode` is not one of the 36 defined codes.
    public init?(prefixCode: UInt8, remainder: String) {
        guard Int(prefixCode) < Self.prefixes.count else { return nil }
        self.prefixCode = prefixCode
        self.remainder = remainder
    }

    /// Chooses the longest matching prefix, as a writer should.
    public init(uri: String) {
        var best: (code: UInt8, length: Int) = (0, 0)
        for (code, prefix) in Self.prefixes.enumerated() where prefix.utf8.count > best.length && uri.hasPrefix(prefix) {
            best = (UInt8(code), prefix.utf8.count)
        }
        prefixCode = best.code
        remainder = String(uri.utf8.dropFirst(best.length))!
    }

    /// The full URI, prefix expanded.
    public var uri: String {
        Self.prefixes[Int(prefixCode)] + remainder
    }

    /// RTD-URI table 3: the 36 abbreviations, indexed by identifier code.
    public static let prefixes: [String] = [
        "", "http://www.", "https://www.", "http://", "https://", "tel:", "mailto:",
        "ftp://anonymous:anonymous@", "ftp://ftp.", "ftps://", "sftp://", "smb://", "nfs://", "ftp://", "dav://",
        "news:", "telnet://", "imap:", "rtsp://", "urn:", "pop:", "sip:", "sips:", "tftp:", "btspp://",
        "btl2cap://", "btgoep://", "tcpobex://", "irdaobex://", "file://", "urn:epc:id:", "urn:epc:tag:",
        "urn:epc:pat:", "urn:epc:raw:", "urn:epc:", "urn:nfc:",
    ]

    static let typeName = "U"

    public init(payload: [UInt8]) throws(NDEFError) {
        try self.init(payloadBytes: payload[...])
    }

    /// Decodes a payload in place, for records decoded from a message (their payloads are views).
    init(payloadBytes payload: ArraySlice<UInt8>) throws(NDEFError) {
        var reader = PayloadReader(type: Self.typeName, bytes: payload)
        prefixCode = try reader.u8("identifier code")
        guard Int(prefixCode) < Self.prefixes.count else {
            throw reader.error(.invalidValue(field: "identifier code", value: Int(prefixCode)), at: 0)
        }
        remainder = try reader.utf8(reader.remaining, "URI field")
        // A link with a line break, an escape or NUL in it is no link (RFC 3986 has no place for
        // them) and may smuggle a second line or a terminal sequence into whatever shows or opens it.
        if let index = payload.dropFirst().firstIndex(where: Self.isControl) {
            throw reader.error(.invalidValue(field: "URI field (a control character)", value: Int(payload[index])),
                               at: index - payload.startIndex)
        }
    }

    /// U+0000–U+001F and U+007F: in UTF-8 each is the one byte of that value, never part of
    /// another character's encoding.
    static func isControl(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }

    public var payload: [UInt8] {
        [prefixCode] + Array(remainder.utf8)
    }

    public func record(id: [UInt8] = []) -> NDEFRecord {
        NDEFRecord(tnf: .wellKnown, type: Self.typeName, id: id, payload: payload)
    }
}
