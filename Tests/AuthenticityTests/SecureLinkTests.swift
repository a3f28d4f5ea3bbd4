@testable import Authenticity
import LibCrypto
import NDEF
import NFCTags
import PropertyBased
import Testing

/// NTAG 424 DNA secure dynamic messages checked with OpenSSL's AES. Vectors:
/// - AES: NXP AN12196 Rev. 1.5 (the link on p. 12, `e=EF96…&c=94EE…`, and the one with encrypted
///   file data on p. 18, whose MAC input is `CEE9…62&cmac=`), the keys all zero;
/// - LRP primitives: NXP AN12304's test vectors (as nfc-developer/sdm-backend's
///   tests/test_lrp*.py quote them);
/// - LRP links: nfc-developer/sdm-backend's tests (test_libsdm.py test_sdm_lrp1/2, test_lrp_sdm.py),
///   the keys all zero.
@Suite struct SecureLinkTests {
    let aes = OpenSSL()
    static let zero = [UInt8](repeating: 0, count: 16)

    static func bytes(_ hex: String) -> [UInt8] { try! Hex.decode(hex).get() }

    static func template(_ url: String, _ mode: SecureDynamicMessage.Mode = .aes,
                         macInput: SecureLinkTemplate.MACInput? = nil) throws -> SecureLinkTemplate {
        try SecureLinkTemplate(name: "t", url: url, mode: mode, metaReadKey: zero, fileReadKey: zero, macInput: macInput)
    }

    @Test func an12196EncryptedPICCData() throws {
        let template = try Self.template("https://ntag.nxp.com/424?e={picc_data}&c={cmac}")
        let verdict = template.verify("https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086", aes: aes)
        #expect(verdict?.verified == true)
        #expect(verdict?.picc?.uid == Self.bytes("04DE5F1EACC040"))
        #expect(verdict?.picc?.counter == 61)
    }

    @Test func an12196WithEncryptedFileData() throws {
        let template = try Self.template("https://www.my424dna.com/?picc_data={picc_data}&enc={enc}&cmac={cmac}")
        #expect(template.macInput == .enc)
        let link = "https://www.my424dna.com/?picc_data=FD91EC264309878BE6345CBE53BADF40&enc=CEE9A53E3E463EF1F459635736738962&cmac=ECC1E7F6C6C73BF6"
        #expect(template.match(link)?.macInput == Array("CEE9A53E3E463EF1F459635736738962&cmac=".utf8))
        let verdict = template.verify(link, aes: aes)
        #expect(verdict?.verified == true)
        #expect(verdict?.picc?.uid == Self.bytes("04958CAA5C5E80"))
        #expect(verdict?.picc?.counter == 8)
    }

    @Test func lrpPrimitivesOfAN12304() throws {
        let eval = try #require(LRP(aes: aes, key: Self.bytes("567826B8DA8E768432A9548DBE4AA3A0"), u: 2))
        #expect(eval.evaluate(Self.bytes("1359")) == Self.bytes("1BA2C0C578996BC497DD181C6885A9DD"))
        let notFinal = try #require(LRP(aes: aes, key: Self.bytes("9AFF3EF56FFEC3153B1CADB48B445409"), u: 3))
        #expect(notFinal.evaluate(Self.bytes("4B073B247CD48F7E0A"), finalize: false) == Self.bytes("909415E5C8BE77563050F2227E17C0E4"))
        for (key, message, mac) in [("63A0169B4D9FE42C72B2784C806EAC21", "", "0E07C601970814A4176FDA633C6FC3DE"),
                                    ("8195088CE6C393708EBBE6C7914ECB0B", "BBD5B85772C7", "AD8595E0B49C5C0DB18E77355F5AAFF6"),
                                    ("E2F84A0B0AF40EFEB3EEA215A436605C", "8BF1DDA9FE445560A4F4EB9CE0", "D04382DF71BC293FEC4BB10BDB13805F"),
                                    ("5AA9F6C6DE5138113DF5D6B6C77D5D52", "A4434D740C2CB665FE5396959189383F", "8B43ADF767E46B692E8F24E837CB5EFC")] {
            #expect(LRP(aes: aes, key: Self.bytes(key), u: 0)?.cmac(Self.bytes(message)) == Self.bytes(mac), "CMAC_LRP under \(key)")
        }
        // LRICB with AN12304's padding written out (80 00 …).
        let lricb = try #require(LRP(aes: aes, key: Self.bytes("E0C4935FF0C254CD2CEF8FDDC32460CF"), u: 0))
        let plain = Self.bytes("012D7F1653CAF6503C6AB0C1010E8CB0") + [0x80] + [UInt8](repeating: 0, count: 15)
        let cipher = Self.bytes("FCBBACAA4F29182464F99DE41085266F480E863E487BAAF687B43ED1ECE0D623")
        #expect(lricb.encrypt(counter: Self.bytes("C3315DBF"), plain) == cipher)
        #expect(lricb.decrypt(counter: Self.bytes("C3315DBF"), cipher) == plain)
    }

