import Foundation
import NDEF
import NDEF
import NFCTags

/// Dump files the tests write themselves, in the formats `nfcsim --dump` reads (Flipper Zero
/// `.nfc`, Proxmark3 and Metrodroid JSON), from memory images the tests build: never copies of
/// real dumps.
public enum DumpFiles {
    /// Uppercase hex, bytes separated by `separator`.
    public static func hex(_ bytes: some Sequence<UInt8>, separator: String = " ") -> String {
        bytes.map { Hex.spaced([$0], uppercase: true) }.joined(separator: separator)
    }

    static func flipperHeader(version: Int, deviceType: String, uid: [UInt8]) -> String {
        """
        Filetype: Flipper NFC device
        Version: \(version)
        # Device type can be ISO14443-3A, ISO14443-3B, ISO14443-4A, ISO15693-3, FeliCa, NTAG/Ultralight, Mifare Classic
        Device type: \(deviceType)
        # UID is common for all formats
        UID: \(hex(uid))

        """
    }

    /// A Flipper NTAG/Ultralight file: version 2 writes the ATQA least significant byte first and
    /// names the chip in `Device type`; version 4 uses `NTAG/Ultralight type`.
    /// `signature`: the `Signature:` line (a real chip's, for the originality check; else one
    /// that verifies under no key).
    public static func flipperType2(version: Int = 4, chip: String, memory: [UInt8], getVersion: [UInt8]?, pagesRead: Int? = nil,
                                    signature: [UInt8] = [UInt8](repeating: 0xA5, count: 32)) -> String {
        let uid = Array(memory[0..<3] + memory[4..<8])
        var text = flipperHeader(version: version, deviceType: version == 4 ? "NTAG/Ultralight" : chip, uid: uid)
        text += "ATQA: \(version == 2 ? "44 00" : "00 44")\nSAK: 00\n"
        if version == 4 { text += "NTAG/Ultralight type: \(chip)\n" }
        text += "Signature: \(hex(signature))\n"
        text += "Mifare version: \(hex(getVersion ?? [UInt8](repeating: 0, count: 8)))\n"
        for index in 0..<3 { text += "Counter \(index): \(index)\nTearing \(index): 00\n" }
        let pages = memory.count / 4
        text += "Pages total: \(pages)\nPages read: \(pagesRead ?? pages)\n"
        for page in 0..<(pagesRead ?? pages) { text += "Page \(page): \(hex(memory[(page * 4)..<(page * 4 + 4)]))\n" }
        return text
    }

    /// A Flipper MIFARE Classic file; the sectors in `unread` show `??` throughout (no key found).
    public static func flipperClassic(size: MifareClassicSize, uid: [UInt8], memory: [UInt8], unread: Set<Int> = []) -> String {
        var text = flipperHeader(version: 4, deviceType: "Mifare Classic", uid: uid)
        let typeName = switch size { case .mini: "MINI"; case .classic1K: "1K"; case .classic4K: "4K" }
        text += "ATQA: \(size == .classic4K ? "00 02" : "00 04")\nSAK: \(hex([size.sak]))\nMifare Classic type: \(typeName)\nData format version: 2\n"
        for block in 0..<size.blockCount {
            let bytes = unread.contains(size.sector(ofBlock: block))
                ? Array(repeating: "??", count: 16).joined(separator: " ")
                : hex(memory[(block * 16)..<(block * 16 + 16)])
            text += "Block \(block): \(bytes)\n"
        }
        return text
    }

    /// A Flipper ISO 15693 (SLIX) file.
    public static func flipperType5(uid: [UInt8], blockSize: Int, memory: [UInt8]) -> String {
        var text = flipperHeader(version: 4, deviceType: "SLIX", uid: uid)
        text += "DSFID: 00\nAFI: 00\nIC Reference: 01\nLock DSFID: false\nLock AFI: false\n"
        text += "Block Count: \(memory.count / blockSize)\nBlock Size: \(hex([UInt8(blockSize)]))\nData Content: \(hex(memory))\n"
        text += "Security Status: \(hex([UInt8](repeating: 0, count: memory.count / blockSize)))\nCapabilities: Default\nPrivacy Mode: false\n"
        return text
    }

    /// A Flipper FeliCa Lite-S file: 14 S_PAD blocks (the NDEF service), each after its two
    /// status flags, then the system blocks.
    public static func flipperFeliCa(idm: [UInt8], pmm: [UInt8], blocks: [UInt8]) -> String {
        var text = flipperHeader(version: 4, deviceType: "FeliCa", uid: idm)
        text += "Data format version: 1\nManufacture id: \(hex(idm))\nManufacture parameter: \(hex(pmm))\nBlocks total: 28\nBlocks read: 28\n"
        for block in 0..<28 {
            let data = block < blocks.count / 16 ? Array(blocks[(block * 16)..<(block * 16 + 16)]) : [UInt8](repeating: 0, count: 16)
            text += "Block \(block): 00 00 \(hex(data))\n"
        }
        return text
    }

