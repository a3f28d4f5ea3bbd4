import NFCTags

/// Writes a chip as a Flipper Zero `.nfc` file (version 4) that ``FlipperDump/parse(_:)`` reads
/// back to the same chip: `nfcsim --save` keeps what a reader wrote in it. Everything the reader
/// takes from the file is written; what it would invent (a Type 2 chip's name when GET_VERSION
/// names it) is left to it.
enum FlipperDumpWriter {
    static func write(_ chip: DumpedChip) throws(DumpSaveError) -> String {
        switch chip {
        case .type2(let dump): type2(dump)
        case .classic(let dump): classic(dump)
        case .type5(let dump): type5(dump)
        case .felica(let dump): try felica(dump)
        case .type1:
            throw DumpSaveError(problem: "a Flipper .nfc file cannot hold a Topaz",
                                remedy: "name the file .bin: the raw memory, which --dump reads back with --type topaz96 or topaz512")
        }
    }

    static func header(deviceType: String, uid: [UInt8]) -> String {
        "\(FlipperDump.header)\nVersion: 4\n# Written by nfcsim --save\nDevice type: \(deviceType)\nUID: \(DumpHex.spacedString(uid))\n"
    }

    static func line(_ key: String, _ bytes: some Sequence<UInt8>) -> String {
        "\(key): \(DumpHex.spacedString(bytes))\n"
    }

    /// Pages the chip refuses to read (``Type2Dump/readablePages``) are left out, as a Flipper
    /// leaves them out: the file says they were not read.
    static func type2(_ dump: Type2Dump) -> String {
        let pages = dump.memory.count / Type2Product.pageSize
        let uid = Array(dump.memory[0..<3] + dump.memory[4..<8])
        var text = header(deviceType: "NTAG/Ultralight", uid: uid)
        text += line("ATQA", dump.atqa) + line("SAK", [dump.sak])
        text += "NTAG/Ultralight type: \(dump.product.name)\n"
        if let signature = dump.signature { text += line("Signature", signature) }
        if let version = dump.product.version { text += line("Mifare version", version) }
        for (index, counter) in dump.counters.enumerated() { text += "Counter \(index): \(counter)\n" }
        let readable = dump.readablePages ?? pages
        text += "Pages total: \(pages)\nPages read: \(readable)\n"
        for page in 0..<min(readable, pages) {
            text += line("Page \(page)", dump.memory[(page * 4)..<(page * 4 + 4)])
        }
        return text
    }

    /// A key the dump does not know (the chip refuses it) is written `??`, as a Flipper writes it.
    static func classic(_ dump: ClassicDump) -> String {
        var text = header(deviceType: "Mifare Classic", uid: dump.uid)
        if let atqa = dump.atqa { text += line("ATQA", atqa) }
        if let sak = dump.sak { text += line("SAK", [sak]) }
        let typeName = switch dump.size { case .mini: "MINI"; case .classic1K: "1K"; case .classic4K: "4K" }
        text += "Mifare Classic type: \(typeName)\nData format version: 2\n"
        for block in 0..<dump.size.blockCount {
            var bytes = dump.memory[(block * 16)..<(block * 16 + 16)].map { DumpHex.spacedString([$0]) }
            let sector = dump.size.sector(ofBlock: block)
            if block == dump.size.trailerBlock(ofSector: sector) {
                if dump.unknownKeys.contains(MifareClassicKeySlot(sector: sector, keyB: false)) { bytes.replaceSubrange(0..<6, with: repeatElement("??", count: 6)) }
                if dump.unknownKeys.contains(MifareClassicKeySlot(sector: sector, keyB: true)) { bytes.replaceSubrange(10..<16, with: repeatElement("??", count: 6)) }
            }
            text += "Block \(block): \(bytes.joined(separator: " "))\n"
        }
        return text
    }

    /// The device type carries the chip's name for ICODE SLIX chips ("SLIX2" is read back as
    /// "ICODE SLIX2"); any other chip is "ISO15693-3".
    static func type5(_ dump: Type5Dump) -> String {
        let name = dump.product.name
        let deviceType = name.hasPrefix("ICODE SLIX") ? String(name.dropFirst("ICODE ".count)) : "ISO15693-3"
        var text = header(deviceType: deviceType, uid: dump.uid)
        text += line("DSFID", [dump.product.dsfid]) + line("AFI", [dump.product.afi]) + line("IC Reference", [dump.product.icReference])
        text += "Block Count: \(dump.product.blockCount)\n" + line("Block Size", [UInt8(dump.product.blockSize)])
        text += line("Data Content", dump.memory)
        if let signature = dump.signature { text += line("Signature", signature) }
        return text
    }

    /// The Flipper format holds a FeliCa Lite(-S)'s 14 S_PAD blocks, each after its two status
    /// flags (00 00: read); a service of another size does not fit it.
    static func felica(_ dump: FeliCaDump) throws(DumpSaveError) -> String {
        guard dump.blocks.count == VirtualType3Tag.liteSBlocks * 16 else {
            throw DumpSaveError(problem: "the FeliCa's NDEF service has \(dump.blocks.count / 16) blocks; a Flipper .nfc file holds a FeliCa Lite-S's \(VirtualType3Tag.liteSBlocks)",
                                remedy: "save it as a raw image (.bin) instead")
        }
        var text = header(deviceType: "FeliCa", uid: dump.idm)
        text += "Data format version: 1\n" + line("Manufacture id", dump.idm) + line("Manufacture parameter", dump.pmm)
        for block in 0..<VirtualType3Tag.liteSBlocks {
            text += line("Block \(block)", [0, 0] + dump.blocks[(block * 16)..<(block * 16 + 16)])
        }
        return text
    }
}
