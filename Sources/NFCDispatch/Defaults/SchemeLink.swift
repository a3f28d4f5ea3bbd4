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

    /// Schemes that run code (`javascript:`, `vbscript:`), show local or embedded content as if it
    /// were a page (`file:`, `data:`, `blob:`, `view-source:`, `about:`), reach into a browser's
    /// or an office suite's internals, or mount remote shares (`smb:`, `nfs:`): opening any of them
    /// on an object's word is how drive-by attacks start (the `ms-msdt:` and `search-ms:` ones did).
    public static let neverOpened: Set<String> = [
        "javascript", "vbscript", "livescript", "jscript", "jar",
        "file", "data", "blob", "filesystem", "view-source", "about", "resource",
        "chrome", "chrome-extension", "moz-extension", "ms-msdt", "search-ms", "search", "ms-officecmd",
        "smb", "cifs", "nfs", "afp", "dav", "davs", "sftp", "ftp", "ssh",
        // Web links are offered through ``WebLink``.
        "http", "https",
    ]

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
