/// One frame of the PN532 host protocol (PN532 User Manual §6.2.1), in either direction:
///
/// ```
/// information:  00 00 FF LEN LCS TFI PD0…PDn DCS 00
/// extended:     00 00 FF FF FF LENm LENl LCS TFI PD0…PDn DCS 00
/// ACK:          00 00 FF 00 FF 00
/// NACK:         00 00 FF FF 00 00
/// error:        00 00 FF 01 FF 7F 81 00
/// ```
///
/// LEN counts TFI and the data; LEN + LCS ≡ 0 and TFI + data + DCS ≡ 0 (mod 256). TFI is D4 from
/// the host and D5 from the chip. See Docs/design/simulators.md §1.1.
public enum PN532Frame: Hashable, Sendable {
    /// An information frame: the frame identifier (D4 or D5) and the data after it (command
    /// code first).
    case information(tfi: UInt8, data: [UInt8])
    case ack
    case nack
    /// The application-level error frame (a syntax error in the last frame).
    case error

    public static let hostToChip: UInt8 = 0xD4
    public static let chipToHost: UInt8 = 0xD5
    /// The largest LEN an extended frame may announce (PN532 User Manual §6.2.1.2).
    public static let extendedLengthLimit = 265

    /// A host command frame: D4, the command code, its parameters.
    public static func command(_ code: UInt8, _ parameters: [UInt8] = []) -> PN532Frame {
        .information(tfi: hostToChip, data: [code] + parameters)
    }

    /// A chip response frame: D5, the response code (command code + 1), its data.
    public static func response(_ code: UInt8, _ payload: [UInt8] = []) -> PN532Frame {
        .information(tfi: chipToHost, data: [code] + payload)
    }

    /// The bytes on the wire, with the `00` preamble and postamble; an information frame whose
    /// data does not fit a normal frame is written as an extended frame.
    public var encoded: [UInt8] {
        switch self {
        case .ack: return [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
        case .nack: return [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]
        case .error: return [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00]
        case .information(let tfi, let data):
            let length = data.count + 1
            precondition(length <= Self.extendedLengthLimit, "a PN532 frame carries at most \(Self.extendedLengthLimit) bytes")
            var bytes: [UInt8] = [0x00, 0x00, 0xFF]
            if length < 0xFF {
                bytes += [UInt8(length), Self.checksum([UInt8(length)])]
            } else {
                let high = UInt8(length >> 8), low = UInt8(length & 0xFF)
                bytes += [0xFF, 0xFF, high, low, Self.checksum([high, low])]
            }
            bytes.append(tfi)
            bytes += data
            bytes.append(Self.checksum([tfi] + data))
            bytes.append(0x00)
            return bytes
        }
    }

    /// The byte that makes the sum of `bytes` and itself 0 modulo 256 (LCS and DCS).
    public static func checksum(_ bytes: [UInt8]) -> UInt8 {
        var sum: UInt8 = 0
        for byte in bytes { sum &+= byte }
        return 0 &- sum
    }
}

/// What the stream decoder found, in order of arrival.
public enum PN532DecodedItem: Hashable, Sendable {
    case frame(PN532Frame)
    /// A frame whose checksums or postamble are wrong; the chip answers it with a NACK
    /// (LEN/LCS) or drops it, and the decoder resynchronises on the next start code.
    case corrupt(PN532FrameDefect)
}

public enum PN532FrameDefect: Hashable, Sendable, CustomStringConvertible {
    case lengthChecksum
    case dataChecksum
    case missingPostamble
    case lengthTooLarge(Int)

