extension VirtualType3Tag {
    /// The object as a PN532 finds it with FeliCa POLLING at 212 or 424 kbps: its IDm, PMm and
    /// the NDEF system code 12 FC.
    public var pn532Target: PN532VirtualObjectTarget<VirtualType3Tag> {
        PN532VirtualObjectTarget(self, identity: .felica(idm: idm, pmm: pmm, systemCode: systemCode))
    }
}

extension VirtualType1Tag {
    /// Topaz SENS_RES as libnfc prints it (ATQA 0C 00).
    public static let sensRes: [UInt8] = [0x0C, 0x00]

    /// The object as a PN532 finds it in Jewel mode (BrTy 4): SENS_RES 0C 00 and UID0–3.
    public var pn532Target: PN532VirtualObjectTarget<VirtualType1Tag> {
        PN532VirtualObjectTarget(self, identity: .jewel(sensRes: Self.sensRes, jewelID: Array(uid.prefix(4))))
    }
}
