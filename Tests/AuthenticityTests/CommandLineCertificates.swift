import Authenticity
import Foundation
import TestSupport

/// ``CertificateVerifying`` through the `openssl` command: the stand-in for LibCrypto's
/// `OpenSSL` while it is a stub (helper crypto's branch), so these tests check real signatures
/// and chains today; switching them to `OpenSSL()` is one line.
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
