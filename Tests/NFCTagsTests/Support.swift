import NDEF
import TestSupport
import NFCSim
import NFCTags

/// A one-record message (media type text/plain) whose encoding is exactly `size` bytes:
/// 13 bytes of short-record header and type, or 16 with the 4-byte payload length.
func message(encodedSize size: Int) -> NDEFMessage {
    let payloadLength = size - 13 <= 0xFF ? size - 13 : size - 16
    precondition(payloadLength >= 0 && (size - 13 <= 0xFF || payloadLength > 0xFF), "no record encodes to \(size) bytes")
    let payload = (0..<payloadLength).map { UInt8(truncatingIfNeeded: 0x20 + $0 % 0x5F) }
    let message = NDEFMessage(NDEFRecord(tnf: .media, type: "text/plain", payload: payload))
    precondition(message.encoded().count == size)
    return message
}

/// A 35-byte message: its TLV fits in the first read of any Type 2 chip.
let poster = NDEFMessage(URIRecord(uri: "https://example.com/summer-concert").record())

/// A PN532's InDataExchange delivers at most 252 data bytes; FAST_READ must be split to fit.
let pn532Link = LinkCapabilities(maxResponseLength: 252, passesType2Extensions: true, extendedLengthAPDUs: false)
/// A PC/SC Part 3 storage-card link: READ only (FF B0), no GET_VERSION or FAST_READ.
let storageCardLink = LinkCapabilities(maxResponseLength: 258, passesType2Extensions: false, extendedLengthAPDUs: false)
/// A PC/SC link to an ISO-DEP card, short APDUs only.
let shortAPDULink = LinkCapabilities(maxResponseLength: 258, passesType2Extensions: false, extendedLengthAPDUs: false)

/// The first byte of every command sent, to check the sequence a read used.
func commandCodes<Object>(_ transport: InProcessTransport<Object>) async -> [UInt8] {
    await transport.commands.map { $0.first ?? 0 }
}
