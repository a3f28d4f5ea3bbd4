import NDEFReport

/// What filters look at in one record of a `MessageReport` tree, worked out once per record so
/// each filter compares strings only.
struct MatchableRecord {
    /// The URI of a `uri`, `absolute-uri` or `smart-poster` record, when well formed.
    let uri: ParsedURI?
    /// The media type without parameters, lowercased: a media record's `mime_type`, or
    /// `text/plain` for a text record (as Android dispatches text records).
    let mediaType: String?
    /// An external record's `domain_type` (already lowercased by the report).
    let externalType: String?
    /// An Android application record's package name.
    let androidPackage: String?

    /// A record with an `error` field (its payload did not decode as its type claims) matches
    /// nothing: an app would receive content it cannot use.
    init(_ record: ReportValue) {
        guard record["error"] == nil else {
            (uri, mediaType, externalType, androidPackage) = (nil, nil, nil, nil)
            return
        }
        let kind = record["kind"]?.stringValue
        switch kind {
        // A link of a scheme never handed on, or whose user information can disguise its host
        // ("https://bank.example@evil.example/"), goes to no app.
        case "uri", "absolute-uri", "smart-poster":
            uri = record["uri"]?.stringValue.flatMap(ParsedURI.init).flatMap { $0.hasUserInfo || ParsedURI.unsafeSchemes.contains($0.scheme) ? nil : $0 }
        default: uri = nil
        }
        if kind == "text" {
            mediaType = "text/plain"
        } else if record["tnf"]?.stringValue == "media", let type = record["mime_type"]?.stringValue {
            mediaType = Self.essence(of: type)
        } else {
            mediaType = nil
        }
        externalType = record["tnf"]?.stringValue == "external" ? record["domain_type"]?.stringValue : nil
        androidPackage = kind == "android-app" ? record["package"]?.stringValue : nil
    }

    /// `type/subtype` of `type/subtype; parameters`, without surrounding spaces, lowercased.
    static func essence(of mediaType: String) -> String {
        var essence = mediaType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        while essence.first == " " || essence.first == "\t" { essence.removeFirst() }
        while essence.last == " " || essence.last == "\t" { essence.removeLast() }
        return essence.lowercased()
    }
}
