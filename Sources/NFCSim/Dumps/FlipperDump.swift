import NFCTags

/// Flipper Zero `.nfc` files, versions 2 to 4 (firmware documentation "NFC Flipper File
/// Formats"): `Key: value` lines after the `Filetype: Flipper NFC device` header, `#` comments.
/// Version 2 writes ATQA least significant byte first, 3 and 4 most significant first; 4 moves the
/// chip name of NTAG/Ultralight dumps to `NTAG/Ultralight type:`. Pages (`Page N:`, 4 bytes) hold
/// a Type 2 chip, blocks (`Block N:`, 16 bytes, `??` where unread) a MIFARE Classic, `Data
/// Content:` an ISO 15693 chip, and 18-byte `Block N:` (two status bytes, then the data) a FeliCa
/// Lite(-S).
enum FlipperDump {
    static let header = "Filetype: Flipper NFC device"
    static let versions = 2...4

    /// The file's `Key: value` lines in order, with their line numbers.
    struct Fields {
        var entries: [String: (value: Substring, line: Int)] = [:]
        /// `Page N` / `Block N` lines: number → (value, line).
        var numbered: [String: [Int: (value: Substring, line: Int)]] = [:]
        var version = 0

        func value(_ key: String) -> (value: Substring, line: Int)? { entries[key] }

        /// The hex bytes of `key`, exactly `count` of them when given.
        func bytes(_ key: String, count: Set<Int>? = nil, unknownAllowed: Bool = false) throws(DumpError) -> [UInt8?]? {
            guard let (text, line) = entries[key] else { return nil }
            let bytes: [UInt8?]
            do { bytes = try DumpHex.spaced(text, unknownAllowed: unknownAllowed) } catch {
                throw .line(line, "\(key): \(error.words)")
            }
            if let count, !count.contains(bytes.count) {
                throw .line(line, "\(key) has \(bytes.count) bytes, not \(count.sorted().map(String.init).joined(separator: " or "))")
            }
            return bytes
        }

        func knownBytes(_ key: String, count: Set<Int>? = nil) throws(DumpError) -> [UInt8]? {
            try bytes(key, count: count)?.map { $0 ?? 0 }
        }

        func required(_ key: String, count: Set<Int>? = nil) throws(DumpError) -> [UInt8] {
            guard let bytes = try knownBytes(key, count: count) else {
                throw DumpError("the file", "no '\(key):' line", remedy: DumpError.fromTheReader)
            }
            return bytes
        }

        /// A decimal number in 0...`limit`.
        func number(_ key: String, limit: Int) throws(DumpError) -> Int? {
            guard let (text, line) = entries[key] else { return nil }
            guard let value = Int(text), (0...limit).contains(value) else {
                throw .line(line, "\(key): '\(DumpHex.printable(text))' is not a number from 0 to \(limit)")
            }
            return value
        }
    }

    static func parse(_ text: String) throws(DumpError) -> Dump {
        let fields = try fields(of: text)
        guard let (deviceType, line) = fields.value("Device type") else {
            throw DumpError("the file", "no 'Device type:' line", remedy: DumpError.fromTheReader)
        }
        let type = deviceType.lowercased()
        if type.contains("ntag") || type.contains("ultralight") { return try type2(fields, deviceType: String(deviceType)) }
        if type == "mifare classic" { return try classic(fields) }
        if type == "felica" { return try felica(fields) }
        if type.hasPrefix("iso15693") || type.hasPrefix("slix") { return try type5(fields, deviceType: String(deviceType)) }
        throw .line(line, "Device type '\(DumpHex.printable(deviceType))' is not one nfcsim presents",
                    remedy: "nfcsim presents NTAG and Ultralight, MIFARE Classic, ISO 15693 (SLIX) and FeliCa dumps")
    }

