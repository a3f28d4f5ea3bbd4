import NDEF
import NFCTags

extension PCSCCardIdentity {
    /// The MIFARE Classic size the Part 3 card name gives (00 01 1K, 00 02 4K, 00 26 Mini).
    public var mifareClassicSize: MifareClassicSize? {
        switch kind {
        case .storageCard(_, 0x0001): .classic1K
        case .storageCard(_, 0x0002): .classic4K
        case .storageCard(_, 0x0026): .mini
        default: nil
        }
    }
}

/// MIFARE Classic and ISO 15693 over a PC/SC Part 3 storage-card link.
///
/// - MIFARE Classic: AUTHENTICATE `60|61 BB <key> <uid>` becomes LOAD KEYS
///   `FF 82 00 00 06 <key>` (volatile slot 0; skipped when the slot already holds the key) and
///   GENERAL AUTHENTICATE `FF 86 00 00 05 01 00 BB 60|61 00`; READ `30 BB` becomes
///   `FF B0 00 BB 10`; WRITE `A0 BB <16 bytes>` becomes UPDATE BINARY `FF D6 00 BB 10 <16 bytes>`
///   (an empty response on success, as a PN53x gives it). `90 00` is success; `63 00` (the reader's "operation failed") and
///   `69 82` (security status not satisfied) are the chip's refusal, passed on as a one-byte NAK.
/// - ISO 15693: READ SINGLE BLOCK `02 20 BB` becomes `FF B0 00 BB 00` (Le 00: one block), the
///   data returned behind a `00` flags byte; `6A 82` (no such block) becomes ISO 15693 error
///   `01 10` (block not available). GET SYSTEM INFORMATION and READ MULTIPLE BLOCKS have no
///   Part 3 mapping and are refused as not supported.
extension PCSCTransport {
    func mifareClassic(_ command: [UInt8]) async throws(TransportError) -> [UInt8] {
        switch (command.first, command.count) {
        case (MifareClassicCommand.authenticateA?, 12), (MifareClassicCommand.authenticateB?, 12):
            let key = Array(command[2..<8])
            if loadedKey.withLock({ $0 }) != key {
                let load = try await transmit([0xFF, 0x82, 0x00, 0x00, 0x06] + key)
                guard load == [0x90, 0x00] else {
                    throw .protocolError("LOAD KEYS answered \(Hex.spaced(load, uppercase: true))")
                }
                loadedKey.withLock { $0 = key }
            }
            let response = try await transmit([0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, command[1], command[0], 0x00])
            return try Self.classicAnswer(response, data: false)
        case (MifareClassicCommand.read?, 2):
            let response = try await transmit([0xFF, 0xB0, 0x00, command[1], 0x10])
            return try Self.classicAnswer(response, data: true)
        case (MifareClassicCommand.write?, 18):
            return try await mifareClassicWrite(command)
        default:
            throw .notSupported("MIFARE Classic command \(Hex.spaced(command.prefix(1), uppercase: true)) over a PC/SC storage-card link")
        }
    }

    /// MIFARE WRITE as UPDATE BINARY (PC/SC Part 3 §3.2.2.1.7).
    func mifareClassicWrite(_ command: [UInt8]) async throws(TransportError) -> [UInt8] {
        let response = try await transmit([0xFF, 0xD6, 0x00, command[1], 0x10] + command[2...])
        return try Self.classicAnswer(response, data: false)
    }

    static func classicAnswer(_ response: [UInt8], data: Bool) throws(TransportError) -> [UInt8] {
        guard response.count >= 2 else { throw .protocolError("a response without status word") }
        let sw = (response[response.count - 2], response[response.count - 1])
        switch sw {
        case (0x90, 0x00): return data ? Array(response.dropLast(2)) : []
        case (0x63, 0x00), (0x69, 0x82): return [0x04]
        case (0x6A, 0x81), (0x6D, 0x00), (0x6E, 0x00): throw .notSupported("MIFARE Classic (status word \(Hex.spaced([sw.0, sw.1], uppercase: true)))")
        default: throw .protocolError("status word \(Hex.spaced([sw.0, sw.1], uppercase: true))")
        }
    }

