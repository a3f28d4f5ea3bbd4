import NFCObjects
import NFCReaders

extension ObjectIdentity {
    /// The object as it arrived on `reader`, before anything was read.
    public init(object: DetectedObject, reader: any Reader) {
        self.init(identifier: object.identifier, technology: object.technology, platform: object.platform,
                  readerName: reader.name, backend: reader.backend)
    }
}