    /// `hf mfu dump` JSON.
    public static func proxmarkUltralight(memory: [UInt8], getVersion: [UInt8]) -> String {
        let uid = Array(memory[0..<3] + memory[4..<8])
        let blocks = (0..<(memory.count / 4)).map { "    \"\($0)\": \"\(hex(memory[($0 * 4)..<($0 * 4 + 4)], separator: ""))\"" }
        return """
        {
          "Created": "proxmark3",
          "FileType": "mfu",
          "Card": {
            "UID": "\(hex(uid, separator: ""))",
            "Version": "\(hex(getVersion, separator: ""))",
            "TBO_0": "0000",
            "TBO_1": "00",
            "Signature": "\(String(repeating: "00", count: 32))",
            "Counter0": "000000", "Tearing0": "00", "Counter1": "000000", "Tearing1": "00", "Counter2": "000000", "Tearing2": "BD"
          },
          "blocks": {
        \(blocks.joined(separator: ",\n"))
          }
        }
        """
    }

    /// `hf mf dump` JSON (ATQA as the Proxmark3 keeps it, least significant byte first).
    public static func proxmarkClassic(size: MifareClassicSize, uid: [UInt8], memory: [UInt8]) -> String {
        let blocks = (0..<size.blockCount).map { "    \"\($0)\": \"\(hex(memory[($0 * 16)..<($0 * 16 + 16)], separator: ""))\"" }
        return """
        {
          "Created": "proxmark3",
          "FileType": "mfcard",
          "Card": {"UID": "\(hex(uid, separator: ""))", "ATQA": "\(size == .classic4K ? "0200" : "0400")", "SAK": "\(hex([size.sak]))"},
          "blocks": {
        \(blocks.joined(separator: ",\n"))
          }
        }
        """
    }

    /// Metrodroid JSON of an Ultralight or NTAG.
    public static func metrodroidUltralight(memory: [UInt8], model: String) -> String {
        let uid = Array(memory[0..<3] + memory[4..<8])
        let pages = (0..<(memory.count / 4)).map { "{\"data\": \"\(hex(memory[($0 * 4)..<($0 * 4 + 4)], separator: "").lowercased())\"}" }
        return """
        {"tagId": "\(hex(uid, separator: ""))", "scannedAt": {"timeInMillis": 1234567890123, "tz": "UTC"},
         "mifareUltralight": {"cardModel": "\(model)", "pages": [\(pages.joined(separator: ", "))]}}
        """
    }

    /// Metrodroid JSON of a MIFARE Classic: trailers read with their keys as zeros, key A beside
    /// the blocks as Metrodroid keeps it.
    public static func metrodroidClassic(size: MifareClassicSize, uid: [UInt8], memory: [UInt8]) -> String {
        let sectors = (0..<size.sectorCount).map { sector -> String in
            let first = size.firstBlock(ofSector: sector), count = size.blocks(inSector: sector)
            var blocks = (first..<(first + count)).map { Array(memory[($0 * 16)..<($0 * 16 + 16)]) }
            let keyA = Array(blocks[count - 1][0..<6])
            blocks[count - 1].replaceSubrange(0..<6, with: [UInt8](repeating: 0, count: 6))
            blocks[count - 1].replaceSubrange(10..<16, with: [UInt8](repeating: 0, count: 6))
            return "{\"blocks\": [\(blocks.map { "\"\(hex($0, separator: "").lowercased())\"" }.joined(separator: ", "))], \"keyA\": \"\(hex(keyA, separator: "").lowercased())\"}"
        }
        return """
        {"tagId": "\(hex(uid, separator: ""))", "scannedAt": {"timeInMillis": 1234567890123, "tz": "UTC"},
         "mifareClassic": {"sectors": [\(sectors.joined(separator: ",\n"))]}}
        """
    }

    /// Metrodroid JSON of a FeliCa: the NDEF service 11 of system 4860 (0x12FC).
    public static func metrodroidFeliCa(idm: [UInt8], pmm: [UInt8], blocks: [UInt8]) -> String {
        let map = (0..<(blocks.count / 16)).map { "\"\($0)\": {\"data\": \"\(hex(blocks[($0 * 16)..<($0 * 16 + 16)], separator: "").lowercased())\"}" }
        return """
        {"tagId": "\(hex(idm, separator: "").lowercased())", "scannedAt": {"timeInMillis": 1234567890123, "tz": "UTC"},
         "felica": {"pMm": "\(hex(pmm, separator: "").lowercased())", "systems": {"4860": {"services": {"11": {"blocksMap": {\(map.joined(separator: ", "))}}}}}}}
        """
    }

    /// Writes `contents` to a new temporary file ending in `suffix`; the caller removes it.
    public static func write(_ contents: [UInt8], suffix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nfcsim-dump-\(UUID().uuidString)\(suffix)")
        try Data(contents).write(to: url)
        return url
    }

    public static func write(_ text: String, suffix: String) throws -> URL {
        try write(Array(text.utf8), suffix: suffix)
    }
}
