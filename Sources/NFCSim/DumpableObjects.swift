import NFCTags

// The objects nfcsim presents, as the dumps `--save` writes: each one's memory as it is now,
// with the identity it answers with. A Topaz goes to a raw image; Type 4 objects have no dump
// format `--dump` reads.

extension VirtualType2Tag: DumpableObject {
    public var dumpedChip: DumpedChip {
        var dump = Type2Dump(product: product, memory: memory, atqa: atqa, sak: sak, signature: signature, counters: counters)
        dump.readablePages = readablePages
        return .type2(dump)
    }
}

extension VirtualMifareClassic: DumpableObject {
    public var dumpedChip: DumpedChip {
        let blocks: [[UInt8?]?] = (0..<size.blockCount).map { block in memory[(block * 16)..<(block * 16 + 16)].map { Optional($0) } }
        var dump = ClassicDump(size: size, uid: uid, atqa: atqa, sak: sak, blocks: blocks)
        dump.unknownKeys = unknownKeys
        return .classic(dump)
    }
}

extension VirtualType5Tag: DumpableObject {
    public var dumpedChip: DumpedChip {
        var product = self.product
        product.defaultUID = uid
        return .type5(Type5Dump(product: product, uid: uid, memory: memory, signature: signature))
    }
}

extension VirtualType3Tag: DumpableObject {
    public var dumpedChip: DumpedChip { .felica(FeliCaDump(idm: idm, pmm: pmm, blocks: memory)) }
}

extension VirtualType1Tag: DumpableObject {
    public var dumpedChip: DumpedChip { .type1(Type1Dump(product: product, memory: memory)) }
}

extension PN532VirtualObjectTarget: DumpableObject where Object: DumpableObject {
    public var dumpedChip: DumpedChip { object.dumpedChip }
}

extension VPCDType2Card: DumpableObject {
    public var dumpedChip: DumpedChip { tag.dumpedChip }
}

extension VPCDMifareClassicCard: DumpableObject {
    public var dumpedChip: DumpedChip { chip.dumpedChip }
}

extension VPCDType5Card: DumpableObject {
    public var dumpedChip: DumpedChip { chip.dumpedChip }
}

extension VPCDPassThroughOnlyCard: DumpableObject where Object: DumpableObject {
    public var dumpedChip: DumpedChip { object.dumpedChip }
}

extension VPCDACR122U: DumpableObject where Card: DumpableObject {
    public var dumpedChip: DumpedChip { card.dumpedChip }
}

extension VPCDPart3Reader: DumpableObject where Card: DumpableObject {
    public var dumpedChip: DumpedChip { card.dumpedChip }
}
