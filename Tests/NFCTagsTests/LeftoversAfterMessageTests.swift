import NDEF
import NFCSim
import NFCTags
import Testing

/// Real objects often hold old bytes after their NDEF TLV and no Terminator (issue 12: an
/// Ultralight failed with "reserved TLV tag 0x8d at byte 31"). Once the message's TLV is read,
/// what follows must not matter, on every type that keeps its message in TLVs.
@Suite struct LeftoversAfterMessageTests {
    /// The poster's TLV, then what a rewritten object leaves behind: a reserved tag value, a
    /// length running past the memory, and no Terminator.
    static func dataArea(size: Int) -> [UInt8] {
        let tlv = TLVWalker.encode(.ndefMessage, value: poster.encoded())!
        let leftovers = (0..<(size - tlv.count)).map { UInt8(truncatingIfNeeded: 0x8D + $0 * 7) }
        return tlv + leftovers
    }

    @Test(arguments: [(Type2Product.ultralight, LinkCapabilities.unrestricted), (.ultralight, storageCardLink),
                      (.ntag213, pn532Link), (.ntag216, storageCardLink)])
    func type2(product: Type2Product, link: LinkCapabilities) async throws {
        let area = Self.dataArea(size: product.userMemory)
        let tag = try VirtualType2Tag(product: product, dataArea: area)
        let reading = try await Type2Tag.readNDEF(over: InProcessTransport(tag, capabilities: link))
        #expect(reading.message == poster)
    }

    @Test(arguments: [VirtualType1Tag.Product.topaz96, .topaz512])
    func type1(product: VirtualType1Tag.Product) async throws {
        let tag = try VirtualType1Tag(product: product, dataArea: Self.dataArea(size: 90))
        #expect(try await Type1Tag.readNDEF(over: InProcessTransport(tag)).message == poster)
    }

    @Test(arguments: [true, false])
    func type5(systemInformation: Bool) async throws {
        let product = Type5Product.icodeSLIX
        let total = product.blockCount * product.blockSize
        let image = [0xE1, 0x40, UInt8((total - 4) / 8), 0x01] + Self.dataArea(size: total - 4)
        let tag = try VirtualType5Tag(product: product, image: image)
        #expect(try await Type5Tag.readNDEF(over: InProcessTransport(tag), systemInformation: systemInformation).message == poster)
    }

    @Test func mifareClassic() async throws {
        let uid = MifareClassicImage.defaultUID
        let image = MifareClassicImage.makeImage(size: .classic1K, uid: uid, ndefSectors: [1, 2], dataArea: Self.dataArea(size: 96))
        let reading = try await MifareClassicTag.readNDEF(over: InProcessTransport(VirtualMifareClassic(size: .classic1K, image: image)),
                                                         uid: uid, size: .classic1K)
        #expect(reading.message == poster)
    }
}