    /// Splits the file into fields, checking the header and refusing duplicates.
    static func fields(of text: String) throws(DumpError) -> Fields {
        var fields = Fields()
        var lineNumber = 0
        var sawHeader = false
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw .line(lineNumber, "'\(DumpHex.printable(line))' is not a 'Key: value' line")
            }
            let key = String(line[..<colon])
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            if !sawHeader {
                guard key == "Filetype", value == "Flipper NFC device" else {
                    throw .line(lineNumber, "the first line is not '\(header)'", remedy: "give a Flipper Zero .nfc file, a Proxmark3 or Metrodroid JSON dump, or a raw image with --type")
                }
                sawHeader = true
                continue
            }
            let parts = key.split(separator: " ")
            if parts.count == 2, parts[0] == "Page" || parts[0] == "Block", let number = Int(parts[1]) {
                guard number >= 0, number < DumpLimits.blocks else {
                    throw .line(lineNumber, "\(key): no chip nfcsim presents has \(parts[0].lowercased()) \(number) (at most \(DumpLimits.blocks))")
                }
                let kind = String(parts[0])
                if let earlier = fields.numbered[kind]?[number] {
                    throw .line(lineNumber, "\(key) appears twice (lines \(earlier.line) and \(lineNumber))")
                }
                fields.numbered[kind, default: [:]][number] = (value, lineNumber)
                continue
            }
            if let earlier = fields.entries[key] {
                throw .line(lineNumber, "'\(DumpHex.printable(key)):' appears twice (lines \(earlier.line) and \(lineNumber))")
            }
            fields.entries[key] = (value, lineNumber)
        }
        guard sawHeader else {
            throw DumpError("the file", "is empty", remedy: "give a Flipper Zero .nfc file, a Proxmark3 or Metrodroid JSON dump, or a raw image with --type")
        }
        guard let version = try fields.number("Version", limit: 1000) else {
            throw DumpError("the file", "no 'Version:' line", remedy: DumpError.fromTheReader)
        }
        guard versions.contains(version) else {
            let line = fields.value("Version")!.line
            throw version < versions.lowerBound
                ? .line(line, "format version \(version) is older than nfcsim reads (\(versions.lowerBound)–\(versions.upperBound))", remedy: "open the file on a Flipper Zero with current firmware and save it again")
                : .line(line, "format version \(version) is newer than nfcsim reads (\(versions.lowerBound)–\(versions.upperBound))", remedy: "save it in version 4 if the firmware offers it, or tell nfcscan's authors")
        }
        fields.version = version
        return fields
    }

    /// ATQA as libnfc prints it: version 2 files hold it least significant byte first.
    static func atqa(_ fields: Fields) throws(DumpError) -> [UInt8]? {
        guard let atqa = try fields.knownBytes("ATQA", count: [2]) else { return nil }
        return fields.version == 2 ? atqa.reversed() : atqa
    }

    /// Every `kind N:` line's bytes, each exactly `size`, numbers below `count`.
    static func numbered(_ fields: Fields, _ kind: String, size: Int, count: Int) throws(DumpError) -> [[UInt8?]?] {
        var blocks = [[UInt8?]?](repeating: nil, count: count)
        for (number, entry) in fields.numbered[kind] ?? [:] {
            guard number < count else {
                throw .line(entry.line, "\(kind) \(number) is past the last of the chip's \(count)")
            }
            let bytes: [UInt8?]
            do { bytes = try DumpHex.spaced(entry.value, unknownAllowed: true) } catch {
                throw .line(entry.line, "\(kind) \(number): \(error.words)")
            }
            guard bytes.count == size else {
                throw .line(entry.line, "\(kind) \(number) has \(bytes.count) bytes, not \(size)")
            }
            blocks[number] = bytes
        }
        return blocks
    }

    static func type2(_ fields: Fields, deviceType: String) throws(DumpError) -> Dump {
        let pageNumbers = (fields.numbered["Page"] ?? [:]).keys
        guard let highest = pageNumbers.max() else {
            throw DumpError("the file", "no 'Page N:' lines (the reader read no memory)", remedy: "read the whole tag again on the Flipper and save it")
        }
        _ = try numbered(fields, "Page", size: 4, count: DumpLimits.blocks)
        let total = try fields.number("Pages total", limit: DumpLimits.blocks) ?? highest + 1
        guard total >= 4 else {
            throw DumpError(fields.value("Pages total").map { "line \($0.line)" } ?? "the file",
                            "\(total) pages; a Type 2 chip has at least 4 (UID, lock bytes, capability container)", remedy: DumpError.fromTheReader)
        }
        let pages = try numbered(fields, "Page", size: 4, count: total)
        var notes: [String] = []
        // A reader stops at the first page the chip refuses (protected by its password): from
        // there on the chip refuses READ. Gaps before that read as zeros.
        var readable = total
        while readable > 4, pages[readable - 1] == nil { readable -= 1 }
        if readable < total { notes.append("pages \(readable) to \(total - 1) were not read (protected); the chip refuses to read them") }
        let unread = pages.prefix(readable).indices.filter { pages[$0] == nil || pages[$0]!.contains(nil) }
        if !unread.isEmpty { notes.append("\(unread.count) of \(readable) pages were not read; they read as zeros") }
        var memory = pages.flatMap { $0?.map { $0 ?? 0 } ?? [0, 0, 0, 0] }
        // The UID line stands in for unread pages 0 and 1.
        if let uid = try fields.knownBytes("UID", count: [7]), pages[0] == nil || pages[1] == nil {
            let bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2], bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
            memory.replaceSubrange(0..<9, with: Array(uid[0..<3]) + [bcc0] + Array(uid[3..<7]) + [bcc1])
        }
        let chipName = fields.value("NTAG/Ultralight type").map { String($0.value) } ?? deviceType
        let version = try fields.knownBytes("Mifare version", count: [8])
        let product = Type2Dump.product(name: type2Name(chipName), version: version, pageCount: total)
        let signature = dumpedSignature(try fields.knownBytes("Signature", count: [32]), signs: product.originality != nil)
        var counters: [UInt32] = []
        // Ultralight EV1: three counters READ_CNT answers (a file without them: a chip without).
        if product.version?[2] == 0x03, fields.value("Counter 0") != nil {
            for index in 0..<3 { counters.append(UInt32(try fields.number("Counter \(index)", limit: 0xFF_FFFF) ?? 0)) }
        }
        var dump = Type2Dump(product: product, memory: memory, atqa: try atqa(fields) ?? [0x00, 0x44],
                             sak: try fields.knownBytes("SAK", count: [1])?[0] ?? 0x00, signature: signature, counters: counters)
        dump.readablePages = readable < total ? readable : nil
        return Dump(format: .flipper, chip: .type2(dump), notes: notes)
    }

    /// The data sheet name of a Flipper chip name ("Mifare Ultralight 11" → nil: GET_VERSION
    /// names it; "Mifare Ultralight C" → "MIFARE Ultralight C").
    static func type2Name(_ flipperName: String) -> String? {
        let name = flipperName.lowercased()
        if name.hasPrefix("ntag2") && !name.contains("/") { return flipperName.uppercased() }
        if name.contains("ultralight c") { return "MIFARE Ultralight C" }
        return nil
    }

    static func classic(_ fields: Fields) throws(DumpError) -> Dump {
        let size: MifareClassicSize
        switch fields.value("Mifare Classic type").map({ $0.value.uppercased() }) {
        case "MINI": size = .mini
        case "1K": size = .classic1K
        case "4K": size = .classic4K
        case nil: throw DumpError("the file", "no 'Mifare Classic type:' line", remedy: DumpError.fromTheReader)
        case let other?:
            throw .line(fields.value("Mifare Classic type")!.line, "Mifare Classic type '\(DumpHex.printable(other))' is not MINI, 1K or 4K",
                        remedy: "nfcsim presents MIFARE Classic Mini, 1K and 4K")
        }
        let uid = try fields.required("UID", count: [4, 7])
        let blocks = try numbered(fields, "Block", size: 16, count: size.blockCount)
        let dump = ClassicDump(size: size, uid: uid, atqa: try atqa(fields), sak: try fields.knownBytes("SAK", count: [1])?[0], blocks: blocks)
        return Dump(format: .flipper, chip: .classic(dump), notes: classicNotes(dump))
    }

    static func classicNotes(_ dump: ClassicDump) -> [String] {
        let locked = (0..<dump.size.sectorCount).filter {
            dump.unknownKeys.contains(MifareClassicKeySlot(sector: $0, keyB: false)) && dump.unknownKeys.contains(MifareClassicKeySlot(sector: $0, keyB: true))
        }
        guard !locked.isEmpty else { return [] }
        return ["\(locked.count) of \(dump.size.sectorCount) sectors have no known key; they refuse authentication as the chip would"]
    }

    static func type5(_ fields: Fields, deviceType: String) throws(DumpError) -> Dump {
        let uid = try fields.required("UID", count: [8])
        guard let count = try fields.number("Block Count", limit: DumpLimits.blocks), count >= 1 else {
            throw DumpError(fields.value("Block Count").map { "line \($0.line)" } ?? "the file", "no block count from 1 to \(DumpLimits.blocks)", remedy: DumpError.fromTheReader)
        }
        let sizeByte = try fields.required("Block Size", count: [1])[0]
        guard (1...DumpLimits.blockBytes).contains(Int(sizeByte)) else {
            throw .line(fields.value("Block Size")!.line, "Block Size \(sizeByte) is not from 1 to \(DumpLimits.blockBytes)")
        }
        let blockSize = Int(sizeByte)
        let data = try fields.bytes("Data Content", unknownAllowed: true) ?? []
        guard data.count == count * blockSize else {
            throw DumpError(fields.value("Data Content").map { "line \($0.line)" } ?? "the file",
                            "Data Content has \(data.count) bytes, Block Count × Block Size is \(count * blockSize)", remedy: DumpError.fromTheReader)
        }
        let name = deviceType.lowercased().hasPrefix("slix") ? "ICODE " + deviceType.uppercased() : "ISO 15693 chip"
        let product = Type5Product(name: name, blockCount: count, blockSize: blockSize, defaultUID: uid,
                                   dsfid: try fields.knownBytes("DSFID", count: [1])?[0] ?? 0,
                                   afi: try fields.knownBytes("AFI", count: [1])?[0] ?? 0,
                                   icReference: try fields.knownBytes("IC Reference", count: [1])?[0] ?? 0)
        var notes: [String] = []
        if fields.value("Privacy Mode")?.value == "true" { notes.append("the chip was in privacy mode; nfcsim presents it readable") }
        let signature = dumpedSignature(try fields.knownBytes("Signature", count: [32]), signs: OriginalityFamily.icode(uid: uid) != nil)
        return Dump(format: .flipper, chip: .type5(Type5Dump(product: product, uid: uid, memory: data.map { $0 ?? 0 }, signature: signature)), notes: notes)
    }

    /// FeliCa Lite(-S): `Block N:` lines of two status flags and 16 bytes; blocks 0–13 (S_PAD0–13)
    /// are the NDEF service, the attribute block first.
    static func felica(_ fields: Fields) throws(DumpError) -> Dump {
        var idm = try fields.knownBytes("Manufacture id", count: [8])
        if idm == nil { idm = try fields.required("UID", count: [8]) }
        let pmm = try fields.knownBytes("Manufacture parameter", count: [8]) ?? VirtualType3Tag.defaultPMm
        let all = try numbered(fields, "Block", size: 18, count: DumpLimits.blocks)
        guard all.prefix(VirtualType3Tag.liteSBlocks).contains(where: { $0 != nil }) else {
            throw DumpError("the file", "no FeliCa Lite blocks ('Block 0:' to 'Block 13:')",
                            remedy: "nfcsim presents FeliCa Lite and Lite-S dumps, whose blocks 0–13 hold the NDEF service")
        }
        var blocks: [UInt8] = [], unread = 0
        for block in all.prefix(VirtualType3Tag.liteSBlocks) {
            // Status flags other than 00 00: the block was not read.
            if let block, block[0] == 0, block[1] == 0 { blocks += block[2...].map { $0 ?? 0 } } else {
                blocks += [UInt8](repeating: 0, count: 16)
                unread += 1
            }
        }
        let notes = unread == 0 ? [] : ["\(unread) of \(VirtualType3Tag.liteSBlocks) blocks were not read; they read as zeros"]
        return Dump(format: .flipper, chip: .felica(FeliCaDump(idm: idm ?? [], pmm: pmm, blocks: blocks)), notes: notes)
    }
}
