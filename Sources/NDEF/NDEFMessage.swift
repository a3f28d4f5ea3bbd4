/// An NDEF message: one or more records, in order.
public struct NDEFMessage: Hashable, Sendable {
    public var records: [NDEFRecord]

    public init(records: [NDEFRecord]) {
        self.records = records
    }

    public init(_ records: NDEFRecord...) {
        self.records = records
    }

    /// Decodes a complete message, strictly: any deviation from the specification throws.
    ///
    /// Use ``NDEFParser`` for lenient decoding or for the byte layout of each record.
    public init(decoding bytes: [UInt8]) throws(NDEFError) {
        self = try NDEFParser(mode: .strict).parseMessage(bytes[...]).message
    }

    /// The canonical encoding: short records where the payload fits, MB on the first record,
    /// ME on the last, no chunking. Records are written as they are, even ones only lenient
    /// decoding accepts; ``NDEFEncoder/encode(_:)`` checks the header rules instead.
    public func encoded() -> [UInt8] {
        NDEFEncoder.encode(self)
    }
}
