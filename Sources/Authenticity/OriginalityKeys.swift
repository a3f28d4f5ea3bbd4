import NDEF
import NFCTags

/// One of NXP's originality public keys: the key its factory signs a family's UIDs with.
public struct OriginalityKey: Hashable, Sendable {
    /// What reports name it by (`object.genuine_key`).
    public let name: String
    public let curve: OriginalityCurve
    /// The uncompressed point, 04 ‖ X ‖ Y.
    public let point: [UInt8]
    /// The families whose chips are signed with it.
    public let families: Set<OriginalityFamily>

    init(_ name: String, _ curve: OriginalityCurve, _ families: Set<OriginalityFamily>, _ hex: String) {
        self.name = name
        self.curve = curve
        self.families = families
        // The table's own constants: a typo in one would fail every test of its family.
        point = (try? Hex.decode(hex).get()) ?? []
    }
}

/// NXP's published originality keys, the one table of them. Each but one was checked against
/// real chips' signatures before it went in (Docs/authenticity.md says which).
public enum OriginalityKeys {
    public static let all: [OriginalityKey] = [
        // AN11350 "NTAG 21x Originality Signature Validation"; Proxmark3 client/src/cmdhfmfu.c
        // ("NXP NTAG21x (2013)"). Verified: the NTAG213/216 Flipper dumps in Tests (and the
        // Proxmark3 ntag216 dump), two chips in Proxmark3's tools/recover_pk.py.
        OriginalityKey("NXP NTAG21x", .secp128r1, [.ntag21x],
                       "04494E1A386D3D3CFE3DC10E5DE68A499B1C202DB5B132393E89ED19FE5BE8BC61"),
        // NXP's TagInfo, as Proxmark3 client/src/crypto/originality.c lists it ("NXP Public key",
        // perhaps NTAG210/212's). The one key here no chip of ours was checked against: a
        // signature it verifies is still NXP's, and without it such a chip would read as not
        // genuine.
        OriginalityKey("NXP (TagInfo)", .secp128r1, [.ntag21x],
                       "04A748B6A632FBEE2C0897702B33BEA1C074998E17B84ACA04FF267E5D2C91F6DC"),
        // AN11341 "MIFARE Ultralight EV1 Originality Signature Validation"; Proxmark3
        // cmdhfmfu.c ("NXP Ultralight Ev1"). Verified: Flipper's MF0UL11 dump, recover_pk.py.
        OriginalityKey("NXP MIFARE Ultralight EV1", .secp128r1, [.ultralightEV1],
                       "0490933BDCD6E99B4E255E3DA55389A827564E11718E017292FAF23226A96614B8"),
        // Proxmark3 client/src/cmdhf15.c ("NXP ICODE DNA, ICODE SLIX2"). Verified: two chips in
        // recover_pk.py (the UID least significant byte first, as the chip sends it).
        OriginalityKey("NXP ICODE SLIX2/DNA", .secp128r1, [.icode],
                       "048878A2A2D3EEC336B4F261A082BD71F9BE11C4E2E896648B32EFA59CEA6E59F0"),
        // AN12196 "NTAG 424 DNA and NTAG 424 DNA TagTamper features and hints", the originality
        // check's worked example (UID 04518DFAA96180), which verifies; Proxmark3
        // cmdhfmfdes.c ("NTAG424DNA, DESFire EV2"). Verified: two chips in recover_pk.py.
        OriginalityKey("NXP NTAG 424 DNA", .secp224r1, [.ntag424DNA, .desfire],
                       "048A9B380AF2EE1B98DC417FECC263F8449C7625CECE82D9B916C992DA209D68422B81EC20B65A66B5102A61596AF3379200599316A00A1410"),
        // Proxmark3 cmdhfmfdes.c ("DESFire EV2"; its libpcrypto lists it for NTAG 424 DNA too).
        // Verified: three DESFire EV2 chips in recover_pk.py.
        OriginalityKey("NXP MIFARE DESFire EV2", .secp224r1, [.desfire, .ntag424DNA],
                       "04B304DC4C615F5326FE9383DDEC9AA892DF3A57FA7FFB3276192BC0EAA252ED45A865E3B093A3D0DCE5BE29E92F1392CE7DE321E3E5C52B3A"),
        // Proxmark3 cmdhfmfdes.c ("DESFire EV3"). Verified: two chips in recover_pk.py.
        OriginalityKey("NXP MIFARE DESFire EV3", .secp224r1, [.desfire],
                       "041DB46C145D0A36539C6544BD6D9B0AA62FF91EC48CBC6ABAE36E0089A46F0D08C8A715EA40A63313B92E90DDC1730230E0458A33276FB743"),
        // Proxmark3 cmdhfmfdes.c ("DESFire Light"). Verified: two chips in recover_pk.py.
        OriginalityKey("NXP MIFARE DESFire Light", .secp224r1, [.desfire],
                       "040E98E117AAA36457F43173DC920A8757267F44CE4EC5ADD3C54075571AEBBF7B942A9774A1D94AD02572427E5AE0A2DD36591B1FB34FCF3D"),
    ]

    /// The keys a chip of `family` may be signed with, its own first, then every other key on its
    /// curve: chips are met in the field signed under a neighbouring family's key (NTAG21x under
    /// Ultralight EV1's and the reverse), and a signature NXP made under any of its keys is NXP's.
    public static func candidates(for family: OriginalityFamily) -> [OriginalityKey] {
        let curve = family.curve
        let own = all.filter { $0.families.contains(family) }
        return own + all.filter { $0.curve == curve && !$0.families.contains(family) }
    }
}

extension OriginalityFamily {
    /// The curve its chips are signed on.
    public var curve: OriginalityCurve {
        switch self {
        case .ntag21x, .ultralightEV1, .icode: .secp128r1
        case .ntag424DNA, .desfire: .secp224r1
        }
    }

    /// The bytes its signature signs, from the UID as reports give it (most significant byte
    /// first): ICODE chips sign theirs least significant byte first, as they send it.
    func signedMessage(uid: [UInt8]) -> [UInt8] {
        self == .icode ? uid.reversed() : uid
    }
}
