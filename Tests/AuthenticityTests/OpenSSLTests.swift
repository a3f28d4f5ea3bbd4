import Authenticity
import Foundation
import LibCrypto
import Synchronization
import Testing
import TestSupport

/// OpenSSL behind the originality seam, on real chips' signatures.
@Suite struct OriginalitySignatureTests {
    let openSSL = OpenSSL()

    /// NXP's published keys with real chips' UIDs and READ_SIG answers, from the Proxmark3
    /// project's originality self-tests (RfidResearchGroup/proxmark3, tools/recover_pk.py).
    static let chips: [(name: String, curve: OriginalityCurve, key: String, uid: String, signature: String)] = [
        ("NTAG21x", .secp128r1, "04494E1A386D3D3CFE3DC10E5DE68A499B1C202DB5B132393E89ED19FE5BE8BC61",
         "04E10CDA993C80", "8B76052EE42F5567BEB53238B3E3F9950707C0DCC956B5C5EFCFDB709B2D82B3"),
        ("NTAG21x", .secp128r1, "04494E1A386D3D3CFE3DC10E5DE68A499B1C202DB5B132393E89ED19FE5BE8BC61",
         "04DB0BDA993C80", "6048EFD9417CD10F6B7F1818D471A7FE5B46868D2EABDC6307A1E0AAE139D8D0"),
        ("Ultralight EV1", .secp128r1, "0490933BDCD6E99B4E255E3DA55389A827564E11718E017292FAF23226A96614B8",
         "04C1285A373080", "CEA2EB0B3C95D0844A95B824A7553703B3702378033BF0987899DB70151A19E7"),
        ("NTAG 424 DNA", .secp224r1,
         "048A9B380AF2EE1B98DC417FECC263F8449C7625CECE82D9B916C992DA209D68422B81EC20B65A66B5102A61596AF3379200599316A00A1410",
         "0463474AA26A80",
         "27E9A50E6CA4BA9037C02F7D20A80D0284D0C1D83C67F5A5AC1D8A4EF86C9508417E4E9C6F85AA7920F0ABDED984CAF20467D66EA54BBF08"),
    ]

