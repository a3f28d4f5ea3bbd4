import NFCSim

/// A PN532 target that answers `exchanges` frames, then leaves the field: an object taken away
/// in the middle of a read, for the paths that must report it moved away too soon.
public struct LeavesAfter<Inner: PN532Target>: PN532Target {
    public var inner: Inner
    public var exchanges: Int

    public init(inner: Inner, exchanges: Int) {
        self.inner = inner
        self.exchanges = exchanges
    }

    public var identity: PN532TargetIdentity { inner.identity }
    public var isPresent: Bool { exchanges > 0 && inner.isPresent }
    public mutating func activate() -> Bool { exchanges > 0 && inner.activate() }
    public mutating func exchange(_ command: [UInt8]) -> PN532TargetReply {
        guard exchanges > 0 else { return .silence }
        exchanges -= 1
        return inner.exchange(command)
    }
}
