import NDEF
import NFCTags

extension VirtualMifareClassic {
    /// The chip as a PN532 finds it: ATQA 00 04 (1K, Mini) or 00 02 (4K) as libnfc prints it,
    /// SAK 08 / 18 / 09 (or a dump's own), its UID. InDataExchange passes AUTHENTICATE and READ to it as they are
    /// (the PN532 does the authentication with the key in the command).
    public var pn532Target: PN532VirtualObjectTarget<VirtualMifareClassic> {
        let atqa = self.atqa ?? (size == .classic4K ? [0x00, 0x02] : [0x00, 0x04])
        return PN532VirtualObjectTarget(self, identity: .iso14443A(sensRes: atqa, selRes: sak ?? size.sak, nfcid1: uid, ats: nil))
    }
}

/// A MIFARE Classic as a PC/SC Part 3 storage card (ATR standard 03, card name 00 01 for 1K,
/// 00 02 for 4K, 00 26 for Mini), answering the reader's pseudo-APDUs as an ACR122U-class
/// reader does:
///
/// | APDU | answer |
/// |---|---|
/// | `FF CA 00 00 00` | the UID, 90 00 |
/// | `FF 82 00 NN 06 <key>` (LOAD KEYS, volatile key slot NN 00–01) | 90 00 |
/// | `FF 86 00 00 05 01 00 BB 60|61 NN` (GENERAL AUTHENTICATE with slot NN) | 90 00, or 63 00 when the chip refuses (slot empty: 69 86) |
/// | `FF B0 00 BB 10` (or Le 00) | the block, 90 00; 69 82 when its sector is not authenticated; 6A 82 past the end |
/// | `FF D6 00 BB 10 <16 bytes>` (UPDATE BINARY) | 90 00 once the chip took MIFARE WRITE; 63 00 when it refused (sector not authenticated, access bits); 6A 82 past the end |
/// | other FF instructions | 6D 00; other classes 6A 81 |
public struct VPCDMifareClassicCard: VPCDCard {
    public var chip: VirtualMifareClassic
    /// The reader's volatile key slots.
    public private(set) var keys: [UInt8: [UInt8]] = [:]
    /// Commands sent to the chip (round trips on the air).
    public private(set) var chipCommands = 0

    public init(chip: VirtualMifareClassic) { self.chip = chip }

    public var atr: [UInt8] {
        let name: UInt16 = switch chip.size {
        case .classic1K: 0x0001
        case .classic4K: 0x0002
        case .mini: 0x0026
        }
        return ContactlessATR.storageCard(standard: .iso14443APart3, cardName: name)
    }

    public var isPresent: Bool { chip.isPresent }
    public mutating func activate() { _ = chip.reactivate() }

    public mutating func transmit(_ apdu: [UInt8]) -> [UInt8]? {
        guard chip.isPresent else { return nil }
        return StorageCardAPDU.answer(apdu, uid: chip.uid) { instruction($0, raw: apdu) }
    }

    /// The card's own instructions, after the reader's checks and GET DATA.
    private mutating func instruction(_ command: CommandAPDU, raw apdu: [UInt8]) -> [UInt8]? {
        switch command.ins {
        case 0x82:
            guard command.p1 == 0x00, command.p2 <= 0x01 else { return ResponseAPDU(status: .functionNotSupported).bytes }
            guard command.data.count == 6, command.le == nil else { return ResponseAPDU(status: .wrongLength).bytes }
            keys[command.p2] = command.data
            return ResponseAPDU(status: .success).bytes
        case 0x86:
            let data = command.data
            guard command.p1 == 0x00, command.p2 == 0x00, data.count == 5, data[0] == 0x01 else { return ResponseAPDU(status: .wrongLength).bytes }
            guard data[3] == 0x60 || data[3] == 0x61 else { return ResponseAPDU(status: .functionNotSupported).bytes }
            guard let key = keys[data[4]] else { return ResponseAPDU(status: .noCurrentFile).bytes }
            let block = Int(data[1]) << 8 | Int(data[2])
            guard block < chip.size.blockCount else { return ResponseAPDU(status: .fileNotFound).bytes }
            chipCommands += 1
            switch chip.respond(to: MifareClassicCommand.authenticate(block: UInt8(block), key: key, keyB: data[3] == 0x61, uid: chip.uid)) {
            case .frame: return ResponseAPDU(status: .success).bytes
            case .nak, .silence:
                guard chip.isPresent else { return nil }
                _ = chip.reactivate()    // the reader selects the chip again for the next attempt
                return ResponseAPDU(status: .operationFailed).bytes
            }
        case 0xB0:
            guard command.data.isEmpty, command.le != nil else { return ResponseAPDU(status: .wrongLength).bytes }
            guard apdu[4] == 0x00 || apdu[4] == 0x10 else { return ResponseAPDU(status: .wrongLe(exact: 0x10)).bytes }
            let block = Int(command.p1) << 8 | Int(command.p2)
            guard block < chip.size.blockCount else { return ResponseAPDU(status: .fileNotFound).bytes }
            chipCommands += 1
            switch chip.respond(to: [MifareClassicCommand.read, UInt8(block)]) {
            case .frame(let bytes): return ResponseAPDU(data: bytes, status: .success).bytes
            case .nak, .silence:
                guard chip.isPresent else { return nil }
                _ = chip.reactivate()
                return ResponseAPDU(status: .securityStatusNotSatisfied).bytes
            }
        case 0xD6:
            return classicUpdateBinary(command)
        default:
            return ResponseAPDU(status: .instructionNotSupported).bytes
        }
    }
}

