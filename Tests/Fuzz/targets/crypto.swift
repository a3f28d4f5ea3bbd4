// Fuzz target `crypto`: what LibCrypto hands OpenSSL from a scanned object — an originality
// signature with the key and UID beside it, AES input from a secure dynamic link, a Signature
// record's certificate, signature and covered bytes, its chain of intermediates.
//
// The first byte picks the seam (and the curve or scheme); the rest is split into fields, each
// but the last led by a two-byte big-endian length (a length past the end takes what is left).
// Beyond "no crash, no leak" (LeakSanitizer sees OpenSSL's allocations too, so an object the
// wrapper forgets to free on an error path is a finding): answers are the same twice; AES
// answers have the promised lengths; nothing malformed is trusted. Chains read the system's
// trust store (milliseconds), so one input in eight reaches `chain`.
import Authenticity
import LibCrypto
import NDEF

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let selector = input.first else { return 0 }
    let openSSL = OpenSSL()
    let rest = input.dropFirst()
    switch selector & 0x07 {
    case 0, 1:
        let curve: OriginalityCurve = selector & 0x08 == 0 ? .secp128r1 : .secp224r1
        let f = fields(rest, 3)
        let answer = openSSL.verifies(curve: curve, publicKey: f[0], digest: f[1], signature: f[2])
        if answer != openSSL.verifies(curve: curve, publicKey: f[0], digest: f[1], signature: f[2]) {
            violated("an originality answer changed", input)
        }
        if answer, f[2].count != 2 * curve.scalarLength || f[0].first != 0x04 {
            violated("a malformed originality signature verifies", input)
        }
    case 2, 3:
        let f = fields(rest, 3)
        let (key, iv, message) = (f[0], f[1], f[2])
        let block = openSSL.encryptBlock(key: key, message)
        if (block == nil) != (key.count != 16 || message.count != 16) || (block.map { $0.count != 16 } ?? false) {
            violated("encryptBlock answered \(block.map(Hex.string) ?? "nil")", input)
        }
        let plain = openSSL.decryptCBC(key: key, iv: iv, message)
        if (plain == nil) != (key.count != 16 || iv.count != 16 || message.count % 16 != 0) || (plain.map { $0.count != message.count } ?? false) {
            violated("decryptCBC answered \(plain.map(Hex.string) ?? "nil")", input)
        }
        let mac = openSSL.cmac(key: key, message)
        if (mac == nil) != (key.count != 16) || (mac.map { $0.count != 16 } ?? false) || mac != openSSL.cmac(key: key, message) {
            violated("cmac answered \(mac.map(Hex.string) ?? "nil")", input)
        }
    case 4, 5, 6:
        let schemes: [SignedDataScheme] = [.ecdsa, .rsaPSS, .rsaPKCS1v15, .dsa]
        let scheme = schemes[Int(selector >> 3) % schemes.count]
        let f = fields(rest, 3)
        let answer = openSSL.verifies(certificate: f[0], scheme: scheme, data: f[1], signature: f[2])
        if answer != openSSL.verifies(certificate: f[0], scheme: scheme, data: f[1], signature: f[2]) {
            violated("a certificate's answer changed", input)
        }
    default:
        let f = fields(rest, 1 + Int(selector >> 3) % 10)
        if case .trusted = openSSL.chain(certificate: f[0], intermediates: Array(f.dropFirst()), extraAnchors: []) {
            // Nothing a fuzzer makes chains to a real certificate authority's key.
            violated("a chain the fuzzer made is trusted", input)
        }
    }
    return 0
}

/// `bytes` as `count` fields: each but the last led by a two-byte big-endian length.
func fields(_ bytes: ArraySlice<UInt8>, _ count: Int) -> [[UInt8]] {
    var rest = bytes
    var result: [[UInt8]] = []
    for _ in 0..<(count - 1) {
        guard rest.count >= 2 else {
            result.append([])
            rest = []
            continue
        }
        let length = Int(rest[rest.startIndex]) << 8 | Int(rest[rest.startIndex + 1])
        rest = rest.dropFirst(2)
        result.append(Array(rest.prefix(length)))
        rest = rest.dropFirst(length)
    }
    return result + [Array(rest)]
}