    @Test(arguments: chips.indices)
    func aGenuineChipsSignatureVerifies(_ index: Int) {
        let chip = Self.chips[index]
        #expect(openSSL.verifies(curve: chip.curve, publicKey: hex(chip.key), digest: hex(chip.uid), signature: hex(chip.signature)),
                "\(chip.name) \(chip.uid)")
    }

    @Test(arguments: chips.indices)
    func anotherUIDOrAZeroSignatureFails(_ index: Int) {
        let chip = Self.chips[index]
        let key = hex(chip.key), uid = hex(chip.uid), signature = hex(chip.signature)
        for position in uid.indices {
            var changed = uid
            changed[position] ^= 0x01
            #expect(!openSSL.verifies(curve: chip.curve, publicKey: key, digest: changed, signature: signature), "byte \(position)")
        }
        #expect(!openSSL.verifies(curve: chip.curve, publicKey: key, digest: uid, signature: [UInt8](repeating: 0, count: signature.count)))
        var flipped = signature
        flipped[signature.count - 1] ^= 0x80
        #expect(!openSSL.verifies(curve: chip.curve, publicKey: key, digest: uid, signature: flipped))
    }

    @Test func malformedInputsAreRefused() {
        let chip = Self.chips[0]
        let key = hex(chip.key), uid = hex(chip.uid), signature = hex(chip.signature)
        // The other curve, a key off the curve, a compressed key, wrong lengths, no UID, a huge one.
        #expect(!openSSL.verifies(curve: .secp224r1, publicKey: key, digest: uid, signature: signature))
        var offCurve = key
        offCurve[32] ^= 0x01
        #expect(!openSSL.verifies(curve: .secp128r1, publicKey: offCurve, digest: uid, signature: signature))
        #expect(!openSSL.verifies(curve: .secp128r1, publicKey: [0x02] + key[1...16], digest: uid, signature: signature))
        #expect(!openSSL.verifies(curve: .secp128r1, publicKey: [0x05] + key.dropFirst(), digest: uid, signature: signature))
        #expect(!openSSL.verifies(curve: .secp128r1, publicKey: key, digest: uid, signature: signature + [0]))
        #expect(!openSSL.verifies(curve: .secp128r1, publicKey: key, digest: uid, signature: Array(signature.dropLast())))
        #expect(!openSSL.verifies(curve: .secp128r1, publicKey: Array(key.dropLast()), digest: uid, signature: signature))
        #expect(!openSSL.verifies(curve: .secp128r1, publicKey: key, digest: [], signature: signature))
        #expect(!openSSL.verifies(curve: .secp128r1, publicKey: key, digest: [UInt8](repeating: 4, count: 1 << 20), signature: signature))
        #expect(!openSSL.verifies(curve: .secp128r1, publicKey: [], digest: [], signature: []))
        // r or s not below the curve's order.
        let ones = [UInt8](repeating: 0xFF, count: 16)
        #expect(!openSSL.verifies(curve: .secp128r1, publicKey: key, digest: uid, signature: ones + signature[16...]))
        #expect(!openSSL.verifies(curve: .secp128r1, publicKey: key, digest: uid, signature: Array(signature[..<16]) + ones))
    }

    @Test func randomInputsNeverVerify() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let curve: OriginalityCurve = Bool.random(using: &generator) ? .secp128r1 : .secp224r1
            // Mostly the right lengths, so the bytes reach OpenSSL rather than the length checks.
            func bytes(_ count: Int) -> [UInt8] {
                let length = Int.random(in: 0..<8, using: &generator) == 0 ? Int.random(in: 0...80, using: &generator) : count
                return (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            }
            var key = bytes(1 + 2 * curve.scalarLength)
            if !key.isEmpty, Bool.random(using: &generator) { key[0] = 0x04 }
            #expect(!openSSL.verifies(curve: curve, publicKey: key, digest: bytes(7), signature: bytes(2 * curve.scalarLength)))
        }
    }

    /// A secp224r1 key made now by `openssl`, signing a 7-byte UID as it is (pkeyutl with no
    /// digest signs its input as the digest, as NXP's chips are signed).
    @Test func aSignatureMadeByTheOpenSSLCommandVerifiesOnSecp224r1() throws {
        let uid: [UInt8] = [0x04, 0x51, 0x6A, 0x22, 0x2A, 0x63, 0x80]
        let (point, der) = try OpenSSLCommand.inScratchDirectory { directory in
            try Data(uid).write(to: directory.appendingPathComponent("uid"))
            try OpenSSLCommand.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:secp224r1", "-out", "key.pem"], in: directory)
            try OpenSSLCommand.run(["pkey", "-in", "key.pem", "-pubout", "-outform", "DER", "-out", "public.der"], in: directory)
            try OpenSSLCommand.run(["pkeyutl", "-sign", "-inkey", "key.pem", "-in", "uid", "-out", "signature.der"], in: directory)
            // A named-curve SubjectPublicKeyInfo ends with the uncompressed point.
            let info = [UInt8](try Data(contentsOf: directory.appendingPathComponent("public.der")))
            return (Array(info.suffix(57)), [UInt8](try Data(contentsOf: directory.appendingPathComponent("signature.der"))))
        }
        let signature = try #require(Self.rs(fromDER: der, length: 28))
        #expect(point.first == 0x04)
        #expect(openSSL.verifies(curve: .secp224r1, publicKey: point, digest: uid, signature: signature))
        var changed = uid
        changed[3] ^= 0x10
        #expect(!openSSL.verifies(curve: .secp224r1, publicKey: point, digest: changed, signature: signature))
    }

    /// r ‖ s, each `length` bytes, from an ECDSA-Sig-Value (SEQUENCE of two INTEGERs, short lengths).
    static func rs(fromDER der: [UInt8], length: Int) -> [UInt8]? {
        guard der.count > 2, der[0] == 0x30, Int(der[1]) == der.count - 2 else { return nil }
        var at = 2
        var result: [UInt8] = []
        for _ in 0..<2 {
            guard at + 2 <= der.count, der[at] == 0x02 else { return nil }
            let count = Int(der[at + 1])
            guard at + 2 + count <= der.count else { return nil }
            let integer = der[(at + 2)..<(at + 2 + count)].drop { $0 == 0 }
            guard integer.count <= length else { return nil }
            result += [UInt8](repeating: 0, count: length - integer.count) + integer
            at += 2 + count
        }
        return at == der.count ? result : nil
    }
}

