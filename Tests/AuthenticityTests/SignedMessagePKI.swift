import Authenticity
import Foundation
import TestSupport

/// A root CA, an intermediate and two signers (EC P-256 "Example Ltd", RSA 2048 "Example RSA
/// Signer") made by the `openssl` command at test time, and signing with them.
///
/// Stand-in until helper crypto's `TestCertificates` (TestSupport) and LibCrypto's `OpenSSL`
/// land: ``CommandLineCertificates`` runs the same seam through the `openssl` command, so these
/// tests check real signatures and chains today; switching them to `OpenSSL()` is one line.
final class SignedMessagePKI: Sendable {
    let directory: String
    var rootPEM: String { directory + "/root.pem" }

    init() throws {
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

    /// `name`'s certificate, DER.
    func der(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name).der"))) }

    /// `data` signed with `name`'s key, SHA-256: DER for ECDSA, PKCS#1 v1.5 for RSA.
    func sign(_ data: [UInt8], with name: String) throws -> [UInt8] {
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

    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let result = try BoundedProcess.run("/usr/bin/openssl", arguments.map { $0.hasSuffix(".key") || $0.hasSuffix(".pem") || $0.hasSuffix(".csr")
            || $0.hasSuffix(".der") || $0.hasSuffix(".ext") ? (($0.hasPrefix("/") ? "" : directory + "/") + $0) : $0 }, timeout: 30)
        guard result.status == 0 else { throw PKIError(arguments: arguments, output: result.output) }
        return result.stdout
    }

    struct PKIError: Error, CustomStringConvertible {
        var arguments: [String]
        var output: String
        var description: String { "openssl \(arguments.joined(separator: " ")): \(output)" }
    }
}

/// ``CertificateVerifying`` through the `openssl` command: the stand-in for LibCrypto's
/// `OpenSSL` while it is a stub (see ``SignedMessagePKI``).
struct CommandLineCertificates: CertificateVerifying {
    let pki: SignedMessagePKI

    func verifies(certificate: [UInt8], scheme: SignedDataScheme, data: [UInt8], signature: [UInt8]) -> Bool {
        let base = "\(pki.directory)/verify-\(UUID().uuidString)"
        do {
            try Data(certificate).write(to: URL(fileURLWithPath: base + ".der"))
            try Data(data).write(to: URL(fileURLWithPath: base + ".data"))
            try Data(signature).write(to: URL(fileURLWithPath: base + ".sig"))
            let key = try pki.run(["x509", "-inform", "DER", "-in", base + ".der", "-pubkey", "-noout"])
            try key.write(toFile: base + ".pub", atomically: true, encoding: .utf8)
            var arguments = ["dgst", "-sha256", "-verify", base + ".pub", "-signature", base + ".sig"]
            if scheme == .rsaPSS { arguments += ["-sigopt", "rsa_padding_mode:pss"] }
            return (try? pki.run(arguments + [base + ".data"])) != nil
        } catch {
            return false
        }
    }

    func chain(certificate: [UInt8], intermediates: [[UInt8]], extraAnchors: [String]) -> ChainVerdict {
        let base = "\(pki.directory)/chain-\(UUID().uuidString)"
        do {
            try Data(certificate).write(to: URL(fileURLWithPath: base + ".der"))
            try pki.run(["x509", "-inform", "DER", "-in", base + ".der", "-out", base + ".pem"])
            var untrusted = ""
            for (index, der) in intermediates.enumerated() {
                try Data(der).write(to: URL(fileURLWithPath: "\(base)-\(index).der"))
                untrusted += try pki.run(["x509", "-inform", "DER", "-in", "\(base)-\(index).der"])
            }
            try untrusted.write(toFile: base + "-untrusted.pem", atomically: true, encoding: .utf8)
            var arguments = ["verify"]
            if !intermediates.isEmpty { arguments += ["-untrusted", base + "-untrusted.pem"] }
            let anchors = try extraAnchors.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined()
            if !anchors.isEmpty {
                try anchors.write(toFile: base + "-anchors.pem", atomically: true, encoding: .utf8)
                arguments += ["-CAfile", base + "-anchors.pem"]
            }
            do { try pki.run(arguments + [base + ".pem"]) } catch { return .untrusted("\(error)") }
            let subject = try pki.run(["x509", "-in", base + ".pem", "-noout", "-subject", "-nameopt", "sep_multiline,sname"])
            func field(_ name: String) -> String? {
                subject.split(separator: "\n").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
                    .first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
            }
            return .trusted(organization: field("O"), commonName: field("CN"))
        } catch {
            return .untrusted("\(error)")
        }
    }
}
