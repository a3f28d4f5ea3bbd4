import Foundation

/// The `openssl` command, run in a scratch directory: what tests make keys, certificates and
/// signatures with, independently of the code under test (LibCrypto).
public enum OpenSSLCommand {
    /// Runs `openssl` with `arguments` in `directory`; throws with what it printed if it fails.
    public static func run(_ arguments: [String], in directory: URL) throws {
        let openssl = try Repository.installed("openssl")
        // env -C starts openssl in `directory`, so arguments name the files there by name alone.
        let result = try BoundedProcess.run("/usr/bin/env", ["-C", directory.path, openssl] + arguments, timeout: 30)
        guard result.status == 0, !result.timedOut else {
            throw OpenSSLFailure(arguments: arguments, output: result.output)
        }
    }

    /// `body` given a new empty directory, removed with everything in it when `body` returns.
    public static func inScratchDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfcscan-openssl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    /// The bytes a PEM file holds (its first block), or empty if it holds none.
    public static func der(fromPEM text: String) -> [UInt8] {
        let lines = text.split(separator: "\n")
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN ") }),
              let end = lines[begin...].firstIndex(where: { $0.hasPrefix("-----END ") }) else { return [] }
        let body = lines[(begin + 1)..<end].joined()
        return Data(base64Encoded: body).map { [UInt8]($0) } ?? []
    }
}

/// `openssl` failed: its arguments and what it printed.
public struct OpenSSLFailure: Error, CustomStringConvertible {
    public var arguments: [String]
    public var output: String
    public var description: String { "openssl \(arguments.joined(separator: " ")) failed: \(output)" }
}

/// A throwaway certificate hierarchy made with the `openssl` command: a root CA, an intermediate
/// CA the root signed, and three leaf certificates the intermediate signed — with an EC P-256
/// key, an RSA-2048 key and a DSA-2048 key, all with the subject O=Example Ltd, CN=Example
/// Signing — plus a self-signed certificate of the EC leaf's key with the same subject (which
/// nothing trusts). Valid from when they are made for two days.
///
/// Made once per test process (``shared()``): RSA keys and DSA parameters take a moment to make.
/// The value holds only bytes (certificates as DER, keys as PEM text); files exist only while a
/// call needs them, so nothing is left behind. Typical use:
///
///     let pki = try TestCertificates.shared()
///     let signature = try pki.sign(data, .ecdsa)
///     let anchor = try pki.writeRoot(into: configDirectory)   // a PEM trust anchor
///     // verify `signature` under pki.leaf(.ecdsa), chained through [pki.intermediate] to `anchor`
public struct TestCertificates: Sendable {
    /// How a leaf signs, and so which leaf's key: SHA-256 in each.
    public enum Scheme: CaseIterable, Sendable {
        /// ECDSA with the P-256 leaf's key; the signature DER-encoded (ECDSA-Sig-Value).
        case ecdsa
        /// RSASSA-PKCS1-v1_5 with the RSA leaf's key.
        case rsaPKCS1v15
        /// RSASSA-PSS with the RSA leaf's key, MGF1 with SHA-256, salt as long as the digest (32).
        case rsaPSS
        /// DSA with the DSA leaf's key (2048-bit p, 256-bit q); the signature DER-encoded.
        case dsa
    }

    /// The subject's organization (O) and common name (CN) of the leaves and the self-signed one.
    public static let organization = "Example Ltd"
    public static let commonName = "Example Signing"

    /// The root CA's certificate (DER), self-signed; trusted only where a test names it.
    public let root: [UInt8]
    /// The root CA's certificate as PEM text, as a trust anchor file holds it.
    public let rootPEM: String
    /// The intermediate CA's certificate (DER): the root signed it, it signed the leaves.
    public let intermediate: [UInt8]
    /// The self-signed certificate (DER) of the EC leaf's key.
    public let selfSigned: [UInt8]
    private struct Signer: Sendable {
        var certificate: [UInt8]
        var keyPEM: String
    }
    private let ec: Signer
    private let rsa: Signer
    private let dsa: Signer

    private func signer(_ scheme: Scheme) -> Signer {
        switch scheme {
        case .ecdsa: ec
        case .rsaPKCS1v15, .rsaPSS: rsa
        case .dsa: dsa
        }
    }

    /// The leaf certificate (DER) whose key signs with `scheme`.
    public func leaf(_ scheme: Scheme) -> [UInt8] { signer(scheme).certificate }

    /// The process's hierarchy, made on first use; throws if `openssl` is missing or fails.
    public static func shared() throws -> TestCertificates { try made.get() }

    private static let made = Result { try TestCertificates() }

