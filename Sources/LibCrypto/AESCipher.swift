import Authenticity
import COpenSSL

extension OpenSSL: AES128 {
    /// The most bytes deciphered or MACed at once: secure dynamic messages carry tens of bytes;
    /// the bound keeps every length within OpenSSL's `int`.
    static let longestAESInput = 1 << 20

    public func encryptBlock(key: [UInt8], _ block: [UInt8]) -> [UInt8]? {
        guard key.count == 16, block.count == 16 else { return nil }
        return Self.answering { Self.cipher(EVP_aes_128_ecb(), encrypt: true, key: key, iv: nil, block) }
    }

    public func decryptCBC(key: [UInt8], iv: [UInt8], _ data: [UInt8]) -> [UInt8]? {
        guard key.count == 16, iv.count == 16, data.count % 16 == 0, data.count <= Self.longestAESInput else { return nil }
        guard !data.isEmpty else { return [] }
        return Self.answering { Self.cipher(EVP_aes_128_cbc(), encrypt: false, key: key, iv: iv, data) }
    }

    public func cmac(key: [UInt8], _ message: [UInt8]) -> [UInt8]? {
        guard key.count == 16, message.count <= Self.longestAESInput else { return nil }
        return Self.answering {
            guard let algorithm = EVP_MAC_fetch(nil, "CMAC", nil) else { return nil }
            defer { EVP_MAC_free(algorithm) }
            guard let context = EVP_MAC_CTX_new(algorithm) else { return nil }
            defer { EVP_MAC_CTX_free(context) }
            var mac = [UInt8](repeating: 0, count: 16)
            var written = 0
            guard nfc_cmac_aes128_init(context, key, key.count) == 1,
                  EVP_MAC_update(context, message, message.count) == 1,
                  EVP_MAC_final(context, &mac, &written, mac.count) == 1, written == mac.count else { return nil }
            return mac
        }
    }

    /// `input` (whole blocks) through `cipher` without padding.
    private static func cipher(_ cipher: OpaquePointer?, encrypt: Bool, key: [UInt8], iv: [UInt8]?, _ input: [UInt8]) -> [UInt8]? {
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        guard EVP_CipherInit_ex2(context, cipher, key, iv, encrypt ? 1 : 0, nil) == 1,
              EVP_CIPHER_CTX_set_padding(context, 0) == 1 else { return nil }
        var output = [UInt8](repeating: 0, count: input.count + 16)
        var written: Int32 = 0
        var finished: Int32 = 0
        let done = output.withUnsafeMutableBufferPointer { out in
            EVP_CipherUpdate(context, out.baseAddress, &written, input, Int32(input.count)) == 1
                && EVP_CipherFinal_ex(context, out.baseAddress! + Int(written), &finished) == 1
        }
        guard done, Int(written + finished) == input.count else { return nil }
        return Array(output.prefix(input.count))
    }
}
