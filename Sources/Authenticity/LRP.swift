/// NXP's Leakage Resilient Primitive (AN12304), as NTAG 424 DNA's LRP mode uses it for secure
/// dynamic messages: built from AES-128 block encryption (the ``AES128`` seam, OpenSSL's in the
/// product) with m = 4 (sixteen plaintexts, one per nibble). Only what a reader needs: the
/// plaintexts and updated keys of a key, the evaluation, LRICB (counter mode over the
/// evaluation) and CMAC_LRP. Every function is nil when the seam answers nil.
struct LRP {
    let aes: any AES128
    /// P_0 … P_15 (AN12304 Algorithm 1).
    private let plaintexts: [[UInt8]]
    /// The updated key this instance evaluates with (AN12304 Algorithm 2: K'_u).
    private let updatedKey: [UInt8]

    private static let fiftyFive = [UInt8](repeating: 0x55, count: 16)
    private static let aa = [UInt8](repeating: 0xAA, count: 16)
    private static let zero = [UInt8](repeating: 0, count: 16)

    /// The primitive keyed with `key`, evaluating with its updated key number `u` (0 or 1 here).
    init?(aes: any AES128, key: [UInt8], u: Int) {
        guard key.count == 16, (0..<4).contains(u) else { return nil }
        self.aes = aes
        // Algorithm 1: h ← E(k, 55…); P_i ← E(h, AA…); h ← E(h, 55…).
        guard var h = aes.encryptBlock(key: key, Self.fiftyFive) else { return nil }
        var plaintexts: [[UInt8]] = []
        for _ in 0..<16 {
            guard let p = aes.encryptBlock(key: h, Self.aa), let next = aes.encryptBlock(key: h, Self.fiftyFive) else { return nil }
            plaintexts.append(p)
            h = next
        }
        // Algorithm 2: h ← E(k, AA…); K'_i ← E(h, AA…); h ← E(h, 55…).
        guard var g = aes.encryptBlock(key: key, Self.aa) else { return nil }
        var updated: [UInt8] = []
        for _ in 0...u {
            guard let k = aes.encryptBlock(key: g, Self.aa), let next = aes.encryptBlock(key: g, Self.fiftyFive) else { return nil }
            updated = k
            g = next
        }
        self.plaintexts = plaintexts
        self.updatedKey = updated
    }

    /// Algorithm 3: one AES step per nibble of `input` (high nibble first), with a final
    /// encryption of zeros when `finalize`.
    func evaluate(_ input: [UInt8], finalize: Bool = true) -> [UInt8]? {
        var y = updatedKey
        for byte in input {
            for nibble in [byte >> 4, byte & 0x0F] {
                guard let next = aes.encryptBlock(key: y, plaintexts[Int(nibble)]) else { return nil }
                y = next
            }
        }
        return finalize ? aes.encryptBlock(key: y, Self.zero) : y
    }

    /// LRICB without padding: block i is deciphered under the evaluation of the counter
    /// `counter` + i (big-endian, its own width, wrapping). Nil unless whole blocks.
    func decrypt(counter: [UInt8], _ data: [UInt8]) -> [UInt8]? {
        guard data.count % 16 == 0 else { return nil }
        var counter = counter, out: [UInt8] = []
        for start in stride(from: 0, to: data.count, by: 16) {
            // One block of CBC with a zero IV is the block cipher's inverse alone.
            guard let key = evaluate(counter), let block = aes.decryptCBC(key: key, iv: Self.zero, Array(data[start..<(start + 16)])) else { return nil }
            out += block
            Self.increment(&counter)
        }
        return out
    }

    /// LRICB encryption without padding (what a chip does; the simulator's object).
    func encrypt(counter: [UInt8], _ data: [UInt8]) -> [UInt8]? {
        guard data.count % 16 == 0 else { return nil }
        var counter = counter, out: [UInt8] = []
        for start in stride(from: 0, to: data.count, by: 16) {
            guard let key = evaluate(counter), let block = aes.encryptBlock(key: key, Array(data[start..<(start + 16)])) else { return nil }
            out += block
            Self.increment(&counter)
        }
        return out
    }

    /// CMAC_LRP (AN12304 §3): CMAC (NIST SP 800-38B) with the evaluation as its block function
    /// and its subkeys derived from the evaluation of zeros.
    func cmac(_ message: [UInt8]) -> [UInt8]? {
        guard let k0 = evaluate(Self.zero) else { return nil }
        let k1 = Self.double(k0), k2 = Self.double(k1)
        var y = Self.zero
        var rest = message[...]
        while rest.count > 16 {
            guard let next = evaluate(Self.xor(y, Array(rest.prefix(16)))) else { return nil }
            y = next
            rest = rest.dropFirst(16)
        }
        var last = Array(rest)
        if last.count == 16 {
            last = Self.xor(last, k1)
        } else {
            last += [0x80] + [UInt8](repeating: 0, count: 15 - last.count)
            last = Self.xor(last, k2)
        }
        return evaluate(Self.xor(y, last))
    }

    /// Multiplication by x in GF(2^128) with x^128 + x^7 + x^2 + x + 1, as CMAC's subkeys.
    static func double(_ block: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 16)
        for i in 0..<16 {
            out[i] = block[i] << 1 | (i < 15 ? block[i + 1] >> 7 : 0)
        }
        if block[0] & 0x80 != 0 { out[15] ^= 0x87 }
        return out
    }

    static func xor(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        zip(a, b).map { $0 ^ $1 }
    }

    static func increment(_ counter: inout [UInt8]) {
        for i in counter.indices.reversed() {
            counter[i] &+= 1
            if counter[i] != 0 { return }
        }
    }
}
