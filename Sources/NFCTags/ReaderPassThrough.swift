import NDEF

/// How a PC/SC reader lets raw frames reach the object below its storage-card pseudo-APDUs, and
/// the pure encoding of those frames and decoding of the answers (the transport does the I/O).
///
/// - ``directTransmit``: ACR122U-style readers pass a command to their PN532 with
///   `FF 00 00 00 Lc D4 <code> …` and answer `D5 <code+1> <status> <answer> 90 00` (ACR122U API
///   §6.1; libnfc's acr122_pcsc driver, nfcpy's acr122 driver). Type 2 frames go through
///   InCommunicateThru (`D4 42`), Topaz and FeliCa through InDataExchange on target 1
///   (`D4 40 01`), as libnfc sends them: the PN532 cannot send Jewel frames through
///   InCommunicateThru, and the FeliCa framing is already set by the reader's polling.
/// - ``transparentExchange``: PC/SC Part 3 §3.2.2.1.8 (Manage Session `FF C2 00 00`,
///   Transparent Exchange `FF C2 00 01`): a session is started (`81 00`), each frame goes as
///   a `95` data object (with a `5F46` timer), the answer comes as `C0 03 <index> SW1 SW2`
///   (the generic error status: `00 90 00` is success) and a `97` object, then `90 00`; the
///   session is ended (`82 00`). The reader adds and checks CRCs.
public enum ReaderPassThrough: String, Hashable, Sendable {
    case directTransmit = "acr122u-direct-transmit"
    case transparentExchange = "part3-transparent-exchange"

    /// PN532 GetFirmwareVersion through direct transmit: an ACR122U answers `D5 03 IC Ver Rev
    /// Support 90 00`; a reader without direct transmit answers a status word alone.
    public static let directTransmitProbe: [UInt8] = [0xFF, 0x00, 0x00, 0x00, 0x02, 0xD4, 0x02]
    /// Manage Session with Start Transparent Session (`81 00`).
    public static let startSession: [UInt8] = [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x81, 0x00, 0x00]
    /// Manage Session with End Transparent Session (`82 00`).
    public static let endSession: [UInt8] = [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x82, 0x00, 0x00]

    /// PN532 commands used through direct transmit.
    public static let inDataExchange: UInt8 = 0x40
    public static let inCommunicateThru: UInt8 = 0x42

    /// The largest answer one exchange carries: a short response APDU holds 256 bytes; direct
    /// transmit spends 3 of them on `D5 43 <status>` (and the PN532 delivers at most 252),
    /// transparent exchange 8 on `C0 03 …` and the `97 81 LL` header.
    public var maxAnswerLength: Int {
        switch self {
        case .directTransmit: 252
        case .transparentExchange: 248
        }
    }

    /// Whether this pass-through reaches objects of `platform` (Part 3 readers would need
    /// Topaz frames in their air form, with the UID echo: not done).
    public func reaches(_ platform: TagPlatform?) -> Bool {
        switch (self, platform) {
        case (_, .type2?), (_, .type3?), (.directTransmit, .type1?): true
        default: false
        }
    }

    /// Whether the probe's answer says the reader takes direct transmit.
    public static func answersDirectTransmit(_ response: [UInt8]) -> Bool {
        response.count >= 4 && response.prefix(2) == [0xD5, 0x03] && response.suffix(2) == [0x90, 0x00]
    }

    /// Whether a Manage Session answer says the session command was done.
    public static func sessionAccepted(_ response: [UInt8]) -> Bool {
        guard response.count >= 2, response.suffix(2) == [0x90, 0x00],
              let objects = BERDataObject.parse(response.dropLast(2)) else { return false }
        return objects.first == BERDataObject(tag: 0xC0, value: [0x00, 0x90, 0x00])
    }

