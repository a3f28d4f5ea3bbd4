import Authenticity
import NDEF
import NDEFReport
import NFCCopy
import NFCObjects
import NFCTags
import Testing

/// What a Signature record's verdict becomes in a scanned object's report and in the lines a
/// person reads (the verdicts given: SignedMessageCheckTests checks how they are reached).
@Suite struct SignatureReportTests {
    let copy = ScanCopy.catalog(object: "poster")

    private func object(_ verdict: SignatureVerdict) throws -> ScannedObject {
        let sig = SignatureRecord(signatureType: 0x0B, signature: .bytes(Array(repeating: 1, count: 64)), certificates: [[0x30, 0x00]])
        let message = NDEFMessage(try TextRecord(text: "Summer concert").record(), URIRecord(uri: "https://example.com/poster").record(),
                                  NDEFRecord(tnf: .wellKnown, type: "Sig", payload: try sig.payload()))
        let uid: [UInt8] = [0x04, 1, 2, 3, 4, 5, 6]
        return ScannedObject(readerName: "reader", backend: .libnfc, identifier: uid, technology: .iso14443A(atqa: [0, 0x44], sak: 0, ats: []),
                             reading: TagReading(platform: .type2, product: "NTAG216", uid: uid, capacity: 868,
                                                 ndefBytes: message.encoded(), roundTrips: 3),
                             authenticity: AuthenticityFindings(signatures: [MessageSignature(recordIndex: 2, covered: 0..<2, verdict: verdict)]))
    }

    @Test func aVerifiedSignatureNamesItsSignerSafely() throws {
        let report = try object(.verified(signer: "Example\u{202E} Ltd")).report()
        let records = try #require(report["records"]?.arrayValue)
        #expect(records.map { $0["signed"] } == [.string("verified"), .string("verified"), .string("verified")])
        #expect(records[2]["verified"] == .bool(true) && records[2]["signed_by"] == .string("Example\u{202E} Ltd"))
        #expect(records[2]["unverified_reason"] == nil)
        #expect(ContentDescription.lines(for: report, copy: copy) ==
                ["Text: Summer concert", "Link: https://example.com/poster", "Signed by Example\\u{202e} Ltd."])
    }

    @Test func aFailedSignatureIsWarnedAboutFirst() throws {
        let report = try object(.failed).report()
        let records = try #require(report["records"]?.arrayValue)
        #expect(records.map { $0["signed"] } == [.string("failed"), .string("failed"), .string("failed")])
        #expect(records[2]["verified"] == .bool(false) && records[2]["signed_by"] == nil)
        #expect(records[2]["unverified_reason"]?.stringValue?.contains("does not verify") == true)
        #expect(ContentDescription.lines(for: report, copy: copy) ==
                ["Careful: this poster was changed after it was signed.", "Text: Summer concert", "Link: https://example.com/poster"])
        #expect(ContentDescription.lines(for: report, copy: ScanCopy.catalog(for: .simplifiedChinese, object: "poster")).first
                == "注意：此海报在签名后被更改过。")
    }

    @Test func anUntrustedOrUnverifiedSignatureIsNeitherTrustedNorAlarming() throws {
        for verdict: SignatureVerdict in [.untrusted(reason: "unable to get local issuer certificate"), .unverified(.signatureAtURI("https://example.com/s"))] {
            let report = try object(verdict).report()
            let records = try #require(report["records"]?.arrayValue)
            #expect(records.map { $0["signed"] } == [.string("unverified"), .string("unverified"), .string("unverified")])
            #expect(records[2]["verified"] == .bool(false) && records[2]["unverified_reason"] != nil)
            #expect(ContentDescription.lines(for: report, copy: copy).last == "A signature, which wasn't checked.")
        }
    }
}
