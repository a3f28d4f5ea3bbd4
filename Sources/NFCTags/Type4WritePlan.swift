import NDEF

/// One UPDATE BINARY (D6) to the selected NDEF file: `bytes` from `offset`.
public struct Type4FileUpdate: Hashable, Sendable {
    public var offset: Int
    public var bytes: [UInt8]

    public init(offset: Int, bytes: [UInt8]) {
        self.offset = offset
        self.bytes = bytes
    }

    public var command: CommandAPDU {
        CommandAPDU(ins: Type4WritePlan.updateBinary, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), data: bytes)
    }
}

/// The UPDATE BINARY commands that replace a Type 4 object's NDEF message in the tear-safe order
/// of NFC Forum Type 4 Tag §5.5 (the NDEF update procedure): the length field (NLEN, or ENLEN in
/// mapping 3.0's extended file) set to 0, the message written from offset 2 (or 4), then the
/// length field set to the message's length. An object taken away after any command holds the
/// old message (before the first), an empty one, or the new one (after the last): the body is
/// never read while the length is 0.
///
/// Refuses before anything is sent when the CC withholds write access (FF: read-only; a
/// proprietary condition is read-only to this writer) or when the message and its length field
/// do not fit the NDEF file the CC sizes.
public struct Type4WritePlan: Hashable, Sendable {
    public static let updateBinary: UInt8 = 0xD6

    /// The commands, in the order they must be sent; the last one is the commit.
    public let writes: [Type4FileUpdate]
    /// The file's first bytes as they are just before the last command: the length field as it
    /// then reads (0 once a body was written, else the old one) and the new message. Reading them
    /// back from the selected file is how the writer knows the object is still the one it wrote.
    public let beforeCommit: [UInt8]
    /// The largest message the file holds.
    public let capacity: Int

    /// Plans writing `message` (the encoded NDEF message; empty for an empty message).
    /// - Parameters:
    ///   - current: the message the file holds now, or nil when it could not be read (a length
    ///     field past the file): unchanged messages are not written, a zero length not zeroed.
    ///   - maxCommandData: bytes one UPDATE BINARY may carry over this link (MLc, the APDU form
    ///     and the link's frame bounded together).
    public init(capabilityContainer cc: Type4CapabilityContainer, current: [UInt8]?, message: [UInt8],
                maxCommandData: Int) throws(WriteRefusal) {
        let lengthField = cc.lengthFieldSize
        capacity = max(0, cc.maxNDEFSize - lengthField)
        guard cc.write == .granted else { throw .readOnly }
        guard message.count <= capacity else {
            throw .doesNotFit(needed: message.count + lengthField, available: cc.maxNDEFSize)
        }
        let length = Self.lengthField(message.count, size: lengthField)
        let oldLength = current.map { Self.lengthField($0.count, size: lengthField) }
        guard current != message else {
            (writes, beforeCommit) = ([], length + message)
            return
        }
        let chunk = min(cc.maxWriteLength, maxCommandData)
        // The length field goes in one command, or a tear could leave half of it.
        guard chunk >= lengthField else {
            throw .unsupported("an object or link that takes \(chunk) bytes per UPDATE BINARY: the \(lengthField)-byte length field must go in one")
        }
        let zero = [UInt8](repeating: 0, count: lengthField)
        var writes: [Type4FileUpdate] = []
        if !message.isEmpty {
            if oldLength != zero { writes.append(Type4FileUpdate(offset: 0, bytes: zero)) }
            var offset = 0
            while offset < message.count {
                let at = lengthField + offset
                guard at <= Type4Tag.maxShortOffset else {
                    throw .unsupported("writing past byte 32 767 of the NDEF file (UPDATE BINARY with an offset data object)")
                }
                let count = min(chunk, message.count - offset)
                writes.append(Type4FileUpdate(offset: at, bytes: Array(message[offset..<(offset + count)])))
                offset += count
            }
        }
        writes.append(Type4FileUpdate(offset: 0, bytes: length))
        self.writes = writes
        beforeCommit = (message.isEmpty ? oldLength ?? [] : zero) + message
    }

    /// `value` as a big-endian field of `size` bytes.
    static func lengthField(_ value: Int, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
