import Authenticity
import LibCrypto
import NFCTags
import Testing
import TestSupport

/// The originality verdict with OpenSSL's arithmetic, on real chips' signatures: UIDs and
/// signatures from dumps of real chips (Flipper `.nfc` files: UberGuidoZ/Flipper and
/// unleashed-firmware's unit-test resources; a Proxmark3 trace), NXP's own example (AN12196) and
/// chips Proxmark3's tools/recover_pk.py lists. Every one also verifies with the `openssl` CLI.
@Suite struct OriginalityCheckTests {
    let checks = AuthenticityChecks.openSSL

    struct Chip: CustomTestStringConvertible, Sendable {
        let name: String
        let family: OriginalityFamily
        let uid: [UInt8]
        let signature: [UInt8]
        let key: String
        var testDescription: String { name }
    }

    static let chips: [Chip] = [
        Chip(name: "NTAG216 (Flipper fz_Ntag216)", family: .ntag21x, uid: hex("04D9650A325E80"),
             signature: hex("482AF2010FF2F5A79AD5796ECB14544898D1575D8A23A9B0E820023ECDC816DB"), key: "NXP NTAG21x"),
        Chip(name: "NTAG213 (Flipper ug_Talking_sasquach)", family: .ntag21x, uid: hex("045EC8BA074F81"),
             signature: hex("77BB86F3B2D663ECE01D0A72C8A509E8DBB334D6A61C1B902F0D2DBB869C7588"), key: "NXP NTAG21x"),
        Chip(name: "NTAG213 (Flipper ug_Empty_NTAG213)", family: .ntag21x, uid: hex("043991C2FC6780"),
             signature: hex("AF0D47F0EFFFDC7B8B7B78DD939BE6C1BF15330A1A82B6C887B16963545F3185"), key: "NXP NTAG21x"),
        Chip(name: "NTAG216 (Proxmark3 trace)", family: .ntag21x, uid: hex("045869D29C3980"),
             signature: hex("1FA9FE479435E4B60280F7A2B44293DF9127471B3251BC8942F0941AD71A1755"), key: "NXP NTAG21x"),
        Chip(name: "Ultralight EV1 MF0UL11 (Flipper fz_Ultralight_11)", family: .ultralightEV1, uid: hex("041574F2B05E81"),
             signature: hex("A4377DE58C2F88D80460416E3AC8CDDB19942612C5D012B0EB88057289F2A561"), key: "NXP MIFARE Ultralight EV1"),
        // A chip that calls itself an NTAG21x but was signed with Ultralight EV1's key: found by
        // trying the curve's other keys, and named.
        Chip(name: "an Ultralight EV1 signature on a chip read as NTAG21x", family: .ntag21x, uid: hex("041574F2B05E81"),
             signature: hex("A4377DE58C2F88D80460416E3AC8CDDB19942612C5D012B0EB88057289F2A561"), key: "NXP MIFARE Ultralight EV1"),
        // The UID as reports give it (E0 first); the chip signs it least significant byte first.
        Chip(name: "ICODE DNA (recover_pk.py)", family: .icode, uid: hex("E0040118009B5FEE"),
             signature: hex("32D9E7579CD77E6F1FA11419231E874826984C5F189FDE1421684563A9663377"), key: "NXP ICODE SLIX2/DNA"),
        Chip(name: "NTAG 424 DNA (AN12196's example)", family: .ntag424DNA, uid: hex("04518DFAA96180"),
             signature: hex("D1940D17CFEDA4BFF80359AB975F9F6514313E8F90C1D3CAAF5941AD744A1CDF9A83F883CAFE0FE95D1939B1B7E47113993324473B785D21"),
             key: "NXP NTAG 424 DNA"),
        Chip(name: "DESFire EV2 (recover_pk.py)", family: .desfire, uid: hex("042A41CAE45380"),
             signature: hex("B2769F8DDB575AEA2A680ADCA8FFED4FAB81A1E9908E2B82FE0FABB697BBD9B23835C416970E75768F12902ACA491349E94E6589EAF4F508"),
             key: "NXP MIFARE DESFire EV2"),
        Chip(name: "DESFire EV3 (recover_pk.py)", family: .desfire, uid: hex("04448BD2DB6B80"),
             signature: hex("5CBB5632795C8F15263FEFB095B51C7B541AFD914A1AE44EF6FB8AF605EDF13DBFEE6C3A2DB372245E671DFE0D42CB1F0D0B8FE67A89D2F6"),
             key: "NXP MIFARE DESFire EV3"),
        Chip(name: "DESFire Light (recover_pk.py)", family: .desfire, uid: hex("0439556ACB6480"),
             signature: hex("D5BD0978106E1E38B513642335966AB21E9F950DCFCFAB45FF13D0DC3CA4C2AE7E0D671DF1240937D040DAC4601C5F66ED62C546EE03ED08"),
             key: "NXP MIFARE DESFire Light"),
    ]