/// OpenSSL behind the AES seam, on the standards' own examples.
@Suite struct AESTests {
    let openSSL = OpenSSL()
    /// The key of NIST SP 800-38A's and RFC 4493's examples.
    let key = hex("2b7e151628aed2a6abf7158809cf4f3c")

    @Test func encryptsFIPS197sExampleBlock() {
        // FIPS-197, appendix C.1 (AES-128).
        #expect(openSSL.encryptBlock(key: hex("000102030405060708090a0b0c0d0e0f"), hex("00112233445566778899aabbccddeeff"))
                == hex("69c4e0d86a7b0430d8cdb78070b4c55a"))
    }

    @Test func decryptsSP800_38AsCBCExample() {
        // NIST SP 800-38A, F.2.2 (CBC-AES128.Decrypt).
        let ciphertext = hex("7649abac8119b246cee98e9b12e9197d 5086cb9b507219ee95db113a917678b2 73bed6b8e3c1743b7116e69e22229516 3ff1caa1681fac09120eca307586e1a7")
        let plaintext = hex("6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51 30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710")
        #expect(openSSL.decryptCBC(key: key, iv: hex("000102030405060708090a0b0c0d0e0f"), ciphertext) == plaintext)
    }

    @Test(arguments: [
        // RFC 4493, section 4: examples 1 to 4 (AES-CMAC of 0, 16, 40 and 64 bytes).
        ("", "bb1d6929e95937287fa37d129b756746"),
        ("6bc1bee22e409f96e93d7e117393172a", "070a16b46b4d4144f79bdd9dd04a287c"),
        ("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411", "dfa66747de9ae63030ca32611497c827"),
        ("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
         "51f0bebf7e3b9d92fc49741779363cfe"),
    ])
    func macsRFC4493sExamples(_ message: String, _ mac: String) {
        #expect(openSSL.cmac(key: key, hex(message)) == hex(mac))
    }

    @Test func wrongLengthsAreRefused() {
        let block = [UInt8](repeating: 0, count: 16)
        for wrong in [0, 15, 17, 24, 32] {
            let bytes = [UInt8](repeating: 1, count: wrong)
            #expect(openSSL.encryptBlock(key: bytes, block) == nil)
            #expect(openSSL.encryptBlock(key: key, bytes) == nil)
            #expect(openSSL.decryptCBC(key: bytes, iv: block, block) == nil)
            #expect(openSSL.decryptCBC(key: key, iv: bytes, block) == nil)
            #expect(openSSL.cmac(key: bytes, block) == nil)
        }
        #expect(openSSL.decryptCBC(key: key, iv: block, [UInt8](repeating: 0, count: 17)) == nil)
        #expect(openSSL.decryptCBC(key: key, iv: block, []) == [])
        #expect(openSSL.decryptCBC(key: key, iv: block, [UInt8](repeating: 0, count: (1 << 20) + 16)) == nil)
        #expect(openSSL.cmac(key: key, [UInt8](repeating: 0, count: (1 << 20) + 1)) == nil)
    }
}

/// OpenSSL behind the certificate seam, on a hierarchy `openssl` makes for the test run.
@Suite struct CertificateTests {
    let openSSL = OpenSSL()
    let data = Array("A message a Signature record covers: its records' type, id and payload.".utf8)

