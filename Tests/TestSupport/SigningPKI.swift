import Foundation

/// A root CA, an intermediate and two signers (EC P-256 "Example Ltd", RSA 2048 "Example RSA
/// Signer") made by the `openssl` command at test time, and signing with them: signed messages
/// (NFC Forum Signature records) for the Authenticity and CLI tests.
public final class SignedMessagePKI: Sendable {
    public let directory: String
    /// The root's certificate (PEM): a trust anchor.
    public var rootPEM: String { directory + "/root.pem" }
    /// The intermediate's certificate (PEM).
    public var intermediatePEM: String { directory + "/intermediate.pem" }

    public init() throws {
        directory = NSTemporaryDirectory() + "nfcscan-sigrtd-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let ca = "basicConstraints=critical,CA:true\nkeyUsage=critical,keyCertSign,cRLSign\n"
        try ca.write(toFile: directory + "/ca.ext", atomically: true, encoding: .utf8)
        try "basicConstraints=CA:false\nkeyUsage=critical,digitalSignature\n".write(toFile: directory + "/leaf.ext", atomically: true, encoding: .utf8)
        try run(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "root.key"])
        try run(["req", "-new", "-x509", "-key", "root.key", "-subj", "/O=Example Root/CN=Example Root CA", "-days", "2",
                 "-addext", "basicConstraints=critical,CA:true", "-addext", "keyUsage=critical,keyCertSign,cRLSign", "-out", "root.pem"])
        try issue("intermediate", subject: "/O=Example CA/CN=Example Intermediate", keyArguments: ["ecparam", "-name", "prime256v1", "-genkey", "-noout"],
                  by: "root", extensions: "ca.ext")
        try issue("signer", subject: "/O=Example Ltd/CN=Example Signer", keyArguments: ["ecparam", "-name", "prime256v1", "-genkey", "-noout"],
                  by: "intermediate", extensions: "leaf.ext")
        try issue("rsa", subject: "/CN=Example RSA Signer", keyArguments: ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], by: "intermediate", extensions: "leaf.ext")
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// `name`'s certificate, DER: `root`, `intermediate`, `signer` (EC) or `rsa`.
    public func der(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name).der"))) }

    /// `data` signed with `name`'s key, SHA-256: DER for ECDSA, PKCS#1 v1.5 for RSA.
    public func sign(_ data: [UInt8], with name: String) throws -> [UInt8] {
        let input = "\(directory)/data-\(UUID().uuidString)"
        try Data(data).write(to: URL(fileURLWithPath: input))
        try run(["dgst", "-sha256", "-sign", "\(name).key", "-out", input + ".sig", input])
        return Array(try Data(contentsOf: URL(fileURLWithPath: input + ".sig")))
    }

    private func issue(_ name: String, subject: String, keyArguments: [String], by issuer: String, extensions: String) throws {
        try run(keyArguments + ["-out", "\(name).key"])
        try run(["req", "-new", "-key", "\(name).key", "-subj", subject, "-out", "\(name).csr"])
        try run(["x509", "-req", "-in", "\(name).csr", "-CA", "\(issuer).pem", "-CAkey", "\(issuer).key", "-CAcreateserial",
                 "-days", "2", "-extfile", extensions, "-out", "\(name).pem"])
        try run(["x509", "-in", "\(name).pem", "-outform", "DER", "-out", "\(name).der"])
    }

    /// `data` signed with the EC key of `name`, as a Signature record carries it: r ‖ s, 32 bytes each.
    public func signECDSA(_ data: [UInt8], with name: String = "signer") throws -> [UInt8] {
        let der = try sign(data, with: name)
        var index = 2 // SEQUENCE, short length (P-256 signatures are under 128 bytes)
        var out: [UInt8] = []
        for _ in 0..<2 {
            let length = Int(der[index + 1])
            let value = der[(index + 2)..<(index + 2 + length)].drop { $0 == 0 }
            out += [UInt8](repeating: 0, count: 32 - value.count) + value
            index += 2 + length
        }
        return out
    }

    /// Runs `openssl` with `arguments` (file names ending .key, .pem, .csr, .der, .ext are in
    /// ``directory`` unless absolute); its standard output, or a thrown error with its output.
    @discardableResult
    public func run(_ arguments: [String]) throws -> String {
        let result = try BoundedProcess.run("/usr/bin/openssl", arguments.map { $0.hasSuffix(".key") || $0.hasSuffix(".pem") || $0.hasSuffix(".csr")
            || $0.hasSuffix(".der") || $0.hasSuffix(".ext") ? (($0.hasPrefix("/") ? "" : directory + "/") + $0) : $0 }, timeout: 30)
        guard result.status == 0 else { throw PKIError(arguments: arguments, output: result.output) }
        return result.stdout
    }

    public struct PKIError: Error, CustomStringConvertible {
        var arguments: [String]
        var output: String
        public var description: String { "openssl \(arguments.joined(separator: " ")): \(output)" }
    }
}

