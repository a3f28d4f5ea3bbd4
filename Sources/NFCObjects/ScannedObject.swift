import Authenticity
import NFCTags

/// One object read during a scan.
public struct ScannedObject: Sendable {
    public var readerName: String
    public var backend: ReaderBackend
    public var identifier: [UInt8]
    public var technology: ObjectTechnology
    public var reading: TagReading
    /// What the authenticity checks found (Docs/authenticity.md), computed where it was read.
    public var authenticity: AuthenticityFindings

    public init(readerName: String, backend: ReaderBackend, identifier: [UInt8], technology: ObjectTechnology, reading: TagReading,
                authenticity: AuthenticityFindings = AuthenticityFindings()) {
        self.authenticity = authenticity
        self.readerName = readerName
        self.backend = backend
        self.identifier = identifier
        self.technology = technology
        self.reading = reading
    }
}