    /// The command APDU carrying `frame` to an object of `platform`.
    public func command(_ frame: [UInt8], platform: TagPlatform?, timeoutMicroseconds: UInt32 = 100_000) -> [UInt8] {
        switch self {
        case .directTransmit:
            let pn532 = platform == .type2 ? [0xD4, Self.inCommunicateThru] + frame : [0xD4, Self.inDataExchange, 0x01] + frame
            return [0xFF, 0x00, 0x00, 0x00, UInt8(truncatingIfNeeded: pn532.count)] + pn532
        case .transparentExchange:
            let timer = BERDataObject(tag: 0x5F46, value: (0..<4).map { UInt8(truncatingIfNeeded: timeoutMicroseconds >> (8 * $0)) })
            let data = timer.encoded + BERDataObject(tag: 0x95, value: frame).encoded
            return [0xFF, 0xC2, 0x00, 0x01, UInt8(truncatingIfNeeded: data.count)] + data + [0x00]
        }
    }

    /// The object's answer in a response APDU: its frame, a one-byte NAK (a 4-bit answer), or
    /// the error the reader's status says. `platform` as in ``command(_:platform:timeoutMicroseconds:)``.
    public func answer(_ response: [UInt8], platform: TagPlatform?) throws(TransportError) -> [UInt8] {
        guard response.count >= 2 else { throw .protocolError("a response without status word") }
        let sw = (response[response.count - 2], response[response.count - 1])
        let body = Array(response.dropLast(2))
        switch sw {
        case (0x90, 0x00): break
        case (0x63, 0x00): throw .timeout
        case (0x6A, 0x81), (0x6D, 0x00), (0x6E, 0x00):
            throw .notSupported("the reader's pass-through (status word \(Hex.code(UInt16(sw.0) << 8 | UInt16(sw.1))))")
        default: throw .protocolError("status word \(Hex.code(UInt16(sw.0) << 8 | UInt16(sw.1)))")
        }
        switch self {
        case .directTransmit: return try Self.pn532Answer(body, platform: platform)
        case .transparentExchange: return try Self.transparentAnswer(body)
        }
    }

    static func pn532Answer(_ body: [UInt8], platform: TagPlatform?) throws(TransportError) -> [UInt8] {
        let code = platform == .type2 ? inCommunicateThru : inDataExchange
        guard body.count >= 3, body[0] == 0xD5, body[1] == code &+ 1 else {
            throw .protocolError("the reader's PN532 answered \(body.prefix(3).map { Hex.code($0) }.joined(separator: " ")), not D5 \(Hex.code(code &+ 1))")
        }
        switch body[2] & 0x3F {
        case 0x00: return Array(body.dropFirst(3))
        case 0x01: throw .timeout
        // A 4-bit ACK/NAK has no CRC: with CRC checking on, the PN532 reports a CRC error
        // (InCommunicateThru); InDataExchange reports a refusal as a MIFARE error.
        case 0x02, 0x14: return [0x00]
        case let status: throw .protocolError("the reader's PN532 reported status \(Hex.code(status))")
        }
    }

    static func transparentAnswer(_ body: [UInt8]) throws(TransportError) -> [UInt8] {
        guard let objects = BERDataObject.parse(body) else { throw .protocolError("transparent exchange answer is not BER-TLV data objects") }
        guard let status = objects.first(where: { $0.tag == 0xC0 }), status.value.count == 3 else {
            throw .protocolError("transparent exchange answer without its C0 status")
        }
        switch (status.value[1], status.value[2]) {
        case (0x90, 0x00): break
        // No answer from the object (Part 3: 64 01), or the timer ran out.
        case (0x64, _): throw .timeout
        case (0x6A, 0x81): throw .notSupported("this transparent exchange (C0 status 6A 81)")
        case let (sw1, sw2): throw .protocolError("transparent exchange status \(Hex.code(UInt16(sw1) << 8 | UInt16(sw2)))")
        }
        guard let answer = objects.first(where: { $0.tag == 0x97 }) else {
            throw .protocolError("transparent exchange answer without its 97 data object")
        }
        return answer.value
    }
}
