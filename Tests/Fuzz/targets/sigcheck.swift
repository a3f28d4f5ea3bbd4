// Fuzz target `sigcheck`: NDEF message bytes (leniently decoded) through the Signature RTD check,
// with a certificate seam that answers from the bytes it is given (the cryptography is OpenSSL's
// and not fuzzed here): what each Signature record covers, the signed bytes, the r ‖ s to DER
// conversion, the bounds and the verdicts never trap, and the verdicts keep their promises.
import Authenticity
import NDEF

/// Verifies when the signature's last byte is even; trusts a chain with an even number of
/// intermediates, naming the leaf's first bytes as its organization.
struct ByteCertificates: CertificateVerifying {
    func verifies(certificate: [UInt8], scheme: SignedDataScheme, data: [UInt8], signature: [UInt8]) -> Bool {
        (signature.last ?? 1) % 2 == 0
    }

    func chain(certificate: [UInt8], intermediates: [[UInt8]], extraAnchors: [String]) -> ChainVerdict {
        intermediates.count % 2 == 0
            ? .trusted(organization: String(decoding: certificate.prefix(300), as: UTF8.self), commonName: nil)
            : .untrusted("odd")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    guard let message = try? NDEFParser(mode: .lenient).parse(bytes).message else { return 0 }
    let check = SignedMessageCheck(certificates: ByteCertificates(), trustAnchors: [])
    let found = check.signatures(in: message)
    let signatureRecords = message.records.indices.filter { message.records[$0].isWellKnown("Sig") }
    if found.map(\.recordIndex) != signatureRecords { violated("verdicts for \(found.map(\.recordIndex)), Sig records at \(signatureRecords)", bytes) }
    var next = 0
    for signature in found {
        if signature.covered.lowerBound != next || signature.covered.upperBound != signature.recordIndex {
            violated("Sig record \(signature.recordIndex) covers \(signature.covered), from \(next)", bytes)
        }
        next = signature.recordIndex + 1
        if case .verified(let signer?) = signature.verdict, signer.count > 200 { violated("signer unbounded", bytes) }
        if found.status(ofRecord: signature.recordIndex) != nil { violated("a Sig record is covered", bytes) }
    }
    return 0
}
