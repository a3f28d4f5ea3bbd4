import Authenticity
import Foundation
import NDEF
import NFCSim
import NFCTags
import Testing
import TestSupport

/// `nfcscan` reading a signed poster from the simulator: the Signature record checked with the
/// product's OpenSSL against the person's trust directory ($XDG_CONFIG_HOME/nfcscan/trust).
@Suite(.serialized) struct SignedMessageScanTests {
    let pki: TestCertificates

    init() throws { pki = try TestCertificates.shared() }

    /// A text and a link signed by Example Ltd (its certificate alone: the rest of the chain is
    /// the person's trust, the record would not fit an NTAG216 with it), on an NTAG216; `tamper`
    /// changes the link after signing.
    private func poster(tamper: Bool) throws -> VirtualType2Tag {
        let text = try TextRecord(text: "Summer concert").record()
        let link = URIRecord(uri: "https://example.com/poster").record()
        let der = try pki.sign(SignedMessageCheck.signedBytes([text, link]), .ecdsa)
        let sig = SignatureRecord(signatureType: 0x0B, signature: .bytes(der), certificates: [pki.leaf(.ecdsa)])
        let shown = tamper ? URIRecord(uri: "https://example.com/postex").record() : link
        return try VirtualType2Tag(product: .ntag216, uid: ScanCommandTests.uid,
                                   message: NDEFMessage(text, shown, NDEFRecord(tnf: .wellKnown, type: "Sig", payload: try sig.payload())))
    }

    /// nfcscan with `arguments`, its XDG_CONFIG_HOME's nfcscan/trust/ holding the root and the intermediate.
    private func scan(_ arguments: [String], tamper: Bool = false) throws -> RunResult {
        try OpenSSLCommand.inScratchDirectory { config in
            let trust = config.appendingPathComponent("nfcscan/trust")
            try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: true)
            try pki.writeRoot(into: trust)
            let intermediate = "-----BEGIN CERTIFICATE-----\n" + Data(pki.intermediate).base64EncodedString(options: .lineLength64Characters)
                + "\n-----END CERTIFICATE-----\n"
            try Data(intermediate.utf8).write(to: trust.appendingPathComponent("intermediate.pem"))
            return try ScanCommandTests.withEmulator(PN532Emulator(target: poster(tamper: tamper).pn532Target)) {
                try ScanCLI.run(arguments + ["--timeout", "10"], connstring: $0, environment: ["XDG_CONFIG_HOME": config.path])
            }
        }
    }

    @Test func jsonSaysVerifiedAndWhoSigned() throws {
        let r = try scan(["--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let document = try ScanCommandTests.json(try #require(r.stdout.split(separator: "\n").first))
        let records = try #require(document["records"] as? [[String: Any]])
        #expect(records.map { $0["signed"] as? String } == ["verified", "verified", "verified"])
        #expect(records[2]["verified"] as? Bool == true)
        #expect(records[2]["signed_by"] as? String == "Example Ltd")
    }

    @Test func aChangedPosterIsWarnedAboutFirst() throws {
        let r = try scan(["--object", "poster", "--verbose"], tamper: true)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("nfcscan: signature record 3 (covering records 1–2): not verified: the signature does not verify"))
        #expect(r.stdout.split(separator: "\n").first == "Careful: this poster was changed after it was signed.")
        #expect(!r.stdout.contains("Signed by"))
    }
}
