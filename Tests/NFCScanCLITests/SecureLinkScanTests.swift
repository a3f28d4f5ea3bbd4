import Authenticity
import Foundation
import NFCScanKit
import Testing
import TestSupport

/// NTAG 424 DNA secure dynamic links end to end: nfcsim's Type 4 object writes a fresh SUN link on
/// every read (vpcd, a private pcscd), nfcscan checks it with the person's keys file and counters
/// (Docs/authenticity.md).
@Suite(.serialized) struct SecureLinkScanTests {
    static let uid = "04a1b2c3d4e5f6"
    static let key = "000102030405060708090a0b0c0d0e0f"

    /// A private XDG_CONFIG_HOME holding `secure-links` with `mode`, and an empty XDG_STATE_HOME.
    static func home(mode: mode_t = 0o600) throws -> (environment: [String: String], keys: String, root: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nfcscan-sun-\(UUID().uuidString)")
        let config = root.appendingPathComponent("config/nfcscan")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let keys = config.appendingPathComponent("secure-links").path
        let text = "[poster]\nurl = https://example.com/p\nmeta-read-key = \(key)\nfile-read-key = \(key)\n"
        #expect(FileManager.default.createFile(atPath: keys, contents: Data(text.utf8)))
        #expect(chmod(keys, mode) == 0)
        return (["XDG_CONFIG_HOME": root.appendingPathComponent("config").path, "XDG_STATE_HOME": root.appendingPathComponent("state").path], keys, root)
    }

    static func scan(_ pcscd: PrivatePCSCD, _ home: [String: String]) throws -> [String: Any] {
        let r = try run(["--json", "--timeout", "10"], pcscd, home)
        let document = try ScanCommandTests.json(try #require(r.stdout.split(separator: "\n").first, "\(r.stderr)\n\(pcscd.log)"))
        return try #require((document["records"] as? [[String: Any]])?.first)
    }

    static func run(_ arguments: [String], _ pcscd: PrivatePCSCD, _ home: [String: String]) throws -> RunResult {
        var environment = ProcessInfo.processInfo.environment.merging(home) { $1 }
        environment.removeValue(forKey: "LIBNFC_DEVICE")
        environment["LIBNFC_AUTO_SCAN"] = "false"
        environment["PCSCLITE_CSOCK_NAME"] = pcscd.socket
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/nfcscan-tests/bus"
        let r = try ScanCLI.run(arguments, environment: environment)
        #expect(r.status == 0, "\(r.stderr)\n\(pcscd.log)")
        return r
    }

    @Test func freshLinksVerifyAndAReplayedOneIsRefused() throws {
        let (home, _, root) = try Self.home()
        defer { try? FileManager.default.removeItem(at: root) }
        var first: String?
        do {
            let pcscd = try PrivatePCSCD(nfcsim: ["--type", "type4", "--secure-link", "https://example.com/p", "--sun-key", Self.key,
                                                 "--uid", Self.uid, "--after", "1", "--for", "20"])
            defer { pcscd.stop() }
            for counter in 1...2 {
                let record = try Self.scan(pcscd, home)
                let link = try #require(record["secure_link"] as? [String: Any], "\(record)")
                #expect(link["verified"] as? Bool == true, "\(record)")
                #expect(link["uid"] as? String == Self.uid)
                #expect(link["counter"] as? Int == counter, "one more on each read")
                #expect(link["replayed"] as? Bool == false)
                if counter == 1 { first = record["uri"] as? String }
            }
        }
        // The first link's bytes again, on an object of their own: the same counter, a replay.
        let replayedLink = try #require(first)
        #expect(replayedLink.hasPrefix("https://example.com/p?picc_data="))
        let pcscd = try PrivatePCSCD(nfcsim: ["--type", "type4", "--uri", replayedLink, "--after", "1", "--for", "20"])
        defer { pcscd.stop() }
        let record = try Self.scan(pcscd, home)
        let link = try #require(record["secure_link"] as? [String: Any], "\(record)")
        #expect(link["verified"] as? Bool == true)
        #expect(link["counter"] as? Int == 1)
        #expect(link["replayed"] as? Bool == true)
        // In plain words, after the link.
        let plain = try Self.run(["--object", "poster", "--timeout", "10"], pcscd, home)
        #expect(plain.stdout.contains("This link was already used: it may be a copy."), "\(plain.stdout)")
        let counters = try String(contentsOfFile: home["XDG_STATE_HOME"]! + "/nfcscan/secure-link-counters", encoding: .utf8)
        #expect(counters == "\(Self.uid) 2\n")
    }

    @Test func aKeysFileOthersMayReadIsRefused() throws {
        let (_, keys, root) = try Self.home(mode: 0o644)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect {
            _ = try SecureLinkFiles.loadTemplates(path: keys)
        } throws: { error in
            "\(error)".contains("chmod 600 \(keys)") && !"\(error)".contains(Self.key)
        }
        #expect(chmod(keys, 0o600) == 0)
        #expect(try SecureLinkFiles.loadTemplates(path: keys).map(\.name) == ["poster"])
        #expect(try SecureLinkFiles.loadTemplates(path: keys + ".missing").isEmpty)
        let link = root.appendingPathComponent("link").path
        #expect(symlink(keys, link) == 0)
        #expect(throws: SecureLinkFilesError.self) { try SecureLinkFiles.loadTemplates(path: link) }
    }

    /// Counters that cannot be kept are said, not lost silently; a file planted at the counter
    /// file's temporary name is replaced, never written through.
    @Test func countersThatCannotBeKeptAreSaid() throws {
        let (environment, _, root) = try Self.home()
        defer { try? FileManager.default.removeItem(at: root) }
        var problems: [String] = []
        _ = AuthenticityChecks.forUser(environment: environment) { problems.append($0) }
        #expect(problems.isEmpty, "\(problems)")
        // A state directory under a regular file: no directory can be made there.
        let blocked = root.appendingPathComponent("blocked").path
        #expect(FileManager.default.createFile(atPath: blocked, contents: Data()))
        _ = AuthenticityChecks.forUser(environment: environment.merging(["XDG_STATE_HOME": blocked + "/state"]) { $1 }) { problems.append($0) }
        #expect(problems.count == 1 && problems.first?.contains("can't be kept in \(blocked)/state/nfcscan/secure-link-counters") == true,
                "\(problems)")

        let counters = root.appendingPathComponent("state/nfcscan/secure-link-counters").path
        let target = root.appendingPathComponent("elsewhere").path
        #expect(FileManager.default.createFile(atPath: target, contents: Data("kept\n".utf8)))
        #expect(SecureLinkCounterFile.canKeep(at: counters))
        #expect(symlink(target, counters + ".new") == 0)
        #expect(SecureLinkCounterFile(path: counters).remember(uid: [0x04, 1, 2, 3, 4, 5, 6], counter: 5) == false)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "kept\n")
        #expect(try String(contentsOfFile: counters, encoding: .utf8).contains("04010203040506 5"))
    }
}

