// Fuzz target `dumps`: the dump files `nfcsim --dump` reads (Flipper Zero .nfc, Proxmark3 and
// Metrodroid JSON, raw images). Each input is read as it is (the format found from its content)
// and as a raw image of each kind of chip. Whatever the bytes: no crash; a file read makes a chip
// whose geometry is within the limits, which builds and answers a read; a refused file gets an
// error with a place, a problem and a remedy and no control character from the file.
import NFCSim
import NFCTags

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    for raw in [nil, RawChip.type2(.ntag213), .classic, .type5(.icodeSLIX), .felica, .type1(.topaz512)] {
        do {
            check(try DumpFile.parse(bytes, raw: raw), bytes)
        } catch {
            if error.place.isEmpty || error.problem.isEmpty || error.remedy.isEmpty { violated("an error without place, problem or remedy: \(error)", bytes) }
            if error.description.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                violated("a control character in the error: \(error.description.debugDescription)", bytes)
            }
        }
    }
    return 0
}

private func check(_ dump: Dump, _ bytes: [UInt8]) {
    do {
        switch dump.chip {
        case .type2(let chip):
            guard (4...DumpLimits.blocks).contains(chip.product.totalPages), chip.memory.count == chip.product.totalPages * 4 else {
                violated("a Type 2 of \(chip.product.totalPages) pages, \(chip.memory.count) bytes", bytes)
            }
            var tag = try chip.virtualTag()
            _ = tag.respond(to: [0x30, 0x00])
            _ = tag.respond(to: [0x60])
        case .classic(let chip):
            guard chip.memory.count == chip.size.blockCount * 16, chip.uid.count == 4 || chip.uid.count == 7 else {
                violated("a Classic of \(chip.memory.count) bytes, UID \(chip.uid.count) bytes", bytes)
            }
            var tag = try chip.virtualChip()
            _ = tag.respond(to: MifareClassicCommand.authenticate(block: 4, key: MifareClassicNDEF.ndefKeyA, keyB: false, uid: chip.uid))
            _ = tag.respond(to: [MifareClassicCommand.read, 4])
        case .type5(let chip):
            let product = chip.product
            guard (1...DumpLimits.blocks).contains(product.blockCount), (1...DumpLimits.blockBytes).contains(product.blockSize),
                  chip.memory.count == product.blockCount * product.blockSize else {
                violated("a Type 5 of \(product.blockCount) blocks of \(product.blockSize), \(chip.memory.count) bytes", bytes)
            }
            var tag = try chip.virtualTag()
            _ = tag.respond(to: [0x02, 0x23, 0x00, UInt8(product.blockCount - 1)])
        case .felica(let chip):
            guard chip.blocks.count % 16 == 0, !chip.blocks.isEmpty, chip.blocks.count <= DumpLimits.blocks * 16 else {
                violated("a FeliCa service of \(chip.blocks.count) bytes", bytes)
            }
            var tag = try chip.virtualTag()
            _ = tag.respond(to: [0x06, 0x00, 0xFF, 0xFF, 0x01, 0x00])
        case .type1(let chip):
            guard chip.memory.count == chip.product.memorySize else { violated("a \(chip.product.name) of \(chip.memory.count) bytes", bytes) }
            var tag = chip.virtualTag()
            _ = tag.respond(to: [0x00])
        }
        // What nfcsim --save writes of the chip, --dump reads back to the same chip.
        if let flipper = try? DumpFile.serialise(dump.chip, as: .flipper) {
            guard let again = try? DumpFile.parse(flipper, raw: nil), again.chip == dump.chip else {
                violated("a chip whose saved .nfc file does not read back the same", bytes)
            }
        }
    } catch {
        // A dump the parser accepted must make a chip; UID length is the one thing left to the chip.
        if case .invalidUID = error { return }
        violated("a dump read but its chip refused: \(error)", bytes)
    }
}
