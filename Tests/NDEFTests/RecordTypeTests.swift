import NDEF
import TestSupport
import Testing

@Suite struct TextRecordTests {
    @Test func utf8() throws {
        let text = try TextRecord(payload: hex("02656e") + Array("Hello, 世界".utf8))
        #expect(text == TextRecord(text: "Hello, 世界", language: "en", encoding: .utf8))
        #expect(try text.payload() == hex("02656e") + Array("Hello, 世界".utf8))
    }

    @Test(arguments: [
        ("87 7a682d48616e73 feff 4f60 597d", true, true),   // BOM big-endian
        ("87 7a682d48616e73 fffe 604f 7d59", false, true),  // BOM little-endian (what Python's utf-16 writes)
        ("87 7a682d48616e73 4f60 597d", true, false),       // no BOM: big-endian by specification
    ])
    func utf16ByteOrders(payload: String, bigEndian: Bool, bom: Bool) throws {
        let text = try TextRecord(payload: hex(payload))
        #expect(text.text == "你好")
        #expect(text.language == "zh-Hans")
        #expect(text.encoding == .utf16(bigEndian: bigEndian, byteOrderMark: bom))
        #expect(try text.payload() == hex(payload))
    }

    @Test func utf16SurrogatePairs() throws {
        let record = TextRecord(text: "🙂 ok", language: "en", encoding: .utf16)
        #expect(try TextRecord(payload: try record.payload()) == record)
    }

    @Test(arguments: [
        ("", "status byte needs 1 byte"),
        ("05656e", "language code needs 5 bytes, 2 left"),
        ("42656e", "reserved status bit 6 has invalid value 1"),
        ("02656eff", "text is not valid UTF-8"),
        ("82656e00", "text is not valid UTF-16"),
        ("82656ed800", "text is not valid UTF-16"),
        ("02e9e9", "language code is not valid US-ASCII"),
    ])
    func malformed(payload: String, problem: String) {
        let e = error { _ = try TextRecord(payload: hex(payload)) }
        #expect(e?.description.contains(problem) == true, "\(String(describing: e))")
    }

    @Test func languageCodeLimits() {
        #expect(error { _ = try TextRecord(text: "x", language: String(repeating: "a", count: 64)).payload() } != nil)
        #expect(error { _ = try TextRecord(text: "x", language: "é").payload() } != nil)
    }
}

@Suite struct URIRecordTests {
    @Test func allThirtySixPrefixCodesExpand() throws {
        #expect(URIRecord.prefixes.count == 36)
        for code in 0..<36 {
            let record = try URIRecord(payload: [UInt8(code)] + Array("rest".utf8))
            #expect(record.uri == URIRecord.prefixes[code] + "rest")
            #expect(record.payload == [UInt8(code)] + Array("rest".utf8))
        }
        #expect(URIRecord.prefixes[4] == "https://")
        #expect(URIRecord.prefixes[35] == "urn:nfc:")
    }

    @Test func writerPicksTheLongestPrefix() {
        #expect(URIRecord(uri: "https://www.example.com").prefixCode == 2)
        #expect(URIRecord(uri: "urn:epc:id:sgtin:1").prefixCode == 30)
        #expect(URIRecord(uri: "urn:epc:x").prefixCode == 34)
        #expect(URIRecord(uri: "geo:1,2").prefixCode == 0)
        #expect(URIRecord(uri: "https://www.example.com").uri == "https://www.example.com")
    }

    @Test func reservedCodeAndBadUTF8AreErrors() {
        #expect(error { _ = try URIRecord(payload: [36, 0x61]) } == .invalidPayload(type: "U", problem: .invalidValue(field: "identifier code", value: 36), offset: 0))
        #expect(error { _ = try URIRecord(payload: [1, 0x61, 0xC3]) } == .invalidPayload(type: "U", problem: .invalidText(field: "URI field", encoding: "UTF-8"), offset: 1))
        #expect(error { _ = try URIRecord(payload: []) } != nil)
        #expect(URIRecord(prefixCode: 36, remainder: "x") == nil)
    }
}

