import NDEFReport

/// A web link the daemon may offer to open in the browser when no app asked for the object.
///
/// Only `http` and `https` (in any letter case) are ever offered: a browser handed `javascript:`,
/// `file:`, `data:` or an app's own scheme would run code, show local files or start programs on
/// the word of an object anyone can stick on a wall. The link must also be a well-formed URI (no
/// whitespace, control or bidirectional formatting characters), name a host, carry no user
/// information (`https://bank.example@evil.example/` reads as the wrong site), and be at most
/// ``maximumLength`` bytes.
public struct WebLink: Hashable, Sendable {
    /// The link exactly as the object holds it.
    public let uri: String
    /// Index into the report's top-level `records`.
    public let recordIndex: Int

    public static let maximumLength = 8192

    /// Nil unless `uri` is a web link that may be offered (see the type's documentation).
    public init?(_ uri: String, recordIndex: Int) {
        guard uri.utf8.count <= Self.maximumLength, let parsed = ParsedURI(uri),
              parsed.scheme == "http" || parsed.scheme == "https",
              let host = parsed.host, !host.isEmpty, !parsed.hasUserInfo else { return nil }
        self.uri = uri
        self.recordIndex = recordIndex
    }
}
