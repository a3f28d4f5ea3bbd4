import NDEF
import NFCSim
import NFCTags
import TestSupport
import Testing

/// Every read of a chip NXP signs carries its originality signature as read (or why not): Type 2
/// READ_SIG, Type 4 Read_Sig, Type 5 READ SIGNATURE, against the simulated chips, with the
/// exchange each costs.
@Suite struct OriginalitySignatureReadTests {
    /// A made-up signature: what the chip answers is what the reading carries, byte for byte.
    static let signature32 = (0..<32).map { UInt8(0xA0 &+ $0) }
    static let signature56 = (0..<56).map { UInt8(0x10 &+ $0) }
    static let readSig: [UInt8] = [0x3C, 0x00]
    static let nxpUID = VirtualType2Tag.defaultUID

    // MARK: Type 2

    @Test(arguments: [(Type2Product.ntag216, OriginalityFamily.ntag21x), (.ultralightEV1_128, .ultralightEV1)])
    func type2SignatureIsReadOnceAfterGetVersion(product: Type2Product, family: OriginalityFamily) async throws {
        var tag = try VirtualType2Tag(product: product, message: message(encodedSize: 100))
        tag.signature = Self.signature32
        let transport = InProcessTransport(tag)
        let reading = try await Type2Tag.readNDEF(over: transport, uid: Self.nxpUID)
        #expect(reading.originality == .signature(family, Self.signature32))
        #expect(reading.message == message(encodedSize: 100))
        let commands = await transport.commands
        #expect(commands.prefix(2) == [[0x60], Self.readSig])
        #expect(commands.filter { $0 == Self.readSig }.count == 1)
        // GET_VERSION, READ_SIG, two FAST_READs: one exchange more than the message alone.
        #expect(reading.roundTrips == 4)
        #expect(await transport.roundTrips == 4)
    }

    /// A chip that names itself an NTAG21x but refuses READ_SIG (a NAK) or ignores it is missing its
    /// signature; it idles after either, so it is activated again and the message still reads.
    @Test(arguments: [VirtualReply.nak(Type2Acknowledgement.invalidArgument.rawValue), .silence])
    func type2RefusedSignatureIsMissingAndTheMessageStillReads(refusal: VirtualReply) async throws {
        var tag = try VirtualType2Tag(product: .ntag213, message: poster)
        tag.signature = nil
        tag.unknownCommandReply = refusal
        let transport = InProcessTransport(tag)
        let reading = try await Type2Tag.readNDEF(over: transport, uid: Self.nxpUID)
        #expect(reading.originality == .missing(.ntag21x))
        #expect(reading.message == poster)
        #expect(await transport.commands == [[0x60], Self.readSig, [0x3A, 3, 15]])
        #expect(await transport.reactivations == 1)
        #expect(reading.roundTrips == 4)
        #expect(await transport.roundTrips == 4)
    }

    /// READ_SIG needs no password: sent once, before the read that finds the memory protected.
    @Test func type2PasswordProtectedChipGivesItsSignatureOnce() async throws {
        var tag = try VirtualType2Tag(product: .ntag215, message: poster)
        tag.signature = Self.signature32
        tag.protect(from: 4, password: [0x12, 0x34, 0x56, 0x78], readsToo: true)
        let transport = InProcessTransport(tag)
        let reading = try await Type2Tag.readNDEF(over: transport, uid: Self.nxpUID, password: [0x12, 0x34, 0x56, 0x78])
        #expect(reading.message == poster)
        #expect(reading.originality == .signature(.ntag21x, Self.signature32))
        #expect(await transport.commands.filter { $0 == Self.readSig }.count == 1)
        #expect(reading.roundTrips == (await transport.roundTrips))
    }

    /// A storage-card link passes neither GET_VERSION nor READ_SIG: nothing is sent, and the
    /// reading says why; an object whose UID is another maker's has nothing to check.
    @Test func type2StorageCardLinkCarriesNoSignature() async throws {
        let transport = InProcessTransport(try VirtualType2Tag(product: .ntag213, message: poster), capabilities: storageCardLink)
        let reading = try await Type2Tag.readNDEF(over: transport, uid: Self.nxpUID)
        guard case .notCarried(.ntag21x, let reason)? = reading.originality else {
            Issue.record("expected notCarried, got \(String(describing: reading.originality))")
            return
        }
        #expect(reason.contains("storage-card"))
        #expect(await transport.commands.allSatisfy { $0.first == Type2Command.readCode })
        let other = try await Type2Tag.readNDEF(over: InProcessTransport(try VirtualType2Tag(product: .ntag213, message: poster),
                                                                         capabilities: storageCardLink), uid: hex("1d 22 33 44 55 66 77"))
        #expect(other.originality == nil)
    }

    /// Chips without a signature are not asked: the original Ultralight, Ultralight C, NTAG203.
    @Test(arguments: [Type2Product.ultralight, Type2Dump.product(name: "NTAG203", version: nil, pageCount: 42),
                      Type2Dump.product(name: "MIFARE Ultralight C", version: nil, pageCount: 48)])
    func chipsWithoutASignatureAreNotAsked(product: Type2Product) async throws {
        let transport = InProcessTransport(try VirtualType2Tag(product: product, message: poster))
        let reading = try await Type2Tag.readNDEF(over: transport, uid: Self.nxpUID)
        #expect(reading.originality == nil)
        #expect(!(await transport.commands.contains(Self.readSig)))
    }

    // MARK: Type 4

    /// The factory capability container of an NTAG 424 DNA: CCLEN 23, the NDEF file E104 (256
    /// bytes) and the proprietary file E105.
    static let ntag424CC = hex("0017 20 0100 00ff 04 06 e104 0100 00 00 05 06 e105 0080 82 83") + [UInt8](repeating: 0, count: 9)