    /// `data` signed with `scheme` by the leaf ``leaf(_:)`` returns for it.
    public func sign(_ data: [UInt8], _ scheme: Scheme) throws -> [UInt8] {
        try OpenSSLCommand.inScratchDirectory { directory in
            try Data(signer(scheme).keyPEM.utf8).write(to: directory.appendingPathComponent("key.pem"))
            try Data(data).write(to: directory.appendingPathComponent("data"))
            let pss = ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:digest"]
            try OpenSSLCommand.run(["dgst", "-sha256", "-sign", "key.pem"] + (scheme == .rsaPSS ? pss : [])
                                   + ["-out", "signature", "data"], in: directory)
            return [UInt8](try Data(contentsOf: directory.appendingPathComponent("signature")))
        }
    }

    /// Writes the root CA's certificate as `name` in `directory` (a trust anchor file, e.g. in
    /// a configuration's `trust/`); returns its path.
    @discardableResult
    public func writeRoot(into directory: URL, name: String = "root.pem") throws -> String {
        let file = directory.appendingPathComponent(name)
        try Data(rootPEM.utf8).write(to: file)
        return file.path
    }

    private init() throws {
        let made = try OpenSSLCommand.inScratchDirectory { directory in
            // A configuration of its own: the machine's openssl.cnf adds extensions of its choosing.
            try Data(Self.configuration.utf8).write(to: directory.appendingPathComponent("openssl.cnf"))
            func run(_ arguments: [String]) throws { try OpenSSLCommand.run(arguments, in: directory) }
            func read(_ name: String) throws -> String {
                try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            }
            let p256 = ["-newkey", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]
            let leafSubject = "/O=\(Self.organization)/CN=\(Self.commonName)"
            let request = ["req", "-config", "openssl.cnf", "-noenc", "-days", "2"]
            try run(request + ["-x509"] + p256 + ["-keyout", "root.key", "-extensions", "ca",
                    "-subj", "/O=Example Test Root/CN=Example Test Root CA", "-out", "root.pem"])
            func issue(_ name: String, key: [String], subject: String, by issuer: String, serial: Int, extensions: String) throws {
                try run(request + ["-new"] + key + ["-keyout", "\(name).key", "-subj", subject, "-out", "\(name).csr"])
                try run(["x509", "-req", "-in", "\(name).csr", "-CA", "\(issuer).pem", "-CAkey", "\(issuer).key",
                         "-set_serial", "\(serial)", "-days", "2", "-extfile", "openssl.cnf", "-extensions", extensions,
                         "-out", "\(name).pem"])
            }
            try issue("intermediate", key: p256, subject: "/O=Example Test Root/CN=Example Test Intermediate CA",
                      by: "root", serial: 2, extensions: "ca")
            try issue("ec", key: p256, subject: leafSubject, by: "intermediate", serial: 3, extensions: "leaf")
            try issue("rsa", key: ["-newkey", "RSA:2048"], subject: leafSubject, by: "intermediate", serial: 4, extensions: "leaf")
            try run(["genpkey", "-genparam", "-algorithm", "DSA", "-pkeyopt", "dsa_paramgen_bits:2048",
                     "-pkeyopt", "dsa_paramgen_q_bits:256", "-out", "dsa-parameters.pem"])
            try issue("dsa", key: ["-newkey", "dsa:dsa-parameters.pem"], subject: leafSubject, by: "intermediate", serial: 5,
                      extensions: "leaf")
            try run(request + ["-x509", "-key", "ec.key", "-extensions", "leaf", "-subj", leafSubject, "-out", "self.pem"])
            return try ["root.pem", "intermediate.pem", "ec.pem", "rsa.pem", "dsa.pem", "self.pem", "ec.key", "rsa.key", "dsa.key"]
                .map(read)
        }
        rootPEM = made[0]
        root = OpenSSLCommand.der(fromPEM: made[0])
        intermediate = OpenSSLCommand.der(fromPEM: made[1])
        ec = Signer(certificate: OpenSSLCommand.der(fromPEM: made[2]), keyPEM: made[6])
        rsa = Signer(certificate: OpenSSLCommand.der(fromPEM: made[3]), keyPEM: made[7])
        dsa = Signer(certificate: OpenSSLCommand.der(fromPEM: made[4]), keyPEM: made[8])
        selfSigned = OpenSSLCommand.der(fromPEM: made[5])
    }

    /// Extensions as a real hierarchy has them: CAs may sign certificates, leaves only data.
    private static let configuration = """
        [req]
        distinguished_name = subject
        prompt = no
        [subject]
        CN = unused
        [ca]
        basicConstraints = critical, CA:TRUE
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        [leaf]
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always

        """
}