@Suite struct SmartPosterTests {
    @Test func fullPoster() throws {
        let poster = try SmartPoster(uri: URIRecord(uri: "https://example.com/p"),
                                     titles: [TextRecord(text: "Poster"), TextRecord(text: "Plakat", language: "de")],
                                     action: .save, size: 4096, resourceType: "text/html",
                                     icons: [.init(mimeType: "image/png", data: [0x89, 0x50])])
        let decoded = try SmartPoster(payload: poster.payload)
        #expect(decoded == poster)
        #expect(decoded.uri.uri == "https://example.com/p")
        #expect(decoded.titles.map(\.language) == ["en", "de"])
        #expect(decoded.action == .save)
        #expect(decoded.size == 4096)
        #expect(decoded.resourceType == "text/html")
        #expect(decoded.icons == [.init(mimeType: "image/png", data: [0x89, 0x50])])
    }

    @Test func unknownActionValueIsKeptButNotNamed() throws {
        let message = NDEFMessage(URIRecord(uri: "http://a").record(), NDEFRecord(tnf: .wellKnown, type: "act", payload: [9]))
        let poster = try SmartPoster(message: message)
        #expect(poster.action == nil)
        #expect(poster.actionCode == 9)
    }

    @Test func rulesOfTheRTD() throws {
        let uri = URIRecord(uri: "http://a").record()
        let title = try TextRecord(text: "x").record()
        #expect(error { _ = try SmartPoster(message: NDEFMessage(title)) }?.description.contains("no URI record") == true)
        #expect(error { _ = try SmartPoster(message: NDEFMessage(uri, uri)) }?.description.contains("more than one URI record") == true)
        #expect(error { _ = try SmartPoster(message: NDEFMessage(uri, title, title)) }?.description.contains("title for language 'en'") == true)
        let badSize = NDEFRecord(tnf: .wellKnown, type: "s", payload: [0, 1])
        #expect(error { _ = try SmartPoster(message: NDEFMessage(uri, badSize)) }?.description.contains("size needs 4 bytes") == true)
    }

    @Test func nestedErrorOffsetPointsIntoThePayload() throws {
        // Sp payload: a good URI record (5 bytes) then a Text record with bad UTF-8 at payload byte 3.
        let inner = try NDEFEncoder().encode(NDEFMessage(URIRecord(uri: "http://a").record(),
                                                         NDEFRecord(tnf: .wellKnown, type: "T", payload: hex("02656eff"))))
        let e = error { _ = try SmartPoster(payload: inner) }
        // Second record starts at 6 (header 4 + payload 2); its payload at 6 + 4 = 10; bad byte at 10 + 3.
        #expect(e == .invalidPayload(type: "T", problem: .invalidText(field: "text", encoding: "UTF-8"), offset: 13))
    }

    @Test func nestingIsBounded() throws {
        var record = URIRecord(uri: "http://a").record()
        for _ in 0..<10 {
            record = NDEFRecord(tnf: .wellKnown, type: "Sp", payload: NDEFMessage(URIRecord(uri: "http://a").record(), record).encoded())
        }
        // Decode depth by depth, as the report does, until the limit stops it.
        var current: NDEFRecord? = record
        var depth = 0
        var failure: NDEFError?
        while let r = current {
            do {
                guard case .smartPoster(let poster)? = try r.content(depth: depth) else { break }
                current = poster.message.records.last
                depth += 1
            } catch { failure = error; break }
        }
        #expect(depth == NestedMessage.depthLimit)
        #expect(failure?.description.contains("nested messages deeper than 4 levels") == true)
    }
}

@Suite struct HandoverTests {
    @Test func selectWithCarriersAndError() throws {
        let ac = AlternativeCarrier(powerState: .active, carrierDataReference: Array("0".utf8), auxiliaryDataReferences: [Array("aux".utf8)])
        let err = NDEFRecord(tnf: .wellKnown, type: "err", payload: [2, 0, 0, 1, 0])
        let handover = try Handover(kind: .select, minorVersion: 3, message: NDEFMessage(ac.record, err))
        let decoded = try Handover(kind: .select, payload: handover.payload)
        #expect(decoded == handover)
        #expect(decoded.versionString == "1.3")
        #expect(decoded.alternativeCarriers == [ac])
        #expect(decoded.error == HandoverError(reason: 2, data: [0, 0, 1, 0]))
        #expect(decoded.payload.first == 0x13)
    }