    public var description: String {
        switch self {
        case .lengthChecksum: "LEN + LCS is not 0 modulo 256"
        case .dataChecksum: "TFI + data + DCS is not 0 modulo 256"
        case .missingPostamble: "the postamble is not 00"
        case .lengthTooLarge(let length): "extended LEN \(length) is over \(PN532Frame.extendedLengthLimit)"
        }
    }
}

/// Turns a byte stream into frames. Bytes may arrive in any chunks; anything before a start code
/// `00 FF` (the HSU wake-up `55 55 00 00…`, line noise) is skipped. The `00` preamble is optional
/// on input, as on the real chip, which synchronises on the start code alone.
public struct PN532FrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    /// Bytes discarded while looking for a start code (for diagnostics).
    public private(set) var skippedBytes = 0

    public init() {}

    /// Adds `bytes` and returns every complete frame (or defect) now available.
    public mutating func feed<S: Sequence>(_ bytes: S) -> [PN532DecodedItem] where S.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        var items: [PN532DecodedItem] = []
        while let item = next() { items.append(item) }
        return items
    }

    /// Bytes held waiting for the rest of a frame.
    public var pendingByteCount: Int { buffer.count }

    private mutating func next() -> PN532DecodedItem? {
        // Find the start code 00 FF.
        var start = 0
        while start + 1 < buffer.count, !(buffer[start] == 0x00 && buffer[start + 1] == 0xFF) { start += 1 }
        if start + 1 >= buffer.count {
            // Keep a trailing 00 (it may be the first half of the start code).
            let keep = buffer.last == 0x00 ? 1 : 0
            skippedBytes += buffer.count - keep
            buffer.removeFirst(buffer.count - keep)
            return nil
        }
        if start > 0 {
            skippedBytes += start
            buffer.removeFirst(start)
        }
        // buffer[0...1] == 00 FF
        guard buffer.count >= 4 else { return nil }
        let b2 = buffer[2], b3 = buffer[3]
        if b2 == 0x00 && b3 == 0xFF { return consume(4, .frame(.ack)) }
        if b2 == 0xFF && b3 == 0x00 { return consume(4, .frame(.nack)) }
        if b2 == 0x01 && b3 == 0xFF {
            // Error frame: 00 FF 01 FF 7F 81 00.
            guard buffer.count >= 7 else { return nil }
            if buffer[4] == 0x7F && buffer[5] == 0x81 { return consume(6, .frame(.error)) }
        }
        let length: Int, headerSize: Int
        if b2 == 0xFF && b3 == 0xFF {
            guard buffer.count >= 7 else { return nil }
            let high = buffer[4], low = buffer[5], lcs = buffer[6]
            guard high &+ low &+ lcs == 0 else { return reject(.lengthChecksum) }
            length = Int(high) << 8 | Int(low)
            guard length <= PN532Frame.extendedLengthLimit else { return reject(.lengthTooLarge(length)) }
            headerSize = 7
        } else {
            guard b2 &+ b3 == 0 else { return reject(.lengthChecksum) }
            length = Int(b2)
            headerSize = 4
        }
        guard length >= 1 else { return reject(.lengthChecksum) }
        let total = headerSize + length + 2  // TFI…data, DCS, postamble
        guard buffer.count >= total else { return nil }
        let body = Array(buffer[headerSize..<(headerSize + length)])
        let dcs = buffer[headerSize + length]
        let postamble = buffer[headerSize + length + 1]
        buffer.removeFirst(total)
        guard PN532Frame.checksum(body) == dcs else { return .corrupt(.dataChecksum) }
        guard postamble == 0x00 else { return .corrupt(.missingPostamble) }
        return .frame(.information(tfi: body[0], data: Array(body.dropFirst())))
    }

    /// Consumes `count` bytes; the postamble of a short frame is skipped with the next search.
    private mutating func consume(_ count: Int, _ item: PN532DecodedItem) -> PN532DecodedItem {
        buffer.removeFirst(count)
        return item
    }

    /// Drops the start code so the search resumes after it.
    private mutating func reject(_ defect: PN532FrameDefect) -> PN532DecodedItem {
        buffer.removeFirst(2)
        return .corrupt(defect)
    }
}
