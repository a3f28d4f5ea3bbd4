/// Why a dump file cannot be presented: where in the file (a line, a JSON path, a byte), what is
/// wrong there, and what the person can do about it, so nfcsim can say all three in one sentence.
public struct DumpError: Error, Hashable, Sendable, CustomStringConvertible {
    /// "line 12", "$.blocks.4", "byte 1025": where the problem is.
    public var place: String
    public var problem: String
    public var remedy: String

    public init(_ place: String, _ problem: String, remedy: String) {
        self.place = place
        self.problem = problem
        self.remedy = remedy
    }

    public var description: String { "\(place): \(problem); \(remedy)" }

    /// The remedy for a file whose content was altered or cut short.
    static let fromTheReader = "save the dump again from the reader or app that made it"

    static func line(_ number: Int, _ problem: String, remedy: String = fromTheReader) -> DumpError {
        DumpError("line \(number)", problem, remedy: remedy)
    }
}

/// Limits that keep a hostile file from costing more than a real dump does.
public enum DumpLimits {
    /// The largest file read: a Metrodroid dump of a full FeliCa is a few hundred KB.
    public static let fileBytes = 4 << 20
    /// The most pages or blocks of any chip the formats describe (a MIFARE Classic 4K has 256
    /// blocks; a Type 2 page number and an ISO 15693 block number are one byte).
    public static let blocks = 256
    /// The most bytes in one block (ISO 15693 allows 32).
    public static let blockBytes = 32
}