    @Test(arguments: TestCertificates.Scheme.allCases)
    func aLeafsSignatureVerifiesAndFailsOnAnyChangedByte(_ scheme: TestCertificates.Scheme) throws {
        let pki = try TestCertificates.shared()
        let signature = try pki.sign(data, scheme)
        #expect(openSSL.verifies(certificate: pki.leaf(scheme), scheme: Self.seam(scheme), data: data, signature: signature))
        for position in [0, data.count / 2, data.count - 1] {
            var changed = data
            changed[position] ^= 0x20
            #expect(!openSSL.verifies(certificate: pki.leaf(scheme), scheme: Self.seam(scheme), data: changed, signature: signature))
        }
        var changed = signature
        changed[changed.count / 2] ^= 0x01
        #expect(!openSSL.verifies(certificate: pki.leaf(scheme), scheme: Self.seam(scheme), data: data, signature: changed))
        // Under another certificate's key, or read as another scheme.
        let other: TestCertificates.Scheme = scheme == .ecdsa ? .rsaPKCS1v15 : .ecdsa
        #expect(!openSSL.verifies(certificate: pki.leaf(other), scheme: Self.seam(scheme), data: data, signature: signature))
        for wrong in [SignedDataScheme.rsaPSS, .rsaPKCS1v15, .dsa, .ecdsa] where wrong != Self.seam(scheme) {
            #expect(!openSSL.verifies(certificate: pki.leaf(scheme), scheme: wrong, data: data, signature: signature))
        }
    }