    func type5(_ command: [UInt8]) async throws(TransportError) -> [UInt8] {
        if let answer = try await type5Write(command) { return answer }
        guard command.count == 3, command[1] == Type5Command.readSingleBlock, command[0] & 0x20 == 0 else {
            throw .notSupported("ISO 15693 command \(Hex.spaced(command.dropFirst().prefix(1), uppercase: true)) over a PC/SC storage-card link (only READ SINGLE BLOCK, WRITE SINGLE BLOCK and INVENTORY map: to FF B0, FF D6 and FF CA)")
        }
        let response = try await transmit([0xFF, 0xB0, 0x00, command[2], 0x00])
        guard response.count >= 2 else { throw .protocolError("a response without status word") }
        switch (response[response.count - 2], response[response.count - 1]) {
        case (0x90, 0x00): return [0x00] + response.dropLast(2)
        case (0x6A, 0x82): return [0x01, 0x10]
        case (0x63, 0x00): throw .timeout
        case let (sw1, sw2): throw .protocolError("status word \(Hex.spaced([sw1, sw2], uppercase: true))")
        }
    }
}

/// ISO 15693 writing over a PC/SC Part 3 storage-card link.
///
/// - WRITE SINGLE BLOCK `02|22|42|62 21 [UID] BB data` becomes UPDATE BINARY
///   `FF D6 00 BB Lc data`; `90 00` is the chip's `00`, `6A 82` (no such block) error `01 10`,
///   `63 00` or `69 82` (the reader's "operation failed": a locked block, or no answer) error
///   `01 0F` (no information). The reader addresses the card it holds: an addressed command's
///   UID is dropped, which is safe because pcscd reports another card as this one removed
///   (SCARD_W_REMOVED_CARD) before any command reaches it. The option flag is the reader's
///   business (it knows the chip).
/// - INVENTORY (one slot) becomes GET DATA `FF CA 00 00 00`: `00 00 UID` (DSFID unknown: 00,
///   UID least significant byte first as on the air, whichever order the reader gives it).
/// - LOCK BLOCK has no Part 3 mapping: not supported (``Type5Writer`` then leaves the chip
///   locked by its CC alone, and says so).
extension PCSCTransport {
    /// The answer to a WRITE SINGLE BLOCK or INVENTORY, or nil for other commands.
    func type5Write(_ command: [UInt8]) async throws(TransportError) -> [UInt8]? {
        guard command.count >= 2 else { return nil }
        if command == Type5Command.inventoryOneSlot {
            let response = try await transmit([0xFF, 0xCA, 0x00, 0x00, 0x00])
            guard response.count == 10, response.suffix(2) == [0x90, 0x00] else {
                throw .protocolError("GET DATA answered \(Hex.spaced(response, uppercase: true)) for an ISO 15693 card")
            }
            var uid = Array(response.prefix(8))
            if uid.first != 0xE0 && uid.last == 0xE0 { uid.reverse() }
            return [0x00, 0x00] + uid.reversed()
        }
        guard command[1] == Type5Command.writeSingleBlock, command[0] & 0x04 == 0 else { return nil }
        let parameters = command.dropFirst(2).dropFirst(command[0] & Type5Command.addressedFlag != 0 ? 8 : 0)
        guard let block = parameters.first, parameters.count > 1 else {
            throw .protocolError("a WRITE SINGLE BLOCK without data")
        }
        let data = Array(parameters.dropFirst())
        let response = try await transmit([0xFF, 0xD6, 0x00, block, UInt8(data.count)] + data)
        guard response.count >= 2 else { throw .protocolError("a response without status word") }
        switch (response[response.count - 2], response[response.count - 1]) {
        case (0x90, 0x00): return [0x00]
        case (0x6A, 0x82): return [0x01, 0x10]
        case (0x63, 0x00), (0x69, 0x82): return [0x01, 0x0F]
        case let (sw1, sw2): throw .protocolError("status word \(Hex.spaced([sw1, sw2], uppercase: true))")
        }
    }
}

extension DetectedObject {
    /// Why a Type 5 (ISO 15693) object cannot be read through libnfc.
    public static let type5Unreachable = TagReadError.unsupported(
        "reading Type 5 (ISO 15693) objects through libnfc: PN53x readers have no ISO 15693 radio; use a PC/SC reader that offers ISO 15693")
}
