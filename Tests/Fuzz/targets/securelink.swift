// Fuzz target `securelink`: NTAG 424 DNA secure dynamic links as nfcscan checks them on every read
// (Authenticity's SecureLinkTemplate), the person's keys file (SecureLinkKeysFile) and the counter
// file read back (SecureLinkCounterTable). A link is whatever an object holds; the two files are
// the person's, read as untrusted all the same.
//
// The cipher here is a toy permutation (ToyAES below), not AES: the fuzzer explores the parsing
// and the paths through decryption and MAC, which the real cipher would close at once; the
// product's arithmetic is OpenSSL's, tested with NXP's vectors (SecureLinkTests).
//
// Beyond "no crash": the input as a link against fixed templates (AES, LRP, with {enc}) verifies
// only if remade exactly from what it decrypts to; the input as a template's url, when accepted,
// makes links that verify back to the same UID and counter, in both modes; a keys file's
// templates never describe their keys; a counter file's table written out reads back the same.
@testable import Authenticity

struct ToyAES: AES128 {
    private static func e(_ k: [UInt8], _ b: [UInt8]) -> [UInt8] {
        (0..<16).map { i in (b[(i + 1) % 16] ^ k[i]) &+ UInt8(i) }
    }
    private static func d(_ k: [UInt8], _ c: [UInt8]) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: 16)
        for i in 0..<16 { b[(i + 1) % 16] = (c[i] &- UInt8(i)) ^ k[i] }
        return b
    }
    func encryptBlock(key: [UInt8], _ block: [UInt8]) -> [UInt8]? {
        key.count == 16 && block.count == 16 ? Self.e(key, block) : nil
    }
    func decryptCBC(key: [UInt8], iv: [UInt8], _ data: [UInt8]) -> [UInt8]? {
        guard key.count == 16, iv.count == 16, data.count % 16 == 0 else { return nil }
        var previous = iv, out: [UInt8] = []
        for start in stride(from: 0, to: data.count, by: 16) {
            let block = Array(data[start..<(start + 16)])
            out += zip(Self.d(key, block), previous).map { $0 ^ $1 }
            previous = block
        }
        return out
    }
    func cmac(key: [UInt8], _ message: [UInt8]) -> [UInt8]? {
        guard key.count == 16 else { return nil }
        var y = [UInt8](repeating: UInt8(message.count & 0xFF), count: 16)
        for (i, byte) in message.enumerated() { y[i % 16] ^= byte; if i % 16 == 15 { y = Self.e(key, y) } }
        return Self.e(key, y)
    }
}

private let aes = ToyAES()
private let key = [UInt8](0..<16)
private let templates = [
    try! SecureLinkTemplate(name: "a", url: "https://ntag.nxp.com/424?e={picc_data}&c={cmac}", mode: .aes, metaReadKey: key, fileReadKey: key),
    try! SecureLinkTemplate(name: "l", url: "https://e.com/t", mode: .lrp, metaReadKey: key, fileReadKey: key),
    try! SecureLinkTemplate(name: "e", url: "https://e.com/?picc_data={picc_data}&enc={enc}&cmac={cmac}", mode: .aes, metaReadKey: key, fileReadKey: key),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let text = String(decoding: input, as: UTF8.self)

    for template in templates {
        guard let verdict = template.verify(text, aes: aes) else { continue }
        if verdict.verified != (verdict.picc != nil) { violated("verified \(verdict.verified) with PICCData \(String(describing: verdict.picc))", input) }
        if let picc = verdict.picc, picc.uid.count != 7 || !(0..<(1 << 24)).contains(picc.counter) { violated("PICCData \(picc)", input) }
        guard let parts = template.match(text) else { violated("verified without matching", input) }
        if parts.piccData.count != template.mode.piccDataLength || parts.mac.count != 8 || (parts.enc.map { $0.count % 16 != 0 || $0.isEmpty } ?? false) {
            violated("parts of the wrong lengths", input)
        }
    }

    if let template = try? SecureLinkTemplate(name: "f", url: text, mode: input.first.map { $0 & 1 == 0 ? .aes : .lrp } ?? .aes,
                                              metaReadKey: key, fileReadKey: key) {
        let picc = SecureDynamicMessage.PICCData(uid: [4, 1, 2, 3, 4, 5, 6], counter: input.count)
        if let link = template.link(for: picc, random: [UInt8](repeating: 9, count: template.mode == .aes ? 5 : 13), aes: aes),
           link.utf8.count <= SecureLinkTemplate.maximumLength {
            let verdict = template.verify(link, aes: aes)
            if verdict?.verified != true || verdict?.picc != picc { violated("a link made from the template does not verify: \(link)", input) }
        }
    }

    if let parsed = try? SecureLinkKeysFile.parse(input) {
        for template in parsed where "\(template)".contains("0001020304") { violated("a template describes a key", input) }
    }

    let table = SecureLinkCounterTable(text: input)
    if SecureLinkCounterTable(text: table.text) != table { violated("the counter table does not read back", input) }
    return 0
}
