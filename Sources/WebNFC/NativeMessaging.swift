/// The browsers' native messaging framing: each message is a 32-bit length in the machine's own
/// byte order, then that many bytes of UTF-8 JSON (Chromium's and Firefox's documentation of
/// `runtime.connectNative`). Pure: bytes in, messages out.
public struct NativeMessageReader: Sendable {
    /// Browsers may send up to 4 GiB in one message; a page has nothing near that to say (a 64 KiB
    /// NDEF message is under 90 KB as base64), so more is refused before it is buffered.
    public static let maximumMessageLength = 1 << 20

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case tooLong(Int)
        public var description: String {
            switch self {
            case .tooLong(let length): "a message of \(length) bytes is over the \(NativeMessageReader.maximumMessageLength)-byte bound"
            }
        }
    }

    private var buffer: [UInt8] = []

    public init() {}

    /// Takes bytes read from standard input and returns the whole messages they complete.
    public mutating func take(_ bytes: some Collection<UInt8>) throws(Failure) -> [[UInt8]] {
        buffer.append(contentsOf: bytes)
        var messages: [[UInt8]] = []
        var start = 0
        while buffer.count - start >= 4 {
            let length = Int(Self.length(buffer[start..<(start + 4)]))
            guard length <= Self.maximumMessageLength else { throw .tooLong(length) }
            guard buffer.count - start - 4 >= length else { break }
            messages.append(Array(buffer[(start + 4)..<(start + 4 + length)]))
            start += 4 + length
        }
        buffer.removeFirst(start)
        return messages
    }

    /// Whether part of a message is still waiting for its rest (at the end of input: it never came).
    public var isMidMessage: Bool { !buffer.isEmpty }

    /// `json` framed for the browser: its length, then it.
    public static func frame(_ json: [UInt8]) -> [UInt8] {
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: json.count)) { Array($0) } + json
    }

    private static func length(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return value
    }
}
