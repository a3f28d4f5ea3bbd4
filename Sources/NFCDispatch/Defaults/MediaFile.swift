import NDEF
import NDEFReport

/// A media record's payload, for the person's default app for its type, handed over as a file
/// with the extension that type usually has (apps and file choosers go by it).
///
/// Only types whose usual apps show or import data are handed on (``extensions``): a default app
/// for a script, a desktop entry, an installer, HTML or SVG would run what the object holds.
public struct MediaFile: Hashable, Sendable {
    /// The media type's essence, lowercased, without parameters (`text/vcard`).
    public let mimeType: String
    /// Without the dot (`vcf`).
    public let fileExtension: String
    public let payload: [UInt8]
    /// Index into the report's top-level `records`.
    public let recordIndex: Int

    /// The types handed on, with the extension each file gets. Aliases name the type the
    /// person's default is usually registered for (`text/x-vcard` → `text/vcard`).
    public static let extensions: [String: (canonical: String, fileExtension: String)] = [
        "text/vcard": ("text/vcard", "vcf"), "text/x-vcard": ("text/vcard", "vcf"), "text/directory": ("text/vcard", "vcf"),
        "text/calendar": ("text/calendar", "ics"), "text/x-vcalendar": ("text/calendar", "ics"),
        "image/png": ("image/png", "png"), "image/jpeg": ("image/jpeg", "jpg"), "image/gif": ("image/gif", "gif"),
        "image/webp": ("image/webp", "webp"), "application/pdf": ("application/pdf", "pdf"),
        "text/plain": ("text/plain", "txt"),
    ]

    /// Nil unless `record` (one record of a `MessageReport` tree) is a media record of a type
    /// handed on, with a payload.
    public init?(record: ReportValue, recordIndex: Int) {
        guard record["tnf"]?.stringValue == "media", let declared = record["mime_type"]?.stringValue,
              let known = Self.extensions[Self.essence(declared)],
              let hex = record["payload"]?.stringValue, case .success(let payload) = Hex.decode(hex), !payload.isEmpty else { return nil }
        self.mimeType = known.canonical
        self.fileExtension = known.fileExtension
        self.payload = payload
        self.recordIndex = recordIndex
    }

    /// The part of a media type that names the format: before any `;`, spaces trimmed, lowercased.
    static func essence(_ type: String) -> String {
        let name = type.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(name.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()).lowercased()
    }
}
