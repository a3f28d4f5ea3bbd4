import Authenticity
import NDEF
import Testing
import TestSupport

/// Signature RTD 2.0 records signed with keys and a CA made by `openssl` at test time.
@Suite(.serialized) struct SignedMessageCheckTests {
    let pki: SignedMessagePKI
    let content = [NDEFRecord(tnf: .wellKnown, type: "T", payload: [0x02] + Array("enExample poster".utf8)),
                   NDEFRecord(tnf: .wellKnown, type: "U", payload: [0x04] + Array("example.com/poster".utf8))]

    /// Made once for the suite (RSA key generation is what costs).
    private static let made = Result { try SignedMessagePKI() }

    init() throws { pki = try Self.made.get() }

    private func check(anchors: Bool = true) -> SignedMessageCheck {
        SignedMessageCheck(certificates: CommandLineCertificates(pki: pki), trustAnchors: anchors ? [pki.rootPEM] : [])
    }

    /// `records` followed by a Signature record signing them with `signer` (type `type`), its
    /// certificate and the intermediate's embedded.
    private func signed(_ records: [NDEFRecord], by signer: String = "signer", type: UInt8 = 0x0B,
                        rawECDSA: Bool = true) throws -> NDEFMessage {
        let data = SignedMessageCheck.signedBytes(records)
        let signature = rawECDSA && type == 0x0B ? try pki.signECDSA(data, with: signer) : try pki.sign(data, with: signer)
        let record = SignatureRecord(signatureType: type, signature: .bytes(signature),
                                     certificates: [try pki.der(signer), try pki.der("intermediate")])
        return NDEFMessage(records: records + [NDEFRecord(tnf: .wellKnown, type: "Sig", payload: try record.payload())])
    }

    @Test func anECDSASignedMessageVerifiesAndNamesItsSigner() throws {
        let found = check().signatures(in: try signed(content))
        #expect(found == [MessageSignature(recordIndex: 2, covered: 0..<2, verdict: .verified(signer: "Example Ltd"))])
        #expect(found.status(ofRecord: 0) == .verified && found.status(ofRecord: 1) == .verified)
    }

    @Test func aDERSignatureVerifiesToo() throws {
        let found = check().signatures(in: try signed(content, rawECDSA: false))
        #expect(found.first?.verdict == .verified(signer: "Example Ltd"))
    }

    @Test func withoutTheRootAsAnchorItIsUntrusted() throws {
        let found = check(anchors: false).signatures(in: try signed(content))
        guard case .untrusted? = found.first?.verdict else { Issue.record("\(found)"); return }
        #expect(found.status(ofRecord: 0) == .unverified)
    }

    @Test func oneChangedByteFailsAndFlagsTheCoveredRecords() throws {
        var message = try signed(content)
        var payload = message.records[1].payload
        payload[payload.count - 1] ^= 0x01
        message.records[1].payload = payload
        let found = check().signatures(in: message)
        #expect(found.first?.verdict == .failed)
        #expect(found.status(ofRecord: 0) == .failed && found.status(ofRecord: 1) == .failed)
    }

    @Test func anRSAPKCS1Signature() throws {
        let found = check().signatures(in: try signed(content, by: "rsa", type: 0x06))
        #expect(found.first?.verdict == .verified(signer: "Example RSA Signer"))
    }

    @Test func aSignatureAtAURIIsNeverFetched() throws {
        let record = SignatureRecord(signatureType: 0x0B, signature: .uri("https://example.com/sig"),
                                     certificates: [try pki.der("signer")])
        let message = NDEFMessage(records: content + [NDEFRecord(tnf: .wellKnown, type: "Sig", payload: try record.payload())])
        let found = check().signatures(in: message)
        #expect(found.first?.verdict == .unverified(.signatureAtURI("https://example.com/sig")))
        #expect(found.status(ofRecord: 0) == .unverified)
    }

    @Test func aMarkerSignsNothingAndTheNextSignatureCoversWhatFollowsIt() throws {
        let marker = NDEFRecord(tnf: .wellKnown, type: "Sig", payload: try SignatureRecord(signatureType: 0, signature: .bytes([])).payload())
        let later = try signed([content[1]])
        let message = NDEFMessage(records: [content[0], marker] + later.records)
        let found = check().signatures(in: message)
        #expect(found.map(\.verdict) == [.unverified(.marker), .verified(signer: "Example Ltd")])
        #expect(found.map(\.covered) == [0..<1, 2..<3])
        #expect(found.status(ofRecord: 0) == nil && found.status(ofRecord: 2) == .verified)
    }

    @Test func whatIsCheckedIsBounded() throws {
        let marker = NDEFRecord(tnf: .wellKnown, type: "Sig", payload: try SignatureRecord(signatureType: 0, signature: .bytes([])).payload())
        let many = check().signatures(in: NDEFMessage(records: Array(repeating: marker, count: 5)))
        #expect(many.map(\.verdict) == Array(repeating: .unverified(.marker), count: 4) + [.unverified(.tooManySignatures)])
        var small = check()
        small.limits.certificateBytes = 100
        #expect(small.signatures(in: try signed(content)).first?.verdict == .unverified(.tooLarge))
        small = check()
        small.limits.signedBytes = 10
        #expect(small.signatures(in: try signed(content)).first?.verdict == .unverified(.tooLarge))
    }

    @Test func m2mCertificatesUnknownTypesAndNonCertificatesAreNotChecked() throws {
        var record = SignatureRecord(signatureType: 0x0B, signature: .bytes([1, 2]), certificateFormat: 1, certificates: [[0x30, 0]])
        let sig = { (r: SignatureRecord) in NDEFRecord(tnf: .wellKnown, type: "Sig", payload: try r.payload()) }
        #expect(check().signatures(in: NDEFMessage(records: content + [try sig(record)])).first?.verdict == .unverified(.certificateFormat(1)))
        record.certificateFormat = 0
        record.signatureType = 0x0C
        #expect(check().signatures(in: NDEFMessage(records: content + [try sig(record)])).first?.verdict == .unverified(.unsupportedSignatureType(0x0C)))
        record.signatureType = 0x0B
        record.certificates = [[0x30, 0x05, 1, 2]]
        #expect(check().signatures(in: NDEFMessage(records: content + [try sig(record)])).first?.verdict == .unverified(.unreadableCertificate))
    }
}

@Suite struct SignedBytesTests {
    /// What ndeflib's message encoder writes for a URI and a text record that a Signature record
    /// follows (its signing example): MB on the first, ME on none.
    @Test func areWhatNdeflibSigns() {
        let records = [NDEFRecord(tnf: .wellKnown, type: "U", payload: [0x04] + Array("example.com".utf8)),
                       NDEFRecord(tnf: .wellKnown, type: "T", payload: [0x02] + Array("enTEST".utf8))]
        #expect(Hex.string(SignedMessageCheck.signedBytes(records)) == "91010c55046578616d706c652e636f6d1101075402656e54455354")
    }
}
