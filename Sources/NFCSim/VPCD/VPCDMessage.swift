/// The control codes pcscd's vpcd driver sends as a one-byte message (vsmartcard 3.3 vpcd.h:38-43;
/// Docs/design/simulators.md §3.1). The card answers only ``getATR``; the others get no reply.
public enum VPCDControl: UInt8, Hashable, Sendable, CaseIterable {
    case powerOff = 0x00
    case powerOn = 0x01
    case reset = 0x02
    case getATR = 0x04
}

/// One message from the driver to the virtual card: a control code or a command APDU.
///
/// On the wire every message, in both directions, is a 2-byte big-endian length and then the
/// payload (vpcd.c:202-254). A payload of one byte is a control code; any other length is an APDU.
public enum VPCDMessage: Hashable, Sendable {
    case control(VPCDControl)
    /// A one-byte payload that is no known control code (the card ignores it).
    case unknownControl(UInt8)
    case apdu([UInt8])

    /// Reads a payload the way the driver means it.
    public init(payload: [UInt8]) {
        if payload.count == 1 {
            self = VPCDControl(rawValue: payload[0]).map { .control($0) } ?? .unknownControl(payload[0])
        } else {
            self = .apdu(payload)
        }
    }

    public var payload: [UInt8] {
        switch self {
        case .control(let code): [code.rawValue]
        case .unknownControl(let byte): [byte]
        case .apdu(let bytes): bytes
        }
    }

    /// Length prefix and payload, as the driver writes it.
    public var encoded: [UInt8] { VPCDFraming.frame(payload) }
}

/// vpcd's framing: a 2-byte big-endian length, then that many bytes.
public enum VPCDFraming {
    /// The largest payload a length prefix can announce.
    public static let maxPayload = 0xFFFF

    /// The framed payload. A reply of length 0 makes the driver drop the card (vpcd.c:354-355), so
    /// callers send one only to say "no card".
    public static func frame(_ payload: [UInt8]) -> [UInt8] {
        precondition(payload.count <= maxPayload, "a vpcd payload holds at most 65 535 bytes")
        return [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
    }
}

/// Splits the byte stream from the driver into messages, however the bytes arrive (a TCP read
/// may hold half a length prefix or several messages).
public struct VPCDMessageDecoder: Sendable {
    private var buffer: [UInt8] = []

    public init() {}

    /// Bytes received and not yet part of a whole message.
    public var pendingByteCount: Int { buffer.count }

    /// Adds received bytes; returns every message they complete, in order.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [VPCDMessage] {
        buffer.append(contentsOf: bytes)
        var messages: [VPCDMessage] = []
        var start = 0
        while buffer.count - start >= 2 {
            let length = Int(buffer[start]) << 8 | Int(buffer[start + 1])
            guard buffer.count - start - 2 >= length else { break }
            messages.append(VPCDMessage(payload: Array(buffer[(start + 2)..<(start + 2 + length)])))
            start += 2 + length
        }
        buffer.removeFirst(start)
        return messages
    }
}
