import NFCTags

/// Metrodroid JSON dumps: `tagId` (the UID or IDm) and one of `mifareUltralight` (`cardModel`,
/// `pages[].data`), `mifareClassic` (`sectors[]`: `blocks[]` and `keyA`/`keyB`; a sector
/// without blocks was not read) or `felica` (`pMm`, `systems.<code>.services.<code>.blocksMap.<n>.data`,
/// codes in decimal).
enum MetrodroidDump {
    static func parse(_ json: DumpJSON) throws(DumpError) -> Dump {
        let uid = try JSONDump.hex(json["tagId"], "$.tagId") ?? []
        if let ultralight = json["mifareUltralight"] { return try type2(ultralight, uid: uid) }
        if let sectors = json["mifareClassic"] { return try classic(sectors, uid: uid) }
        if let systems = json["felica"] { return try felica(systems, idm: uid) }
        throw DumpError("$", "holds none of mifareUltralight, mifareClassic and felica",
                        remedy: "nfcsim presents Metrodroid dumps of MIFARE Ultralight and NTAG, MIFARE Classic and FeliCa")
    }

    /// GET_VERSION answers of the chips Metrodroid names (it keeps the model, not the answer).
    static func version(cardModel: String?) -> [UInt8]? {
        switch cardModel {
        case "EV1_MF0UL11": Type2Product.ultralightEV1_48.version
        case "EV1_MF0UL21": Type2Product.ultralightEV1_128.version
        case "NTAG213": Type2Product.ntag213.version
        case "NTAG215": Type2Product.ntag215.version
        case "NTAG216": Type2Product.ntag216.version
        default: nil
        }
    }

    static func type2(_ json: DumpJSON, uid: [UInt8]) throws(DumpError) -> Dump {
        guard let pages = json["pages"]?.items else { throw DumpError("$.mifareUltralight.pages", "missing, or not an array", remedy: DumpError.fromTheReader) }
        guard (4...DumpLimits.blocks).contains(pages.count) else {
            throw DumpError("$.mifareUltralight.pages", "has \(pages.count) pages, not 4 to \(DumpLimits.blocks)", remedy: DumpError.fromTheReader)
        }
        var memory: [UInt8] = [], unread = 0
        for (index, page) in pages.enumerated() {
            if page["isUnauthorized"] == .bool(true) || page["data"] == nil {
                memory += [0, 0, 0, 0]; unread += 1
                continue
            }
            memory += try JSONDump.hex(page["data"], "$.mifareUltralight.pages[\(index)].data", count: [4]) ?? []
        }
        let model = json["cardModel"]?.text
        let name: String? = model == "MF0ICU2" || model == "ULTRALIGHT_C" ? "MIFARE Ultralight C" : nil
        let product = Type2Dump.product(name: name, version: version(cardModel: model), pageCount: pages.count)
        let dump = Type2Dump(product: product, memory: memory, atqa: [0x00, 0x44], sak: 0x00, signature: nil,
                             counters: product.version?[2] == 0x03 ? [0, 0, 0] : [])
        return Dump(format: .metrodroid, chip: .type2(dump), notes: unread == 0 ? [] : ["\(unread) of \(pages.count) pages were not read; they read as zeros"])
    }

