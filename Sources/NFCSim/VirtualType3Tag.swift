import NDEF
import NFCTags

/// A FeliCa Lite-S formatted for NDEF (NFC Forum Type 3), answering NFC-F frames (from the LEN
/// byte on, without CRC) as the FeliCa Lite-S user's manual describes:
///
/// - POLLING (`06 00 SC1 SC2 RC TSN`) for system code 12 FC or FF FF: `LEN 01 IDm PMm`, plus
///   the system code when RC is 01.
/// - Request Response (`0A 04 IDm`): `0B 05 IDm 00` (libnfc's presence check).
/// - Check (`LEN 06 IDm …`) of one service, 0x000B (NDEF read) or 0x0009 (read/write), at most
///   ``maxBlocksPerCheck`` blocks of the memory: `LEN 07 IDm 00 00 NN <blocks>`. A wrong
///   service, too many blocks or a block past the memory answer status flags FF A6 / FF A2 /
///   FF A8 without data (FeliCa card user's manual, status flag 2 codes).
/// - Update (`LEN 08 IDm …`, Write Without Encryption) of one service, 0x0009, at most
///   ``maxBlocksPerUpdate`` blocks (Lite-S: 1), 16 bytes each after the block list:
///   `0C 09 IDm 00 00`; the read-only service 0x000B answers FF A6 and nothing is written,
///   too many blocks FF A2, a block past the memory FF A8.
/// - A frame for another IDm, or a command the chip does not know, gets no answer.
public struct VirtualType3Tag: VirtualObject {
    public static let platform = TagPlatform.type3
    /// A Sony IDm (manufacturer code 01 2E: FeliCa Lite-S).
    public static let defaultIDm: [UInt8] = [0x01, 0x2E, 0x4C, 0xE1, 0xA2, 0xB3, 0xC4, 0xD5]
    /// FeliCa Lite-S PMm (IC type F1).
    public static let defaultPMm: [UInt8] = [0x00, 0xF1, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00]
    /// FeliCa Lite-S: 14 user blocks (S_PAD0–13), attribute block included; Nbr 4, Nbw 1.
    public static let liteSBlocks = 14
    public static let liteSBlocksPerCheck = 4

    public let idm: [UInt8]
    public let pmm: [UInt8]
    public let systemCode: [UInt8]
    /// The NDEF service's blocks, block 0 (the attribute block) first, 16 bytes each.
    public private(set) var memory: [UInt8]
    /// The chip's own limit per Check (Lite-S: 4), whatever the attribute block claims.
    public var maxBlocksPerCheck: Int
    /// The chip's own limit per Update (Lite-S: 1), whatever the attribute block claims.
    public var maxBlocksPerUpdate = 1
    public var presence: FieldPresence

    /// A Lite-S holding `message` (nil: formatted, empty), with an attribute block stating
    /// Nbr `blocksPerCheck` (the chip's limit too) and Nmaxb = blocks − 1.
    public init(message: NDEFMessage?, idm: [UInt8] = defaultIDm, pmm: [UInt8] = defaultPMm,
                blocks: Int = liteSBlocks, blocksPerCheck: Int = liteSBlocksPerCheck,
                presence: FieldPresence = FieldPresence()) throws(VirtualObjectError) {
        let bytes = message?.encoded() ?? []
        let capacity = (blocks - 1) * 16
        guard bytes.count <= capacity else { throw .doesNotFit(needed: bytes.count, capacity: capacity) }
        let attribute = Type3AttributeBlock.encode(blocksPerCheck: blocksPerCheck, blocksPerUpdate: 1,
                                                   maxBlocks: blocks - 1, ndefLength: bytes.count)
        let image = attribute + bytes + [UInt8](repeating: 0, count: capacity - bytes.count)
        try self.init(image: image, idm: idm, pmm: pmm, blocksPerCheck: blocksPerCheck, presence: presence)
    }

    /// A chip whose NDEF service holds exactly `image` (a multiple of 16 bytes, attribute block
    /// first), for unusual and hostile layouts.
    public init(image: [UInt8], idm: [UInt8] = defaultIDm, pmm: [UInt8] = defaultPMm, blocksPerCheck: Int = liteSBlocksPerCheck,
                presence: FieldPresence = FieldPresence()) throws(VirtualObjectError) {
        guard idm.count == 8 else { throw .invalidUID(length: idm.count) }
        guard image.count % 16 == 0, !image.isEmpty else { throw .wrongImageSize(expected: (image.count / 16 + 1) * 16, actual: image.count) }
        self.idm = idm
        self.pmm = pmm
        systemCode = FeliCaFrame.ndefSystemCode
        memory = image
        maxBlocksPerCheck = blocksPerCheck
        self.presence = presence
    }

    public var isPresent: Bool { presence.isPresent }
    public var blockCount: Int { memory.count / 16 }

