/// Media (MIME) type names as records carry them.
public enum MediaType {
    /// The type in lowercase, as RFC 2045 compares them case-insensitively; parameters are kept.
    /// Non-ASCII bytes (invalid in a media type) become U+FFFD.
    public static func normalized(_ type: [UInt8]) -> String {
        String(decoding: type.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The type without parameters or surrounding spaces (`text/vcard; charset=utf-8` → `text/vcard`).
    public static func essence(_ normalized: String) -> Substring {
        var base = normalized.prefix { $0 != ";" }
        while base.first == " " { base.removeFirst() }
        while base.last == " " { base.removeLast() }
        return base
    }
}
