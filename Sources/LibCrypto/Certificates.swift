import Authenticity
import COpenSSL

extension OpenSSL: CertificateVerifying {
    public func verifies(certificate: [UInt8], scheme: SignedDataScheme, data: [UInt8], signature: [UInt8]) -> Bool { false }
    public func chain(certificate: [UInt8], intermediates: [[UInt8]], extraAnchors: [String]) -> ChainVerdict { .untrusted("not built yet") }
}
