import NFCTags

/// What a raw image (`.bin`, `.mfd`: the memory and nothing else) holds, which only the person
/// can say (`--type`).
public enum RawChip: Hashable, Sendable {
    /// Every page from page 0, as `nfc-mfultralight r` writes it.
    case type2(Type2Product)
    /// Every block from block 0, as `nfc-mfclassic r` and `hf mf dump` write it; the size comes
    /// from the file's.
    case classic
    /// The user memory from block 0 (the capability container first).
    case type5(Type5Product)
    /// The NDEF service's blocks, the attribute block first.
    case felica
    /// A Topaz's whole memory from block 0 (120 bytes of a Topaz 96, 512 of a Topaz 512), as
    /// `nfcsim --save` writes it.
    case type1(VirtualType1Tag.Product)
}

/// Raw images: the bytes are the memory; the geometry is the chip's, the file's size is checked
/// against it.
enum RawDump {
    static func parse(_ bytes: [UInt8], as chip: RawChip) throws(DumpError) -> Dump {
        switch chip {
        case .type2(let product):
            let size = product.totalPages * Type2Product.pageSize
            guard let (image, padded) = Type2MemoryImage.padded(bytes, product: product) else {
                throw DumpError("byte \(size)", "the file has \(bytes.count) bytes, more than the \(product.name)'s memory (\(size) bytes, \(product.totalPages) pages of 4)",
                                remedy: "give an image of at most \(size) bytes or another --type")
            }
            let tag = Type2Dump(product: product, memory: image, atqa: [0x00, 0x44], sak: 0x00, signature: nil, counters: [])
            let notes = padded == 0 ? [] : ["the file has \(bytes.count) bytes, the \(product.name)'s memory \(size); the other \(padded) are zeros"]
            return Dump(format: .raw, chip: .type2(tag), notes: notes)
        case .classic:
            guard let size = ClassicDump.size(blockCount: bytes.count / MifareClassicSize.blockSize), bytes.count % MifareClassicSize.blockSize == 0 else {
                throw DumpError("the file", "has \(bytes.count) bytes; a MIFARE Classic image has 320 (Mini), 1024 (1K) or 4096 (4K)",
                                remedy: "give the whole image as nfc-mfclassic or a Proxmark3 writes it")
            }
            let uid = Array(bytes[0..<4])
            let blocks: [[UInt8?]?] = (0..<size.blockCount).map { block in bytes[(block * 16)..<(block * 16 + 16)].map { Optional($0) } }
            return Dump(format: .raw, chip: .classic(ClassicDump(size: size, uid: uid, atqa: nil, sak: nil, blocks: blocks)))
        case .type5(let product):
            let size = product.blockCount * product.blockSize
            guard bytes.count <= size else {
                throw DumpError("byte \(size)", "the file has \(bytes.count) bytes, more than the \(product.name)'s memory (\(size) bytes)",
                                remedy: "give an image of at most \(size) bytes or another --type")
            }
            let notes = bytes.count == size ? [] : ["the file has \(bytes.count) bytes, the \(product.name)'s memory \(size); the other \(size - bytes.count) are zeros"]
            let image = bytes + [UInt8](repeating: 0, count: size - bytes.count)
            return Dump(format: .raw, chip: .type5(Type5Dump(product: product, uid: product.defaultUID, memory: image)), notes: notes)
        case .felica:
            guard !bytes.isEmpty, bytes.count % 16 == 0, bytes.count / 16 <= DumpLimits.blocks else {
                throw DumpError("the file", "has \(bytes.count) bytes; a FeliCa NDEF service image is whole blocks of 16 bytes, 1 to \(DumpLimits.blocks) of them",
                                remedy: "give the service's blocks, the attribute block first")
            }
            return Dump(format: .raw, chip: .felica(FeliCaDump(idm: VirtualType3Tag.defaultIDm, pmm: VirtualType3Tag.defaultPMm, blocks: bytes)))
        case .type1(let product):
            let size = product.memorySize
            guard bytes.count <= size else {
                throw DumpError("byte \(size)", "the file has \(bytes.count) bytes, more than the \(product.name)'s memory (\(size) bytes)",
                                remedy: "give an image of at most \(size) bytes or another --type")
            }
            let notes = bytes.count == size ? [] : ["the file has \(bytes.count) bytes, the \(product.name)'s memory \(size); the other \(size - bytes.count) are zeros"]
            let image = bytes + [UInt8](repeating: 0, count: size - bytes.count)
            return Dump(format: .raw, chip: .type1(Type1Dump(product: product, memory: image)), notes: notes)
        }
    }
}

/// Reading a dump file of any format nfcsim knows.
public enum DumpFile {
    /// Which format the bytes are, by their content (not the file name): a Flipper header, a JSON
    /// object, else a raw image (which needs `raw`, the chip from `--type`).
    public static func parse(_ bytes: [UInt8], raw: RawChip?) throws(DumpError) -> Dump {
        guard bytes.count <= DumpLimits.fileBytes else {
            throw DumpError("the file", "has \(bytes.count) bytes, more than any dump (at most \(DumpLimits.fileBytes))", remedy: "give a dump of one object")
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }   // a UTF-8 byte order mark
        let start = body.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if start.starts(with: Array("Filetype:".utf8)) {
            guard let text = String(validating: body, as: UTF8.self) else {
                throw DumpError("the file", "starts as a Flipper .nfc file but is not UTF-8 text", remedy: DumpError.fromTheReader)
            }
            return try FlipperDump.parse(text)
        }
        if start.first == UInt8(ascii: "{") {
            // A raw image may start with the byte 7B too: with --type, JSON that does not parse is the image.
            do { return try JSONDump.parse(try DumpJSON.parse(Array(body))) } catch where raw == nil { throw error } catch {}
        }
        if start.first == UInt8(ascii: "["), raw == nil {
            throw DumpError("the file", "is a JSON array, not a dump (Metrodroid's exported card view is not its dump)",
                            remedy: "export the card itself as JSON from Metrodroid, or give a Flipper Zero .nfc or Proxmark3 JSON dump")
        }
        guard let raw else {
            throw DumpError("the file", "is not a Flipper .nfc file or a Proxmark3 or Metrodroid JSON dump",
                            remedy: "for a raw memory image (.bin, .mfd) say which chip it is with --type")
        }
        return try RawDump.parse(Array(bytes), as: raw)
    }
}