    @Test func lrpLinks() throws {
        let plain = try Self.template("https://sdm.nfcdeveloper.com/tag?picc_data={picc_data}&cmac={cmac}", .lrp)
        let first = plain.verify("https://sdm.nfcdeveloper.com/tag?picc_data=1FCBE61B3E4CAD980CBFDD333E7A4AC4A579569BAFD22C5F&cmac=4231608BA7B02BA9", aes: aes)
        #expect(first?.verified == true)
        #expect(first?.picc == .init(uid: Self.bytes("04940e2a2f7080"), counter: 3))

        let withEnc = try Self.template("https://sdm.nfcdeveloper.com/tag?picc_data={picc_data}&enc={enc}&cmac={cmac}", .lrp)
        let second = withEnc.verify("https://sdm.nfcdeveloper.com/tag?picc_data=07D9CA2545881D4BFDD920BE1603268C0714420DD893A497"
                                    + "&enc=D6E921C47DB4C17C56F979F81559BB83&cmac=F9481AC7D855BDB6", aes: aes)
        #expect(second?.verified == true)
        #expect(second?.picc == .init(uid: Self.bytes("049b112a2f7080"), counter: 4))

        // The MAC input from the PICCData on (SDMMACInputOffset = PICCDataOffset).
        let fromPICC = try Self.template("https://{picc_data}x{cmac}", .lrp, macInput: .piccData)
        let third = fromPICC.verify("https://AAE1508939ECF6FF26BCE407959AB1A5EC022819A35CD293x5E3DB82C19E3865F", aes: aes)
        #expect(third?.verified == true)
        #expect(third?.picc == .init(uid: Self.bytes("042e1d222a6380"), counter: 0x6A))
    }

    @Test func tamperedLinksFail() throws {
        let template = try Self.template("https://ntag.nxp.com/424?e={picc_data}&c={cmac}")
        for link in ["https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337087",
                     "https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E89&c=94EED9EE65337086"] {
            let verdict = template.verify(link, aes: aes)
            #expect(verdict?.verified == false, "\(link)")
            #expect(verdict?.picc == nil)
        }
        // Wrong keys: the same link fails.
        let other = try SecureLinkTemplate(name: "t", url: "https://ntag.nxp.com/424?e={picc_data}&c={cmac}", mode: .aes,
                                           metaReadKey: Self.zero, fileReadKey: [UInt8](repeating: 1, count: 16))
        #expect(other.verify("https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086", aes: aes)?.verified == false)
        // Not of the template at all: nothing to say.
        for link in ["https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086&x=1",
                     "https://ntag.nxp.com/424?c=94EED9EE65337086&e=EF963FF7828658A599F3041510671E88",
                     "https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E8&c=94EED9EE65337086",
                     "https://ntag.nxp.com/424?e=%45F963FF7828658A599F3041510671E8&c=94EED9EE65337086",
                     "https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086"] {
            #expect(template.verify(link, aes: aes) == nil, "\(link)")
        }
    }

