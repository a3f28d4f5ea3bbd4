/// Which library a reader is reached through.
public enum ReaderBackend: String, Hashable, Sendable {
    case libnfc
    case pcsc
}
