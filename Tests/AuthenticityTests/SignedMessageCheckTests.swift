import Authenticity
import Foundation
import LibCrypto
import NDEF
import Testing
import TestSupport

/// Signature RTD 2.0 records signed with keys and a CA made by `openssl` at test time
/// (``TestCertificates``), checked with the product's OpenSSL.
@Suite struct SignedMessageCheckTests {
    let pki: TestCertificates
    let content = [NDEFRecord(tnf: .wellKnown, type: "T", payload: [0x02] + Array("enExample poster".utf8)),
                   NDEFRecord(tnf: .wellKnown, type: "U", payload: [0x04] + Array("example.com/poster".utf8))]

    init() throws { pki = try TestCertificates.shared() }

    /// The check, with the root as the person's anchor (`anchors`) or none, run over `message`.
    private func signatures(in message: NDEFMessage, anchors: Bool = true,
                            limits: SignedMessageCheck.Limits = .init()) throws -> [MessageSignature] {
        try OpenSSLCommand.inScratchDirectory { directory in
            let check = SignedMessageCheck(certificates: OpenSSL(), trustAnchors: anchors ? [try pki.writeRoot(into: directory)] : [],
                                           limits: limits)
            return check.signatures(in: message)
        }
    }

    /// `records` followed by a Signature record of type `type` signing them with the leaf of
    /// `scheme`, its certificate and the intermediate's embedded; ECDSA and DSA as r ‖ s unless `der`.
    private func signed(_ records: [NDEFRecord], _ scheme: TestCertificates.Scheme = .ecdsa, type: UInt8 = 0x0B,
                        der: Bool = false) throws -> NDEFMessage {
        var signature = try pki.sign(SignedMessageCheck.signedBytes(records), scheme)
        if !der, scheme == .ecdsa || scheme == .dsa { signature = Self.rawSignature(signature, scalarLength: 32) }
        let record = SignatureRecord(signatureType: type, signature: .bytes(signature), certificates: [pki.leaf(scheme), pki.intermediate])
        return NDEFMessage(records: records + [NDEFRecord(tnf: .wellKnown, type: "Sig", payload: try record.payload())])
    }

    @Test func anECDSASignedMessageVerifiesAndNamesItsSigner() throws {
        let found = try signatures(in: try signed(content))
        #expect(found == [MessageSignature(recordIndex: 2, covered: 0..<2, verdict: .verified(signer: "Example Ltd"))])
        #expect(found.status(ofRecord: 0) == .verified && found.status(ofRecord: 1) == .verified)
    }

    @Test func aDERSignatureVerifiesToo() throws {
        #expect(try signatures(in: try signed(content, der: true)).first?.verdict == .verified(signer: "Example Ltd"))
    }

    @Test func withoutTheRootAsAnchorItIsUntrusted() throws {
        let found = try signatures(in: try signed(content), anchors: false)
        guard case .untrusted? = found.first?.verdict else { Issue.record("\(found)"); return }
        #expect(found.status(ofRecord: 0) == .unverified)
    }

    @Test func oneChangedByteFailsAndFlagsTheCoveredRecords() throws {
        var message = try signed(content)
        var payload = message.records[1].payload
        payload[payload.count - 1] ^= 0x01
        message.records[1].payload = payload
        let found = try signatures(in: message)
        #expect(found.first?.verdict == .failed)
        #expect(found.status(ofRecord: 0) == .failed && found.status(ofRecord: 1) == .failed)
    }

    @Test(arguments: [(TestCertificates.Scheme.rsaPKCS1v15, UInt8(0x06)), (.rsaPSS, 0x05), (.dsa, 0x07)])
    func rsaAndDSASignatures(scheme: TestCertificates.Scheme, type: UInt8) throws {
        #expect(try signatures(in: try signed(content, scheme, type: type)).first?.verdict == .verified(signer: "Example Ltd"))
    }

    @Test func aSignatureAtAURIIsNeverFetched() throws {
        let record = SignatureRecord(signatureType: 0x0B, signature: .uri("https://example.com/sig"), certificates: [pki.leaf(.ecdsa)])
        let message = NDEFMessage(records: content + [NDEFRecord(tnf: .wellKnown, type: "Sig", payload: try record.payload())])
        let found = try signatures(in: message)
        #expect(found.first?.verdict == .unverified(.signatureAtURI("https://example.com/sig")))
        #expect(found.status(ofRecord: 0) == .unverified)
    }

    @Test func aMarkerSignsNothingAndTheNextSignatureCoversWhatFollowsIt() throws {
        let marker = NDEFRecord(tnf: .wellKnown, type: "Sig", payload: try SignatureRecord(signatureType: 0, signature: .bytes([])).payload())
        let later = try signed([content[1]])
        let found = try signatures(in: NDEFMessage(records: [content[0], marker] + later.records))
        #expect(found.map(\.verdict) == [.unverified(.marker), .verified(signer: "Example Ltd")])
        #expect(found.map(\.covered) == [0..<1, 2..<3])
        #expect(found.status(ofRecord: 0) == nil && found.status(ofRecord: 2) == .verified)
    }

    @Test func whatIsCheckedIsBounded() throws {
        let marker = NDEFRecord(tnf: .wellKnown, type: "Sig", payload: try SignatureRecord(signatureType: 0, signature: .bytes([])).payload())
        let many = try signatures(in: NDEFMessage(records: Array(repeating: marker, count: 5)))
        #expect(many.map(\.verdict) == Array(repeating: .unverified(.marker), count: 4) + [.unverified(.tooManySignatures)])
        var limits = SignedMessageCheck.Limits()
        limits.certificateBytes = 100
        #expect(try signatures(in: try signed(content), limits: limits).first?.verdict == .unverified(.tooLarge))
        limits = SignedMessageCheck.Limits()
        limits.signedBytes = 10
        #expect(try signatures(in: try signed(content), limits: limits).first?.verdict == .unverified(.tooLarge))
    }

    @Test func m2mCertificatesUnknownTypesAndNonCertificatesAreNotChecked() throws {
        var record = SignatureRecord(signatureType: 0x0B, signature: .bytes([1, 2]), certificateFormat: 1, certificates: [[0x30, 0]])
        let verdict = { (r: SignatureRecord) in
            try signatures(in: NDEFMessage(records: content + [NDEFRecord(tnf: .wellKnown, type: "Sig", payload: try r.payload())])).first?.verdict
        }
        #expect(try verdict(record) == .unverified(.certificateFormat(1)))
        record.certificateFormat = 0
        record.signatureType = 0x0C
        #expect(try verdict(record) == .unverified(.unsupportedSignatureType(0x0C)))
        record.signatureType = 0x0B
        record.certificates = [[0x30, 0x05, 1, 2]]
        #expect(try verdict(record) == .unverified(.unreadableCertificate))
    }

    /// A DER signature value (two INTEGERs in a SEQUENCE, short lengths) as r ‖ s, each
    /// `scalarLength` bytes: how a Signature record carries ECDSA and DSA.
    static func rawSignature(_ der: [UInt8], scalarLength: Int) -> [UInt8] {
        var index = 2
        var out: [UInt8] = []
        for _ in 0..<2 {
            let length = Int(der[index + 1])
            let value = der[(index + 2)..<(index + 2 + length)].drop { $0 == 0 }
            out += [UInt8](repeating: 0, count: scalarLength - value.count) + value
            index += 2 + length
        }
        return out
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
