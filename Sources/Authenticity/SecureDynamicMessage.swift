/// NTAG 424 DNA's secure dynamic messages (SUN: "Secure Unique NFC"), as NXP's AN12196 and the
/// chip's data sheet (§9.3) describe them and open backends (nfc-developer/sdm-backend) compute
/// them: on every read the chip mirrors into its link the encrypted PICCData (its UID and read
/// counter) and a MAC over them and part of the link. Both directions live here: checking a link
/// (nfcscan, nfcscand) and making one (the simulator's NTAG 424 DNA), so the two cannot differ.
///
/// AES mode:
/// - PICCData = AES-CBC-decrypt(SDMMetaReadKey, IV 0, 16 bytes) = PICCDataTag ‖ UID (7) ‖
///   SDMReadCtr (3, least significant byte first) ‖ random padding;
/// - the session MAC key = CMAC(SDMFileReadKey, SV2 = 3C C3 00 01 00 80 ‖ UID ‖ SDMReadCtr);
/// - SDMMAC = the odd-indexed bytes (1, 3, … 15) of CMAC(session key, MAC input), the MAC input
///   being the link's text from the MAC input offset up to the MAC (often nothing at all).
///
/// LRP mode (AN12304): PICCData = PICCRand (8) ‖ LRICB-decrypt(SDMMetaReadKey, updated key 0,
/// counter PICCRand, 16 bytes); the session MAC key = CMAC_LRP(SDMFileReadKey, 00 01 00 80 ‖
/// UID ‖ SDMReadCtr ‖ 1E E1); SDMMAC = the odd-indexed bytes of CMAC_LRP(session key, MAC input).
public enum SecureDynamicMessage {
    /// Which cipher the chip's SDM runs (its key settings choose it once for all keys).
    public enum Mode: String, Hashable, Sendable, CaseIterable {
        case aes
        case lrp

        /// Bytes of encrypted PICCData in the link: LRP's carries its PICCRand in front.
        public var piccDataLength: Int { self == .aes ? 16 : 24 }
    }

    /// PICCDataTag: bit 7, the UID is mirrored; bit 6, the read counter is; the low nibble, the
    /// UID's length (7 is the only one the chip has).
    static let uidAndCounterTag: UInt8 = 0xC7

    /// What a link's PICCData says, once decrypted.
    public struct PICCData: Hashable, Sendable {
        public var uid: [UInt8]
        /// SDMReadCtr: 24 bits, one more on each read of the file.
        public var counter: Int

        public init(uid: [UInt8], counter: Int) {
            self.uid = uid
            self.counter = counter
        }
    }

    /// The decrypted PICCData of `encrypted` (nil: not of the mode's length, or a PICCDataTag
    /// without both the UID and the counter, which is all this checks).
    static func decrypt(_ encrypted: [UInt8], mode: Mode, metaReadKey: [UInt8], aes: any AES128) -> PICCData? {
        guard encrypted.count == mode.piccDataLength, metaReadKey.count == 16 else { return nil }
        let plain: [UInt8]?
        switch mode {
        case .aes:
            plain = aes.decryptCBC(key: metaReadKey, iv: [UInt8](repeating: 0, count: 16), encrypted)
        case .lrp:
            plain = LRP(aes: aes, key: metaReadKey, u: 0)?.decrypt(counter: Array(encrypted.prefix(8)), Array(encrypted.dropFirst(8)))
        }
        guard let plain, plain.count == 16, plain[0] == uidAndCounterTag else { return nil }
        let counter = Int(plain[8]) | Int(plain[9]) << 8 | Int(plain[10]) << 16
        return PICCData(uid: Array(plain[1...7]), counter: counter)
    }

    /// The 8-byte SDMMAC of `macInput` for the chip `picc`.
    static func mac(_ macInput: [UInt8], picc: PICCData, mode: Mode, fileReadKey: [UInt8], aes: any AES128) -> [UInt8]? {
        guard picc.uid.count == 7, (0..<(1 << 24)).contains(picc.counter), fileReadKey.count == 16 else { return nil }
        let counter = [UInt8(picc.counter & 0xFF), UInt8(picc.counter >> 8 & 0xFF), UInt8(picc.counter >> 16)]
        let full: [UInt8]?
        switch mode {
        case .aes:
            let sv2: [UInt8] = [0x3C, 0xC3, 0x00, 0x01, 0x00, 0x80] + picc.uid + counter
            full = aes.cmac(key: fileReadKey, sv2).flatMap { aes.cmac(key: $0, macInput) }
        case .lrp:
            // 4 + 7 + 3 + 2 bytes: a whole block, no zero padding needed.
            let sv: [UInt8] = [0x00, 0x01, 0x00, 0x80] + picc.uid + counter + [0x1E, 0xE1]
            full = LRP(aes: aes, key: fileReadKey, u: 0)?.cmac(sv)
                .flatMap { LRP(aes: aes, key: $0, u: 0) }?.cmac(macInput)
        }
        guard let full, full.count == 16 else { return nil }
        return stride(from: 1, to: 16, by: 2).map { full[$0] }
    }

    /// The encrypted PICCData a chip with `uid` mirrors at read `counter`, padded with `random`
    /// (5 bytes; LRP: then 8 more, its PICCRand).
    static func encrypt(_ picc: PICCData, mode: Mode, metaReadKey: [UInt8], random: [UInt8], aes: any AES128) -> [UInt8]? {
        guard picc.uid.count == 7, (0..<(1 << 24)).contains(picc.counter), random.count == (mode == .aes ? 5 : 13) else { return nil }
        let plain = [uidAndCounterTag] + picc.uid
            + [UInt8(picc.counter & 0xFF), UInt8(picc.counter >> 8 & 0xFF), UInt8(picc.counter >> 16)] + random.prefix(5)
        switch mode {
        case .aes:
            // CBC with a zero IV over one block is the block cipher alone.
            return aes.encryptBlock(key: metaReadKey, plain)
        case .lrp:
            let piccRand = Array(random.suffix(8))
            return LRP(aes: aes, key: metaReadKey, u: 0)?.encrypt(counter: piccRand, plain).map { piccRand + $0 }
        }
    }
}
