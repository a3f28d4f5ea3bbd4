import NDEFReport

/// A link that is not a web link, for the app the person chose for its scheme
/// (`x-scheme-handler/<scheme>` in mimeapps.list): `mailto:`, `tel:`, `sms:`, `geo:`, an app's own.
///
/// An object anyone can stick on a wall chooses the link, so some schemes are never handed on,
/// whatever app claims them (``neverOpened``). Web links are not scheme links: they go to the
/// browser (``WebLink``).
public struct SchemeLink: Hashable, Sendable {
    /// The link exactly as the object holds it.
    public let uri: String
    /// Lowercased.
    public let scheme: String
    /// Index into the report's top-level `records`.
    public let recordIndex: Int

    /// The schemes never handed on (``ParsedURI/unsafeSchemes``), and web links, which are offered
    /// through ``WebLink``.
    public static let neverOpened: Set<String> = ParsedURI.unsafeSchemes.union(["http", "https"])

    /// Nil unless `uri` is a well-formed link (``ParsedURI``), at most ``WebLink/maximumLength``
    /// bytes, whose scheme may be handed on.
    public init?(_ uri: String, recordIndex: Int) {
        guard uri.utf8.count <= WebLink.maximumLength, let parsed = ParsedURI(uri),
              !Self.neverOpened.contains(parsed.scheme), !parsed.hasUserInfo else { return nil }
        self.uri = uri
        self.scheme = parsed.scheme
        self.recordIndex = recordIndex
    }

    /// The MIME type a default app for this scheme is registered under.
    public var mimeType: String { "x-scheme-handler/" + scheme }
}