    @Test func versionOnlySelectHasNoCarriers() throws {
        let h = try Handover(kind: .select, payload: [0x12])
        #expect(h.message == nil)
        #expect(h.alternativeCarriers.isEmpty)
        #expect(h.payload == [0x12])
    }

    @Test func requestNeedsCollisionResolutionFromVersion12() throws {
        #expect(error { _ = try Handover(kind: .request, payload: [0x12]) }?.description.contains("collision resolution") == true)
        _ = try Handover(kind: .request, payload: [0x11])
        let cr = NDEFRecord(tnf: .wellKnown, type: "cr", payload: [0x12, 0x34])
        let request = try Handover(kind: .request, payload: [0x12] + NDEFMessage(cr).encoded())
        #expect(request.collisionResolution == 0x1234)
    }

    @Test func malformedLocalRecords() {
        #expect(error { _ = try AlternativeCarrier(payload: [0x04, 0, 0]) } != nil)       // reserved bits
        #expect(error { _ = try AlternativeCarrier(payload: [0x01, 5, 0x61]) } != nil)    // reference past end
        #expect(error { _ = try HandoverError(payload: [0]) } != nil)                      // reason 0
        #expect(error { _ = try HandoverError(payload: [1]) } != nil)                      // data missing
        #expect(error { _ = try Handover(kind: .select, payload: [0x23]) }?.description.contains("major version") == true)
    }

    @Test func carrierRecord() throws {
        let hc = HandoverCarrier(carrierTypeFormat: .media, carrierType: Array("application/vnd.wfa.wsc".utf8), carrierData: [1, 2])
        #expect(try HandoverCarrier(payload: hc.payload) == hc)
        #expect(error { _ = try HandoverCarrier(payload: [0x08, 0]) } != nil)
    }
}

@Suite struct SignatureTests {
    @Test func embeddedSignatureAndCertificates() throws {
        let sig = SignatureRecord(signatureType: 0x0B, signature: .bytes([1, 2, 3]), certificateFormat: 0,
                                  certificates: [[0x30, 0x82], [0x30]], certificateURI: "https://ca.example/chain")
        let decoded = try SignatureRecord(payload: try sig.payload())
        #expect(decoded == sig)
        #expect(decoded.signatureTypeName == "ECDSA-P256")
        #expect(decoded.hashTypeName == "SHA-256")
        #expect(decoded.certificateFormatName == "X.509")
    }

    @Test func signatureByURIAndUnassignedCodes() throws {
        let sig = SignatureRecord(signatureType: 0x0C, hashType: 9, signature: .uri("https://s.example/sig"), certificateFormat: 1)
        let decoded = try SignatureRecord(payload: try sig.payload())
        #expect(decoded.signature == .uri("https://s.example/sig"))
        #expect(decoded.signatureTypeName == "0x0c")
        #expect(decoded.hashTypeName == "0x09")
        #expect(decoded.certificateFormatName == "M2M")
        #expect(SignatureRecord(signatureType: 0, signature: .bytes([])).signatureTypeName == nil)
    }

    @Test func malformed() {
        #expect(error { _ = try SignatureRecord(payload: [0x10, 0, 2, 0, 0, 0]) }?.description.contains("version") == true)
        #expect(error { _ = try SignatureRecord(payload: [0x20, 0x0B, 2, 0, 9, 1]) }?.description.contains("signature needs 9 bytes") == true)
        #expect(error { _ = try SignatureRecord(payload: [0x20, 0x0B, 2, 0, 0, 0x01]) }?.description.contains("certificate length") == true)
        #expect(error { _ = try SignatureRecord(payload: [0x20, 0x0B, 2, 0, 0, 0x00, 0xFF]) }?.description.contains("trailing") == true)
    }
}

