/// An ISO 7816-4 command APDU, encoded in the short or extended form.
public struct CommandAPDU: Hashable, Sendable {
    public var cla: UInt8
    public var ins: UInt8
    public var p1: UInt8
    public var p2: UInt8
    public var data: [UInt8]
    /// Bytes expected in the response (without the status word), or nil for none. Short form
    /// carries 1...256, extended 1...65 536.
    public var le: Int?

    public init(cla: UInt8 = 0x00, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], le: Int? = nil) {
        self.cla = cla
        self.ins = ins
        self.p1 = p1
        self.p2 = p2
        self.data = data
        self.le = le
    }

    /// Whether the command needs the extended form (data over 255 bytes or Le over 256).
    public var needsExtendedLength: Bool { data.count > 0xFF || (le ?? 0) > 0x100 }

    public var bytes: [UInt8] {
        var out = [cla, ins, p1, p2]
        if needsExtendedLength {
            out.append(0x00)
            if !data.isEmpty { out += [UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data }
            if let le { out += [UInt8(le >> 8 & 0xFF), UInt8(le & 0xFF)] }       // 65 536 encodes as 00 00
        } else {
            if !data.isEmpty { out += [UInt8(data.count)] + data }
            if let le { out.append(UInt8(le & 0xFF)) }                             // 256 encodes as 00
        }
        return out
    }

    /// Parses the four ISO 7816-3 cases in short and extended form; nil for malformed APDUs.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 4 else { return nil }
        cla = bytes[0]; ins = bytes[1]; p1 = bytes[2]; p2 = bytes[3]
        let body = Array(bytes.dropFirst(4))
        data = []
        le = nil
        switch body.count {
        case 0: return
        case 1: le = body[0] == 0 ? 0x100 : Int(body[0])
        default:
            if body[0] != 0 || body.count == 1 + Int(body[0]) || body.count == 2 + Int(body[0]) {
                // Short form: Lc data [Le].
                let lc = Int(body[0])
                guard lc > 0, body.count == 1 + lc || body.count == 2 + lc else { return nil }
                data = Array(body[1...lc])
                if body.count == 2 + lc { le = body[lc + 1] == 0 ? 0x100 : Int(body[lc + 1]) }
            } else {
                // Extended form: 00, then Le (2 bytes) or Lc (2 bytes) data [Le (2 bytes)].
                guard body.count >= 3 else { return nil }
                let first = Int(body[1]) << 8 | Int(body[2])
                if body.count == 3 {
                    le = first == 0 ? 0x10000 : first
                } else {
                    guard first > 0, body.count == 3 + first || body.count == 5 + first else { return nil }
                    data = Array(body[3..<(3 + first)])
                    if body.count == 5 + first {
                        let value = Int(body[3 + first]) << 8 | Int(body[4 + first])
                        le = value == 0 ? 0x10000 : value
                    }
                }
            }
        }
    }
}