    @Test(arguments: chips) func aRealChipIsGenuineUnderTheKeyThatSignedIt(_ chip: Chip) {
        #expect(checks.originality(of: .signature(chip.family, chip.signature), uid: chip.uid) == .verdict(.genuine(key: chip.key)))
    }

    @Test(arguments: chips) func oneUIDByteChangedIsNotGenuine(_ chip: Chip) {
        var uid = chip.uid
        uid[uid.count - 1] ^= 0x01
        guard case .verdict(.notGenuine(let reason)) = checks.originality(of: .signature(chip.family, chip.signature), uid: uid) else {
            Issue.record("a changed UID verified"); return
        }
        #expect(reason.contains("does not verify"))
    }

    @Test func aZeroOrMisshapenSignatureIsNotGenuine() {
        let uid = hex("04D9650A325E80")
        // The NTAG215 copies in Flipper's ug_How_to_compile_DFU and ug_Open_Android_flipper answer zeros.
        let zeros = checks.originality(of: .signature(.ntag21x, [UInt8](repeating: 0, count: 32)), uid: uid)
        #expect(zeros.verdict == .notGenuine(reason: "its signature is all zeros, as copies and rewritable look-alikes answer"))
        let short = checks.originality(of: .signature(.ntag21x, [UInt8](repeating: 0xA5, count: 31)), uid: uid)
        #expect(short.verdict == .notGenuine(reason: "its signature is 31 bytes, not the 32 of NTAG21x"))
        // A 424 DNA signature is 56 bytes: a 32-byte one is refused before any arithmetic.
        #expect(checks.originality(of: .signature(.ntag424DNA, Self.chips[0].signature), uid: uid).verdict?.isGenuine == false)
        // Flipper's ug_Rickroll_no_ads "NTAG215": its UID repeated, the signature a copier wrote.
        let copied = checks.originality(of: .signature(.ntag21x, hex("041B1384D3700000041B1384D3700000041B1384D3700000041B1384D3700000")),
                                        uid: hex("041B13D3700000"))
        #expect(copied.verdict?.isGenuine == false)
    }

    @Test func missingIsNotGenuineAndWhatCannotBeCheckedIsAbsent() {
        let uid = hex("04D9650A325E80")
        guard case .verdict(.notGenuine(let reason)) = checks.originality(of: .missing(.ntag21x), uid: uid) else {
            Issue.record("a missing signature was not a verdict"); return
        }
        #expect(reason.contains("did not answer"))
        let carried = checks.originality(of: .notCarried(.ntag21x, reason: "a storage-card reader maps only reads"), uid: uid)
        #expect(carried.verdict == nil)
        #expect(carried.uncheckedReason?.contains("a storage-card reader maps only reads") == true)
        #expect(checks.originality(of: nil, uid: uid).verdict == nil)
        #expect(checks.originality(of: .signature(.ntag21x, Self.chips[0].signature), uid: nil).verdict == nil)
        #expect(checks.originality(of: .signature(.ntag21x, Self.chips[0].signature), uid: []).verdict == nil)
    }

    /// What ScanSession runs on every reading.
    @Test func examineReadsTheReadingsEvidenceAndUID() {
        var reading = TagReading(platform: .type2, product: "NTAG216", uid: Self.chips[0].uid, capacity: 868, ndefBytes: [], roundTrips: 3)
        #expect(checks.examine(reading).genuine == nil)
        reading.originality = .signature(.ntag21x, Self.chips[0].signature)
        #expect(checks.examine(reading).genuine == .genuine(key: "NXP NTAG21x"))
        #expect(checks.examine(reading).originality.explanation == "genuine: its originality signature verifies under NXP NTAG21x")
    }

    @Test func everyKeyIsAPointOnItsCurveAndEveryFamilyHasOne() {
        for key in OriginalityKeys.all {
            #expect(key.point.count == 1 + 2 * key.curve.scalarLength, "\(key.name)")
            #expect(key.point.first == 0x04, "\(key.name)")
        }
        for family in OriginalityFamily.allCases {
            let candidates = OriginalityKeys.candidates(for: family)
            #expect(candidates.first?.families.contains(family) == true, "\(family)")
            #expect(candidates.allSatisfy { $0.curve == family.curve })
        }
    }
}

extension Genuineness {
    var isGenuine: Bool { if case .genuine = self { true } else { false } }
}