@Suite struct DeviceInformationTests {
    @Test func allElements() throws {
        let uuid = hex("123e4567e89b12d3a456426614174000")
        let payload = [0, 4] + Array("ACME".utf8) + [1, 2] + Array("X1".utf8) + [2, 3] + Array("Bob".utf8)
            + [3, 16] + uuid + [4, 3] + Array("1.0".utf8) + [9, 2, 0xAB, 0xCD]
        let info = try DeviceInformation(payload: payload)
        #expect(info.vendorName == "ACME")
        #expect(info.modelName == "X1")
        #expect(info.uniqueName == "Bob")
        #expect(info.uuidString == "123e4567-e89b-12d3-a456-426614174000")
        #expect(info.versionString == "1.0")
        #expect(info.otherElements == [.init(type: 9, value: [0xAB, 0xCD])])
        #expect(info.payload == payload)
    }

    @Test func requiredAndMalformed() {
        #expect(error { _ = try DeviceInformation(payload: [1, 1, 0x61]) }?.description.contains("no vendor name") == true)
        #expect(error { _ = try DeviceInformation(payload: [0, 1, 0x61]) }?.description.contains("no model name") == true)
        #expect(error { _ = try DeviceInformation(payload: [0, 1, 0x61, 1, 1, 0x62, 3, 2, 0, 0]) }?.description.contains("UUID length") == true)
        #expect(error { _ = try DeviceInformation(payload: [0, 1, 0x61, 0, 1, 0x62]) }?.description.contains("more than one") == true)
        #expect(error { _ = try DeviceInformation(payload: [0, 5, 0x61]) }?.description.contains("needs 5 bytes") == true)
    }
}