    /// Overwrites block `block` on (for building hostile images from a formatted one).
    public mutating func write(_ bytes: [UInt8], atBlock block: Int) {
        let start = block * 16
        precondition(start + bytes.count <= memory.count, "write past the end of the chip")
        memory.replaceSubrange(start..<(start + bytes.count), with: bytes)
    }

    public mutating func reactivate() -> Bool { presence.isPresent }

    public mutating func respond(to frame: [UInt8]) -> VirtualReply {
        guard presence.admit() else { return .silence }
        guard frame.count >= 2, Int(frame[0]) == frame.count else { return .silence }
        switch frame[1] {
        case FeliCaFrame.pollingCode where frame.count == 6:
            guard zip(frame[2...3], systemCode).allSatisfy({ $0 == 0xFF || $0 == $1 }) else { return .silence }
            let body = [0x01] + idm + pmm + (frame[4] == 0x01 ? systemCode : [])
            return .frame([UInt8(body.count + 1)] + body)
        case FeliCaFrame.requestResponseCode where frame.count == 10 && Array(frame[2..<10]) == idm:
            return .frame([0x0B, 0x05] + idm + [0x00])
        case FeliCaFrame.checkCode where frame.count >= 10 && Array(frame[2..<10]) == idm:
            return .frame(check(Array(frame[10...])))
        case FeliCaFrame.updateCode where frame.count >= 10 && Array(frame[2..<10]) == idm:
            return .frame(update(Array(frame[10...])))
        default:
            return .silence
        }
    }

    private func check(_ p: [UInt8]) -> [UInt8] {
        func answer(_ flag1: UInt8, _ flag2: UInt8, _ data: [UInt8] = []) -> [UInt8] {
            let body = [FeliCaFrame.checkCode + 1] + idm + [flag1, flag2] + (flag1 == 0 ? [UInt8(data.count / 16)] + data : [])
            return [UInt8(body.count + 1)] + body
        }
        // One service, 0x000B or 0x0009 (little-endian on the air).
        switch blockList(p, services: [0x0B, 0x09], limit: maxBlocksPerCheck) {
        case .failure(let refusal): return answer(0xFF, refusal.flag2)
        case .success(let (blocks, end)):
            guard end == p.count else { return answer(0xFF, 0xA2) }
            return answer(0x00, 0x00, blocks.flatMap { memory[($0 * 16)..<(($0 + 1) * 16)] })
        }
    }

    /// Write Without Encryption to the read/write service 0x0009 only; nothing is written unless
    /// the whole frame is right.
    private mutating func update(_ p: [UInt8]) -> [UInt8] {
        func answer(_ flag1: UInt8, _ flag2: UInt8) -> [UInt8] { [0x0C, FeliCaFrame.updateCode + 1] + idm + [flag1, flag2] }
        switch blockList(p, services: [0x09], limit: maxBlocksPerUpdate) {
        case .failure(let refusal): return answer(0xFF, refusal.flag2)
        case .success(let (blocks, end)):
            guard p.count - end == blocks.count * 16 else { return answer(0xFF, 0xA2) }
            for (index, block) in blocks.enumerated() {
                memory.replaceSubrange((block * 16)..<((block + 1) * 16), with: p[(end + index * 16)..<(end + index * 16 + 16)])
            }
            return answer(0x00, 0x00)
        }
    }

    /// Status flag 2 of a refused frame (FeliCa card user's manual).
    private struct Refusal: Error { var flag2: UInt8 }

    /// The one service (of `services`, low byte on the air; high byte 00) and the block list of
    /// a Check or Update: the blocks and where the list ends.
    private func blockList(_ p: [UInt8], services: Set<UInt8>, limit: Int) -> Result<([Int], Int), Refusal> {
        guard p.count >= 4, p[0] == 1 else { return .failure(Refusal(flag2: 0xA1)) }
        guard services.contains(p[1]), p[2] == 0x00 else { return .failure(Refusal(flag2: 0xA6)) }
        let count = Int(p[3])
        guard count >= 1, count <= limit else { return .failure(Refusal(flag2: 0xA2)) }
        var index = 4, blocks: [Int] = []
        for _ in 0..<count {
            guard index < p.count else { return .failure(Refusal(flag2: 0xA2)) }
            let block: Int
            if p[index] & 0x80 != 0 {
                guard index + 2 <= p.count, p[index] & 0x0F == 0 else { return .failure(Refusal(flag2: 0xA3)) }
                block = Int(p[index + 1]); index += 2
            } else {
                guard index + 3 <= p.count, p[index] & 0x0F == 0 else { return .failure(Refusal(flag2: 0xA3)) }
                block = Int(p[index + 1]) | Int(p[index + 2]) << 8; index += 3
            }
            guard block < blockCount else { return .failure(Refusal(flag2: 0xA8)) }
            blocks.append(block)
        }
        return .success((blocks, index))
    }
}