    @Test func aChainToAConfiguredAnchorIsTrustedWithItsSubject() throws {
        let pki = try TestCertificates.shared()
        try OpenSSLCommand.inScratchDirectory { directory in
            let anchor = try pki.writeRoot(into: directory)
            for scheme in [TestCertificates.Scheme.ecdsa, .rsaPKCS1v15, .dsa] {
                #expect(openSSL.chain(certificate: pki.leaf(scheme), intermediates: [pki.intermediate], extraAnchors: [anchor])
                        == .trusted(organization: "Example Ltd", commonName: "Example Signing"))
            }
            // Anchors that cannot be read are passed over, and said so if the chain then fails.
            let unreadable = ["/dev/zero", directory.path, directory.appendingPathComponent("absent.pem").path]
            #expect(openSSL.chain(certificate: pki.leaf(.ecdsa), intermediates: [pki.intermediate], extraAnchors: unreadable + [anchor])
                    == .trusted(organization: "Example Ltd", commonName: "Example Signing"))
            guard case .untrusted(let reason) = openSSL.chain(certificate: pki.leaf(.ecdsa), intermediates: [pki.intermediate],
                                                               extraAnchors: unreadable) else {
                Issue.record("trusted without its anchor")
                return
            }
            #expect(reason.contains("/dev/zero"), "\(reason)")
        }
    }

    @Test func withoutTheAnchorOrTheIntermediateItIsNot() throws {
        let pki = try TestCertificates.shared()
        let reason = "unable to get local issuer certificate"
        #expect(openSSL.chain(certificate: pki.leaf(.ecdsa), intermediates: [pki.intermediate], extraAnchors: []) == .untrusted(reason))
        try OpenSSLCommand.inScratchDirectory { directory in
            let anchor = try pki.writeRoot(into: directory)
            #expect(openSSL.chain(certificate: pki.leaf(.ecdsa), intermediates: [], extraAnchors: [anchor]) == .untrusted(reason))
            // The intermediate's own key does not make the leaf's chain; nor does the leaf vouch for itself.
            #expect(openSSL.chain(certificate: pki.leaf(.ecdsa), intermediates: [pki.leaf(.rsaPKCS1v15)], extraAnchors: [anchor])
                    == .untrusted(reason))
            #expect(openSSL.chain(certificate: pki.selfSigned, intermediates: [pki.intermediate], extraAnchors: [anchor])
                    == .untrusted("self-signed certificate"))
        }
    }

    @Test func malformedOrOversizedInputsAreRefused() throws {
        let pki = try TestCertificates.shared()
        let leaf = pki.leaf(.ecdsa)
        let signature = try pki.sign(data, .ecdsa)
        let malformed: [[UInt8]] = [[], [0x30], Array(leaf.dropLast()), leaf + [0], [UInt8](repeating: 0x30, count: 17 * 1024)]
        for certificate in malformed {
            #expect(!openSSL.verifies(certificate: certificate, scheme: .ecdsa, data: data, signature: signature))
            guard case .untrusted = openSSL.chain(certificate: certificate, intermediates: [], extraAnchors: []) else {
                Issue.record("a certificate of \(certificate.count) bytes trusted")
                continue
            }
        }
        #expect(!openSSL.verifies(certificate: leaf, scheme: .ecdsa, data: data, signature: []))
        #expect(!openSSL.verifies(certificate: leaf, scheme: .ecdsa, data: data, signature: signature + [UInt8](repeating: 0, count: 4096)))
        #expect(!openSSL.verifies(certificate: leaf, scheme: .ecdsa, data: [UInt8](repeating: 0, count: (1 << 20) + 1), signature: signature))
        #expect(openSSL.chain(certificate: leaf, intermediates: Array(repeating: pki.intermediate, count: 9), extraAnchors: [])
                == .untrusted("more than 8 intermediate certificates"))
        guard case .untrusted = openSSL.chain(certificate: leaf, intermediates: [pki.intermediate, [0x30, 0x82]], extraAnchors: []) else {
            Issue.record("a malformed intermediate passed")
            return
        }
    }

    /// Certificates with random bytes changed: whatever OpenSSL's parser makes of them, nothing
    /// crashes, and no changed certificate chains to the anchor.
    @Test func mutatedCertificatesAreNeverTrusted() throws {
        let pki = try TestCertificates.shared()
        let signature = try pki.sign(data, .ecdsa)
        var generator = SystemRandomNumberGenerator()
        try OpenSSLCommand.inScratchDirectory { directory in
            let anchor = try pki.writeRoot(into: directory)
            // Each chain reads the system's trust store (tens of milliseconds): few rounds, several bytes each.
            for _ in 0..<60 {
                var certificate = pki.leaf(.ecdsa)
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    certificate[Int.random(in: certificate.indices, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
                if certificate == pki.leaf(.ecdsa) { continue }
                // A change outside the key (the validity, the issuer's signature) may still verify
                // the data: vouching for the key is the chain's business.
                _ = openSSL.verifies(certificate: certificate, scheme: .ecdsa, data: data, signature: signature)
                let verdict = openSSL.chain(certificate: certificate, intermediates: [pki.intermediate], extraAnchors: [anchor])
                guard case .untrusted = verdict else {
                    Issue.record("a changed certificate trusted: \(certificate)")
                    return
                }
            }
        }
    }

    /// One value serves every thread: each call makes and frees its own OpenSSL objects.
    @Test func answersAlikeFromManyThreadsAtOnce() throws {
        let pki = try TestCertificates.shared()
        let signature = try pki.sign(data, .rsaPSS)
        let chip = OriginalitySignatureTests.chips[0]
        let right = Atomic(0)
        try OpenSSLCommand.inScratchDirectory { directory in
            let anchor = try pki.writeRoot(into: directory)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let alike = (0..<20).allSatisfy { _ in
                    openSSL.verifies(curve: chip.curve, publicKey: hex(chip.key), digest: hex(chip.uid), signature: hex(chip.signature))
                        && openSSL.verifies(certificate: pki.leaf(.rsaPSS), scheme: .rsaPSS, data: data, signature: signature)
                        && openSSL.cmac(key: [UInt8](repeating: 1, count: 16), data)?.count == 16
                } && openSSL.chain(certificate: pki.leaf(.rsaPSS), intermediates: [pki.intermediate], extraAnchors: [anchor])
                    == .trusted(organization: "Example Ltd", commonName: "Example Signing")
                if alike { right.add(1, ordering: .relaxed) }
            }
        }
        #expect(right.load(ordering: .relaxed) == 8)
    }

    static func seam(_ scheme: TestCertificates.Scheme) -> SignedDataScheme {
        switch scheme {
        case .ecdsa: .ecdsa
        case .rsaPKCS1v15: .rsaPKCS1v15
        case .rsaPSS: .rsaPSS
        case .dsa: .dsa
        }
    }
}