@Suite struct MediaAndExternalTests {
    @Test func wifiCredential() throws {
        let credential: [WiFiSimpleConfig.Attribute] = [
            .init(type: 0x1026, value: [1]), .init(type: 0x1045, value: Array("HomeNet".utf8)),
            .init(type: 0x1003, value: [0x00, 0x20]), .init(type: 0x100F, value: [0x00, 0x08]),
            .init(type: 0x1027, value: Array("secret123".utf8)), .init(type: 0x1020, value: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        ]
        let credentialBytes = credential.flatMap { [UInt8($0.type >> 8), UInt8($0.type & 0xFF), 0, UInt8($0.value.count)] + $0.value }
        let wsc = try WiFiSimpleConfig(attributes: [.init(type: 0x104A, value: [0x10]), .init(type: 0x100E, value: credentialBytes)])
        let record = NDEFRecord(tnf: .media, type: "application/vnd.wfa.wsc", payload: wsc.payload)
        guard case .wifi(let decoded)? = try record.content() else { Issue.record("not wifi"); return }
        let c = try #require(decoded.credentials.first)
        #expect(c.ssid == Array("HomeNet".utf8))
        #expect(c.networkKey == Array("secret123".utf8))
        #expect(c.authenticationType == 0x20)
        #expect(c.encryptionType == 0x08)
        #expect(c.networkIndex == 1)
        #expect(WiFiSimpleConfig.names(of: 0x0022, in: WiFiSimpleConfig.authenticationNames) == ["WPA-Personal", "WPA2-Personal"])
        #expect(WiFiSimpleConfig.names(of: 0x0040, in: WiFiSimpleConfig.authenticationNames) == ["0x0040"])
        #expect(error { _ = try WiFiSimpleConfig(payload: [0x10, 0x45, 0x00, 0x05, 0x61]) } != nil)
        #expect(error { _ = try WiFiSimpleConfig(payload: [0x10, 0x0E, 0x00, 0x02, 0x10, 0x45]) } != nil)
    }

    @Test func bluetoothClassic() throws {
        // Length 0x0016, address 06:05:04:03:02:01 (stored reversed), name "Spk", class of device 0x200404.
        let body = hex("010203040506 04 09 53706b 04 0d 040420")
        let full = [UInt8(body.count + 2), 0] + body
        let oob = try BluetoothOOB(transport: .classic, payload: full)
        #expect(oob.addressString == "06:05:04:03:02:01")
        #expect(oob.localName == "Spk")
        #expect(oob.classOfDevice == 0x200404)
        #expect(error { _ = try BluetoothOOB(transport: .classic, payload: [0x20, 0] + body) } != nil)
    }

    @Test func bluetoothLowEnergy() throws {
        let payload = hex("08 1b 0605040302 01 01  02 1c 02  03 19 c1 03  05 09 4b657973")
        let oob = try BluetoothOOB(transport: .lowEnergy, payload: payload)
        #expect(oob.addressString == "01:02:03:04:05:06")
        #expect(oob.addressType == "random")
        #expect(oob.role == "peripheral-preferred")
        #expect(oob.appearance == 0x03C1)
        #expect(oob.localName == "Keys")
        #expect(error { _ = try BluetoothOOB(transport: .lowEnergy, payload: hex("03 1b 0102")) } != nil)
        #expect(error { _ = try BluetoothOOB(transport: .lowEnergy, payload: hex("09 09 41")) } != nil)
    }

    @Test func dispatchByTypeNameFormat() throws {
        #expect(try NDEFRecord(tnf: .media, type: "Text/VCard; charset=utf-8", payload: Array("BEGIN:VCARD".utf8)).content() == .vcard("BEGIN:VCARD"))
        #expect(try NDEFRecord(tnf: .media, type: "Image/PNG", payload: [1]).content() == .media(mimeType: "image/png"))
        #expect(try NDEFRecord(tnf: .absoluteURI, type: "https://x.example/t", payload: []).content() == .absoluteURI("https://x.example/t"))
        #expect(try NDEFRecord(tnf: .external, type: "android.com:pkg", payload: Array("com.example".utf8)).content() == .androidApplication(package: "com.example"))
        #expect(try NDEFRecord(tnf: .external, type: "Example.com:T", payload: []).content() == .external(domainType: "example.com:t"))
        #expect(try NDEFRecord(tnf: .wellKnown, type: "ac", payload: [1, 0, 0]).content() == nil)
        #expect(try NDEFRecord(tnf: .wellKnown, type: "ac", payload: [1, 0, 0]).content(in: .handover) != nil)
        #expect(try NDEFRecord.empty.content() == nil)
        #expect(try NDEFRecord(tnf: .unknown, payload: [1]).content() == nil)
        #expect(error { _ = try NDEFRecord(tnf: .external, type: "android.com:pkg", payload: [0xFF]).content() } != nil)
    }
}

/// Inputs the fuzzers found, kept as regression tests.
@Suite struct FuzzerFindingsTests {
    @Test func wellKnownTypesWithLeadingZeroBytesAreNotOtherTypes() throws {
        // Type 00 54 is not "T", 00 55 not "U", 00 48 6d not "Hm".
        for type in [[0x00, 0x54], [0x00, 0x00, 0x54], [0x00, 0x55], [0x00, 0x48, 0x6D]] as [[UInt8]] {
            #expect(try NDEFRecord(tnf: .wellKnown, type: type, payload: hex("02656e")).content() == nil)
        }
        let message = try NDEFMessage(decoding: hex("d10203005402656e"))
        #expect(try message.records[0].content() == nil)
    }

    @Test func lenientResultsReEncodeAsRead() throws {
        let result = try parse("d0010041", mode: .lenient)
        #expect(result.issues == [.nonEmptyEmptyRecord(offset: 0)])
        #expect(result.message.encoded() == hex("d0010041"))
        #expect(encodingError { _ = try NDEFEncoder().encode(result.message) } == .invalidRecord(index: 0, .nonEmptyEmptyRecord(offset: 0)))
    }

    @Test func androidApplicationRecordTypeMatchesWhole() throws {
        #expect(try NDEFRecord(tnf: .external, type: "Android.COM:pkg", payload: Array("a.b".utf8)).content() == .androidApplication(package: "a.b"))
        #expect(try NDEFRecord(tnf: .external, type: "android.com:pkg; x", payload: []).content() == .external(domainType: "android.com:pkg; x"))
        #expect(try NDEFRecord(tnf: .external, type: " android.com:pkg", payload: []).content() == .external(domainType: " android.com:pkg"))
    }

    @Test func extendedFileControlNeedsMapping3() {
        #expect(ccError { _ = try Type4CapabilityContainer(hex("0011 20 00ff 00ff 06 08 e104 00010000 00 ff")) }
            == .invalidField("extended NDEF file control TLV before mapping 3.0, tag", value: 6, offset: 7))
    }
}