    @Test func type4SignatureAfterTheMessage() async throws {
        var object = try VirtualType4Tag(message: poster)
        object.signature = Self.signature56
        let transport = InProcessTransport(object)
        let reading = try await Type4Tag.readNDEF(over: transport, uid: Self.nxpUID)
        #expect(reading.message == poster)
        #expect(reading.originality == .signature(.desfire, Self.signature56))
        #expect(await transport.commands.last == hex("90 3c 00 00 01 00 00"))
        #expect(reading.roundTrips == 7)      // the 6 of the message, and Read_Sig
    }

    @Test func type4NTAG424IsKnownByItsCapabilityContainer() async throws {
        let file = [0x00, UInt8(poster.encoded().count)] + poster.encoded()
        var object = VirtualType4Tag(mapping: .version2, capabilityContainer: Self.ntag424CC,
                                     ndefFile: file + [UInt8](repeating: 0, count: 256 - file.count), maxReadLength: 0x100)
        object.signature = Self.signature56
        let reading = try await Type4Tag.readNDEF(over: InProcessTransport(object), uid: Self.nxpUID)
        #expect(reading.message == poster)
        #expect(reading.originality == .signature(.ntag424DNA, Self.signature56))
    }

    /// An object without Read_Sig (6E 00) is of no signing family; a UID that is not NXP's, or none
    /// known, costs no exchange at all (a phone, a random UID).
    @Test func type4WithoutSignatureOrNotNXP() async throws {
        let plain = InProcessTransport(try VirtualType4Tag(message: poster))
        let reading = try await Type4Tag.readNDEF(over: plain, uid: Self.nxpUID)
        #expect(reading.originality == nil)
        #expect(reading.roundTrips == 7)
        for uid in [hex("08 11 22 33"), nil] {
            var object = try VirtualType4Tag(message: poster)
            object.signature = Self.signature56
            let transport = InProcessTransport(object)
            let other = try await Type4Tag.readNDEF(over: transport, uid: uid)
            #expect(other.originality == nil)
            #expect(other.roundTrips == 6)
            #expect(!(await transport.commands.contains(hex("90 3c 00 00 01 00 00"))))
        }
    }

    /// A DESFire without the NDEF application answers Read_Sig at card level.
    @Test func type4BlankStillGivesItsSignature() async throws {
        var object = try VirtualType4Tag(message: nil)
        object.signature = Self.signature56
        object.statusOverrides[0xA4] = .fileNotFound
        let reading = try await Type4Tag.readNDEF(over: InProcessTransport(object), uid: Self.nxpUID)
        #expect(!reading.formatted)
        #expect(reading.originality == .signature(.desfire, Self.signature56))
        #expect(reading.roundTrips == 3)
    }

    // MARK: Type 5

    @Test func icodeFamilyFromTheUID() {
        #expect(OriginalityFamily.icode(uid: hex("e0 04 01 08 66 2d 4a 90")) == .icode)     // SLIX2
        #expect(OriginalityFamily.icode(uid: hex("e0 04 01 18 00 9b 5f ee")) == .icode)     // ICODE DNA
        #expect(OriginalityFamily.icode(uid: hex("e0 04 01 10 66 2d 4a 90")) == nil)        // SLIX
        #expect(OriginalityFamily.icode(uid: hex("e0 04 01 00 66 2d 4a 90")) == nil)        // SLI
        #expect(OriginalityFamily.icode(uid: hex("e0 04 02 08 66 2d 4a 90")) == nil)        // SLIX-S family
        #expect(OriginalityFamily.icode(uid: hex("e0 02 26 08 1c 5a 7b 31")) == nil)        // ST
        #expect(OriginalityFamily.icode(uid: hex("e0 04 01 08")) == nil)
        #expect(OriginalityFamily.icode(uid: nil) == nil)
    }

    @Test func type5SignatureOfAnICODESLIX2() async throws {
        var chip = try VirtualType5Tag(product: .icodeSLIX2, message: poster)
        chip.signature = Self.signature32
        let transport = InProcessTransport(chip)
        let reading = try await Type5Tag.readNDEF(over: transport)
        #expect(reading.originality == .signature(.icode, Self.signature32))
        #expect(reading.message == poster)
        #expect(await transport.commands.filter { $0 == Type5Command.readSignature }.count == 1)
        #expect(reading.roundTrips == 4)
    }

    @Test func type5RefusedOrNotCarriedOrNoSignature() async throws {
        var refusing = try VirtualType5Tag(product: .icodeSLIX2, message: poster)
        refusing.signature = nil
        #expect(try await Type5Tag.readNDEF(over: InProcessTransport(refusing)).originality == .missing(.icode))

        // Block reads only (a PC/SC storage-card link): nothing sent, and why.
        let storage = InProcessTransport(try VirtualType5Tag(product: .icodeSLIX2, message: poster))
        let reading = try await Type5Tag.readNDEF(over: storage, uid: Type5Product.icodeSLIX2.defaultUID, systemInformation: false)
        guard case .notCarried(.icode, _)? = reading.originality else {
            Issue.record("expected notCarried, got \(String(describing: reading.originality))")
            return
        }
        #expect(!(await storage.commands.contains(Type5Command.readSignature)))

        // The original SLIX has no READ SIGNATURE: not asked.
        let slix = InProcessTransport(try VirtualType5Tag(product: .icodeSLIX, message: poster))
        #expect(try await Type5Tag.readNDEF(over: slix).originality == nil)
        #expect(!(await slix.commands.contains(Type5Command.readSignature)))
    }
}
