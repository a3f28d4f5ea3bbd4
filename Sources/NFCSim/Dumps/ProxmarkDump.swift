import NFCTags

/// Proxmark3 JSON dumps (client `saveFileJSON`): `"FileType": "mfu"` (`hf mfu dump`: `Card` with
/// UID, GET_VERSION, signature, counters; `blocks` of 4 bytes), `"mfcard"` (`hf mf dump`: `Card`
/// with UID, ATQA, SAK; `blocks` of 16 bytes; `SectorKeys`) and `"15693"` (`hf 15 dump`: the
/// memory in `raw`, or `blocks`).
enum ProxmarkDump {
    static func parse(_ json: DumpJSON) throws(DumpError) -> Dump {
        guard let type = json["FileType"]?.text else { throw DumpError("$.FileType", "missing or not a string", remedy: DumpError.fromTheReader) }
        let card = json["Card"]
        switch type {
        case "mfu":
            let blocks = try JSONDump.numberedBlocks(json["blocks"], "$.blocks", size: [4])
            let total = (blocks.keys.max() ?? -1) + 1
            guard total >= 4 else { throw DumpError("$.blocks", "has \(total) pages; a Type 2 chip has at least 4", remedy: DumpError.fromTheReader) }
            let version = try JSONDump.hex(card?["Version"], "$.Card.Version", count: [8])
            let product = Type2Dump.product(name: nil, version: version, pageCount: total)
            let memory = (0..<total).flatMap { blocks[$0] ?? [0, 0, 0, 0] }
            let signature = dumpedSignature(try JSONDump.hex(card?["Signature"], "$.Card.Signature", count: [32]), signs: product.originality != nil)
            var counters: [UInt32] = []
            if product.version?[2] == 0x03 {
                for index in 0..<3 {
                    let bytes = try JSONDump.hex(card?["Counter\(index)"], "$.Card.Counter\(index)", count: [3]) ?? [0, 0, 0]
                    counters.append(UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16)
                }
            }
            let missing = total - blocks.count
            let dump = Type2Dump(product: product, memory: memory, atqa: [0x00, 0x44], sak: 0x00, signature: signature, counters: counters)
            return Dump(format: .proxmark3, chip: .type2(dump), notes: missing == 0 ? [] : ["\(missing) of \(total) pages are missing; they read as zeros"])
        case "mfcard", "mfc v2", "mfc v3":
            let blocks = try JSONDump.numberedBlocks(json["blocks"], "$.blocks", size: [16])
            let count = (blocks.keys.max() ?? -1) + 1
            guard let size = ClassicDump.size(blockCount: count) else {
                throw DumpError("$.blocks", "has \(count) blocks; a MIFARE Classic has 20 (Mini), 64 (1K) or 256 (4K)", remedy: DumpError.fromTheReader)
            }
            var uid = try JSONDump.hex(card?["UID"], "$.Card.UID", count: [4, 7])
            if uid == nil { uid = blocks[0].map { Array($0[0..<4]) } }
            // The Proxmark3 keeps ATQA as received, least significant byte first.
            let atqa = try JSONDump.hex(card?["ATQA"], "$.Card.ATQA", count: [2]).map { Array($0.reversed()) }
            let sak = try JSONDump.hex(card?["SAK"], "$.Card.SAK", count: [1])?[0]
            var table: [[UInt8?]?] = (0..<size.blockCount).map { blocks[$0]?.map { Optional($0) } }
            // SectorKeys carry keys a trailer read may show as zeros.
            for (key, entry) in json["SectorKeys"]?.members ?? [] {
                guard let sector = Int(key), sector >= 0, sector < size.sectorCount else { continue }
                let trailer = size.trailerBlock(ofSector: sector)
                if let keyA = try JSONDump.hex(entry["KeyA"], "$.SectorKeys.\(sector).KeyA", count: [6]), table[trailer] != nil {
                    table[trailer]!.replaceSubrange(0..<6, with: keyA.map { Optional($0) })
                }
                if let keyB = try JSONDump.hex(entry["KeyB"], "$.SectorKeys.\(sector).KeyB", count: [6]), table[trailer] != nil {
                    table[trailer]!.replaceSubrange(10..<16, with: keyB.map { Optional($0) })
                }
            }
            let dump = ClassicDump(size: size, uid: uid ?? [0, 0, 0, 0], atqa: atqa, sak: sak, blocks: table)
            return Dump(format: .proxmark3, chip: .classic(dump), notes: FlipperDump.classicNotes(dump))
        case let type where type.hasPrefix("15693"):
            var memory = try JSONDump.hex(json["raw"], "$.raw")
            var blockSize = 4
            if memory == nil {
                let blocks = try JSONDump.numberedBlocks(json["blocks"], "$.blocks", size: Set(1...DumpLimits.blockBytes))
                let count = (blocks.keys.max() ?? -1) + 1
                blockSize = blocks.values.first?.count ?? 4
                guard blocks.values.allSatisfy({ $0.count == blockSize }) else {
                    throw DumpError("$.blocks", "blocks of different sizes", remedy: DumpError.fromTheReader)
                }
                memory = (0..<count).flatMap { blocks[$0] ?? [UInt8](repeating: 0, count: blockSize) }
            }
            guard let memory, !memory.isEmpty, memory.count % blockSize == 0, memory.count / blockSize <= DumpLimits.blocks else {
                throw DumpError("$.raw", "not 1 to \(DumpLimits.blocks) blocks of \(blockSize) bytes", remedy: DumpError.fromTheReader)
            }
            // UIDs are written most significant byte (E0) first.
            let uid = try JSONDump.hex(card?["UID"], "$.Card.UID", count: [8]) ?? Type5Product.icodeSLIX2.defaultUID
            let product = Type5Product(name: uid[1] == 0x04 ? "ICODE SLIX" : "ISO 15693 chip", blockCount: memory.count / blockSize, blockSize: blockSize, defaultUID: uid)
            return Dump(format: .proxmark3, chip: .type5(Type5Dump(product: product, uid: uid, memory: memory)))
        default:
            throw DumpError("$.FileType", "'\(DumpHex.printable(type))' is not a dump nfcsim presents",
                            remedy: "nfcsim presents Proxmark3 dumps of hf mfu, hf mf and hf 15")
        }
    }
}