    static func classic(_ json: DumpJSON, uid: [UInt8]) throws(DumpError) -> Dump {
        guard let sectors = json["sectors"]?.items else { throw DumpError("$.mifareClassic.sectors", "missing, or not an array", remedy: DumpError.fromTheReader) }
        guard let size = ClassicDump.size(sectorCount: sectors.count) else {
            throw DumpError("$.mifareClassic.sectors", "has \(sectors.count) sectors; a MIFARE Classic has 5 (Mini), 16 (1K) or 40 (4K)", remedy: DumpError.fromTheReader)
        }
        guard uid.count == 4 || uid.count == 7 else { throw DumpError("$.tagId", "has \(uid.count) bytes, not 4 or 7", remedy: DumpError.fromTheReader) }
        var blocks = [[UInt8?]?](repeating: nil, count: size.blockCount)
        for (sector, entry) in sectors.enumerated() {
            let path = "$.mifareClassic.sectors[\(sector)]"
            guard let list = entry["blocks"]?.items else { continue }   // not read: no key
            guard list.count == size.blocks(inSector: sector) else {
                throw DumpError("\(path).blocks", "has \(list.count) blocks, sector \(sector) has \(size.blocks(inSector: sector))", remedy: DumpError.fromTheReader)
            }
            for (index, block) in list.enumerated() {
                // A block Metrodroid could not read is null, or an object saying so.
                guard block.text != nil else { continue }
                let bytes = try JSONDump.hex(block, "\(path).blocks[\(index)]", count: [16]) ?? []
                blocks[size.firstBlock(ofSector: sector) + index] = bytes.map { Optional($0) }
            }
            // The trailer reads its keys as zeros: the keys Metrodroid used stand in; a key it did
            // not use is unknown.
            let trailer = size.trailerBlock(ofSector: sector)
            guard blocks[trailer] != nil else { continue }
            let keyA = try JSONDump.hex(entry["keyA"], "\(path).keyA", count: [6])
            let keyB = try JSONDump.hex(entry["keyB"], "\(path).keyB", count: [6])
            blocks[trailer]!.replaceSubrange(0..<6, with: keyA.map { $0.map { Optional($0) } } ?? [UInt8?](repeating: nil, count: 6))
            blocks[trailer]!.replaceSubrange(10..<16, with: keyB.map { $0.map { Optional($0) } } ?? [UInt8?](repeating: nil, count: 6))
        }
        let dump = ClassicDump(size: size, uid: uid, atqa: nil, sak: nil, blocks: blocks)
        return Dump(format: .metrodroid, chip: .classic(dump), notes: FlipperDump.classicNotes(dump))
    }

    /// The NDEF service (0x000B) of the NDEF system (0x12FC), else of the FeliCa Lite-S system
    /// (0x88B4), else of any system that has one.
    static func felica(_ json: DumpJSON, idm: [UInt8]) throws(DumpError) -> Dump {
        guard idm.count == 8 else { throw DumpError("$.tagId", "has \(idm.count) bytes; a FeliCa IDm has 8", remedy: DumpError.fromTheReader) }
        let pmm = try JSONDump.hex(json["pMm"], "$.felica.pMm", count: [8]) ?? VirtualType3Tag.defaultPMm
        let systems = json["systems"]?.members ?? []
        let candidates = systems.filter { $0.value["services"]?["11"] != nil }
        guard let system = candidates.first(where: { $0.key == "4860" }) ?? candidates.first(where: { $0.key == "34996" }) ?? candidates.first else {
            throw DumpError("$.felica.systems", "no system with the NDEF service (11, 0x000B)",
                            remedy: "nfcsim presents FeliCa dumps that hold an NDEF service")
        }
        let path = "$.felica.systems.\(DumpHex.printable(system.key)).services.11.blocksMap"
        var table: [Int: [UInt8]] = [:]
        for (key, entry) in system.value["services"]?["11"]?["blocksMap"]?.members ?? [] {
            guard let number = Int(key), number >= 0, number < DumpLimits.blocks else {
                throw DumpError("\(path).\(DumpHex.printable(key))", "is not a block number from 0 to \(DumpLimits.blocks - 1)", remedy: DumpError.fromTheReader)
            }
            table[number] = try JSONDump.hex(entry["data"], "\(path).\(number).data", count: [16])
        }
        guard let last = table.keys.max() else { throw DumpError(path, "no blocks", remedy: DumpError.fromTheReader) }
        let blocks = (0...last).flatMap { table[$0] ?? [UInt8](repeating: 0, count: 16) }
        return Dump(format: .metrodroid, chip: .felica(FeliCaDump(idm: idm, pmm: pmm, blocks: blocks)))
    }
}