extension VPCDMifareClassicCard {
    /// UPDATE BINARY `FF D6 00 BB 10 <16 bytes>`: one MIFARE WRITE to block BB.
    mutating func classicUpdateBinary(_ command: CommandAPDU) -> [UInt8]? {
        guard command.data.count == MifareClassicSize.blockSize, command.le == nil else { return ResponseAPDU(status: .wrongLength).bytes }
        let block = Int(command.p1) << 8 | Int(command.p2)
        guard block < chip.size.blockCount else { return ResponseAPDU(status: .fileNotFound).bytes }
        chipCommands += 1
        switch chip.respond(to: MifareClassicCommand.write(block: block, bytes: command.data)) {
        case .frame: return ResponseAPDU(status: .success).bytes
        case .nak, .silence:
            guard chip.isPresent else { return nil }
            _ = chip.reactivate()
            return ResponseAPDU(status: .operationFailed).bytes
        }
    }
}

/// A Type 5 object (ISO 15693) as a PC/SC Part 3 storage card: ATR standard 0B (ISO 15693 part
/// 3), card name 00 14 (ICODE) or 00 00; `FF CA 00 00 00` the UID (as stored, E0 first);
/// `FF B0 00 BB LE` blocks from BB through READ SINGLE BLOCK commands, LE 00 meaning one block
/// and otherwise a multiple of the block size; 6A 82 past the end; 6C with the block size for
/// another LE. `FF D6 00 BB Lc data` writes one block through WRITE SINGLE BLOCK (Lc the block
/// size, else 67 00; 6A 82 past the end; 63 00 when the chip refuses, as for a locked block).
public struct VPCDType5Card: VPCDCard {
    public var chip: VirtualType5Tag
    public private(set) var chipCommands = 0

    public init(chip: VirtualType5Tag) { self.chip = chip }

    public var atr: [UInt8] {
        ContactlessATR.storageCard(standard: .iso15693Part3, cardName: chip.uid.count > 1 && chip.uid[1] == 0x04 ? 0x0014 : 0x0000)
    }

    public var isPresent: Bool { chip.isPresent }
    public mutating func activate() { _ = chip.reactivate() }

    public mutating func transmit(_ apdu: [UInt8]) -> [UInt8]? {
        guard chip.isPresent else { return nil }
        return StorageCardAPDU.answer(apdu, uid: chip.uid) { instruction($0, raw: apdu) }
    }

    /// The card's own instructions, after the reader's checks and GET DATA.
    private mutating func instruction(_ command: CommandAPDU, raw apdu: [UInt8]) -> [UInt8]? {
        switch command.ins {
        case 0xB0:
            guard command.data.isEmpty, command.le != nil else { return ResponseAPDU(status: .wrongLength).bytes }
            let blockSize = chip.product.blockSize
            let length = apdu[4] == 0x00 ? blockSize : Int(apdu[4])
            guard length % blockSize == 0 else { return ResponseAPDU(status: .wrongLe(exact: UInt8(blockSize))).bytes }
            let first = Int(command.p1) << 8 | Int(command.p2)
            guard first + length / blockSize <= chip.product.blockCount else { return ResponseAPDU(status: .fileNotFound).bytes }
            var data: [UInt8] = []
            for block in first..<(first + length / blockSize) {
                chipCommands += 1
                switch chip.respond(to: Type5Command.readSingle(block: UInt8(block))) {
                case .frame(let bytes) where bytes.first == 0x00: data += bytes.dropFirst()
                default:
                    guard chip.isPresent else { return nil }
                    return ResponseAPDU(status: .operationFailed).bytes
                }
            }
            return ResponseAPDU(data: data, status: .success).bytes
        case 0xD6:
            return updateBinary(command)
        default:
            return ResponseAPDU(status: .instructionNotSupported).bytes
        }
    }

    /// UPDATE BINARY: one block, through WRITE SINGLE BLOCK.
    private mutating func updateBinary(_ command: CommandAPDU) -> [UInt8]? {
        guard command.data.count == chip.product.blockSize, command.le == nil else { return ResponseAPDU(status: .wrongLength).bytes }
        let block = Int(command.p1) << 8 | Int(command.p2)
        guard block < chip.product.blockCount, block <= 0xFF else { return ResponseAPDU(status: .fileNotFound).bytes }
        chipCommands += 1
        switch chip.respond(to: Type5Command.write(block: UInt8(block), command.data, option: false)) {
        case .frame([0x00]): return ResponseAPDU(status: .success).bytes
        default:
            guard chip.isPresent else { return nil }
            return ResponseAPDU(status: .operationFailed).bytes
        }
    }
}