    /// A genuine link with one byte changed, inserted, or the rest cut off: never verified
    /// (a hex digit in the other case aside: the same link), never a trap.
    @Test func hostileLinksNeverVerify() async throws {
        let template = try Self.template("https://ntag.nxp.com/424?e={picc_data}&c={cmac}")
        let good = "https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086"
        let aes = aes
        await propertyCheck(count: 400, input: Gen.int(in: 0...2), Gen.int(in: 0...120), Gen.int(in: 0...255)) { kind, position, byte in
            var bytes = Array(good.utf8)
            let at = position % (bytes.count + 1)
            switch kind {
            case 0 where at < bytes.count: bytes[at] = UInt8(byte)
            case 1: bytes.insert(UInt8(byte), at: at)
            default: bytes.removeSubrange(at...)
            }
            let link = String(decoding: bytes, as: UTF8.self)
            let verdict = template.verify(link, aes: aes)
            if link.uppercased() != good.uppercased() { #expect(verdict?.verified != true, "\(link)") }
            if link == good { #expect(verdict?.verified == true) }
        }
    }

    @Test(arguments: SecureDynamicMessage.Mode.allCases)
    func madeLinksVerify(mode: SecureDynamicMessage.Mode) throws {
        let template = try SecureLinkTemplate(name: "t", url: "https://example.com/p", mode: mode,
                                              metaReadKey: Array(0..<16), fileReadKey: Array(16..<32))
        let picc = SecureDynamicMessage.PICCData(uid: Self.bytes("04a1b2c3d4e5f6"), counter: 0x012345)
        let link = try #require(template.link(for: picc, random: [UInt8](repeating: 7, count: mode == .aes ? 5 : 13), aes: aes))
        #expect(link.hasPrefix("https://example.com/p?picc_data="))
        let verdict = template.verify(link, aes: aes)
        #expect(verdict?.verified == true)
        #expect(verdict?.picc == picc)
    }

    @Test func replayIsRefused() throws {
        var checks = AuthenticityChecks.openSSL
        checks.secureLinks = [try Self.template("https://ntag.nxp.com/424?e={picc_data}&c={cmac}")]
        let message = NDEFMessage(records: [URIRecord(uri: "https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086").record()])
        let reading = TagReading(platform: .type4, product: nil, uid: nil, capacity: 256, ndefBytes: message.encoded(), roundTrips: 1)
        let first = checks.examine(reading).secureLinks
        #expect(first == [SecureLinkFinding(recordIndex: 0, template: "t", verified: true, uid: Self.bytes("04DE5F1EACC040"), counter: 61, replayed: false)])
        let again = checks.examine(reading).secureLinks
        #expect(again.first?.replayed == true)
        #expect(again.first?.verified == true)
    }

    @Test func counterTable() {
        var table = SecureLinkCounterTable()
        let uid = Self.bytes("04a1b2c3d4e5f6")
        let decisions = [5, 5, 4, 6].map { table.remember(uid: uid, counter: $0) }
        #expect(decisions == [false, true, true, false])
        #expect(table.last(for: uid) == 6)
        #expect(SecureLinkCounterTable(text: table.text) == table)
        #expect(SecureLinkCounterTable(text: Array("zz 1\n04a1b2c3d4e5f6 7\n04 99999999\n\n".utf8)).last(for: uid) == 7)
        for n in 0...SecureLinkCounterTable.capacity { _ = table.remember(uid: [0x04, UInt8(n & 0xFF), UInt8(n >> 8)], counter: 1) }
        #expect(table.last(for: uid) == nil, "the chip seen longest ago is forgotten")
        #expect(table.entries.count == SecureLinkCounterTable.capacity)
    }

    @Test func keysFile() throws {
        let text = """
        # posters
        [poster]
        url = https://ntag.nxp.com/424?e={picc_data}&c={cmac}
        meta-read-key = 00000000000000000000000000000000
        file-read-key = 00000000000000000000000000000000

        [desk]
        url = https://example.com/d
        mode = lrp
        meta-read-key = 000102030405060708090a0b0c0d0e0f
        file-read-key = 000102030405060708090a0b0c0d0e0f
        """
        let templates = try SecureLinkKeysFile.parse(Array(text.utf8))
        #expect(templates.map(\.name) == ["poster", "desk"])
        #expect(templates[1].mode == .lrp)
        #expect(templates[1].match("https://example.com/d?picc_data=" + String(repeating: "0", count: 48) + "&cmac=" + String(repeating: "1", count: 16)) != nil)
        #expect(!"\(templates[0])".contains("0000"), "no key in a description")

        let secret = "a1b2c3d4e5f60718293a4b5c6d7e8f9"
        let keys = "meta-read-key = \(String(repeating: "0", count: 32))\nfile-read-key = \(String(repeating: "0", count: 32))\n"
        for (bad, line, says) in [("[x]\nurl = https://e.com/\nmeta-read-key = \(secret)\n", 3, "16 bytes"),
                                  ("url = https://e.com/\n", 1, "before any"),
                                  ("[x]\nurl = https://e.com/?a={uid}\n" + keys, 2, "unknown placeholder"),
                                  ("[x]\nmode = des\n", 2, "aes or lrp"),
                                  ("[x]\nurl = a\nurl = b\n", 3, "twice"),
                                  ("[x]\nurl = https://e.com/?e={enc}{cmac}&p={picc_data}\n" + keys, 2, "{cmac}"),
                                  ("[x]\nurl = https://e.com/?e={enc}1&c={cmac}&p={picc_data}\n" + keys, 2, "{cmac}"),
                                  ("[x]\nurl = https://e.com/?p={picc_data}&e={enc}0&c={cmac}\n" + keys, 2, "{enc}"),
                                  ("[x]\n", 1, "no url")] {
            #expect {
                _ = try SecureLinkKeysFile.parse(Array(bad.utf8))
            } throws: { error in
                guard let error = error as? SecureLinkKeysFileError else { return false }
                return error.line == line && error.message.contains(says) && !error.message.contains(secret)
            }
        }
    }
}
