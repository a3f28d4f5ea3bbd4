import Foundation
import Testing
import TestSupport

/// `nfcscan` and `nfcscan info` with objects a password protects, as `nfcsim --password
/// --protect` presents them through the real libnfc: without the password the person reads what
/// is wrong and how to give it (exit status 83), with it the object reads.
@Suite(.serialized) struct PasswordCommandTests {
    static let protected = "The poster is protected by a password."
    static let hint = "Run again with --password and the poster's password."

    @Test func aReadProtectedObjectReadsOnlyWithItsPassword() throws {
        let sim = try NFCSimPN532Child(["--uri", "https://example.com/poster", "--password", "1a2b3c4d", "--protect", "read", "--for", "60"])
        defer { _ = sim.stop() }
        let without = try ScanCLI.run(["--object", "poster", "--timeout", "10"], connstring: sim.connstring)
        #expect(without.status == 83, "\(without.stderr)")
        #expect(without.stderr.contains(Self.protected + "\n" + Self.hint), "\(without.stderr)")
        let wrong = try ScanCLI.run(["--object", "poster", "--password", "00000000", "--timeout", "10"], connstring: sim.connstring)
        #expect(wrong.status == 83, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("The poster didn't accept the password.\n" + Self.hint), "\(wrong.stderr)")
        let right = try ScanCLI.run(["--json", "--password", "1a2b3c4d", "--timeout", "10"], connstring: sim.connstring)
        #expect(right.status == 0, "\(right.stderr)")
        #expect(right.stdout.contains("https://example.com/poster"), "\(right.stdout)")
        // From the environment, where other users cannot see it; a malformed one is a usage error.
        let hidden = try ScanCLI.run(["--json", "--timeout", "10"], connstring: sim.connstring, environment: ["NFCSCAN_PASSWORD": "1a2b3c4d"])
        #expect(hidden.status == 0 && hidden.stdout.contains("https://example.com/poster"), "\(hidden.stderr)")
        let malformed = try ScanCLI.run(["--timeout", "10"], connstring: sim.connstring, environment: ["NFCSCAN_PASSWORD": "secret"])
        #expect(malformed.status == 64 && malformed.stderr.contains("NFCSCAN_PASSWORD needs 8 hexadecimal digits"), "\(malformed.stderr)")

        let info = try ScanCLI.run(["info", "--object", "poster", "--timeout", "10"], connstring: sim.connstring)
        #expect(info.status == 83, "\(info.stderr)")
        #expect(info.stderr.contains(Self.protected + "\n" + Self.hint), "\(info.stderr)")
        let known = try ScanCLI.run(["info", "--object", "poster", "--password", "1a2b3c4d", "--timeout", "10"], connstring: sim.connstring)
        #expect(known.status == 0, "\(known.stderr)")
        // nfcsim's made-up NTAG answers READ_SIG with zeros: not genuine, said last.
        #expect(known.stdout.hasSuffix("It can be changed only with its password.\nThis poster's chip may not be genuine.\n"), "\(known.stdout)")
    }

    @Test func aWriteProtectedObjectReadsButInfoSaysItNeedsItsPassword() throws {
        let sim = try NFCSimPN532Child(["--uri", "https://example.com/poster", "--password", "1a2b3c4d", "--protect", "write", "--for", "60"])
        defer { _ = sim.stop() }
        let scan = try ScanCLI.run(["--json", "--timeout", "10"], connstring: sim.connstring)
        #expect(scan.status == 0, "\(scan.stderr)")
        let info = try ScanCLI.run(["info", "--object", "poster", "--timeout", "10"], connstring: sim.connstring)
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.hasSuffix("It can be changed only with its password.\nThis poster's chip may not be genuine.\n"), "\(info.stdout)")
        #expect(!info.stdout.contains("It can be changed."), "\(info.stdout)")
        let write = try ScanCLI.run(["write", "--text", "New", "--object", "poster", "--timeout", "10"], connstring: sim.connstring)
        #expect(write.status == 83, "\(write.stderr)")
        #expect(write.stderr.contains(Self.protected + "\n" + Self.hint), "\(write.stderr)")
    }

    @Test func aBlankObjectFromNFCSimIsBlank() throws {
        let sim = try NFCSimPN532Child(["--type", "ntag215", "--blank", "--for", "60"])
        defer { _ = sim.stop() }
        let info = try ScanCLI.run(["info", "--object", "label", "--timeout", "10"], connstring: sim.connstring)
        #expect(info.stdout == "It is blank and needs preparing before saving.\nThis label's chip may not be genuine.\n", "\(info.stderr)")
    }
}

/// The same through a private pcscd: a reader with a pass-through (an ACR122U) carries PWD_AUTH.
@Suite(.serialized) struct PasswordPCSCScanTests {
    @Test func aReadProtectedObjectReadsWithItsPasswordThroughAnACR122U() throws {
        let pcscd = try PrivatePCSCD(nfcsim: ["--reader", "acr122u", "--uri", "https://example.com/poster", "--password", "1a2b3c4d",
                                              "--protect", "read", "--after", "0.5", "--for", "20"])
        defer { pcscd.stop() }
        let without = try PCSCScanTests.nfcscan(["--object", "poster", "--timeout", "10"], socket: pcscd.socket)
        #expect(without.status == 83, "\(without.stderr)\n\(pcscd.log)")
        #expect(without.stderr.contains(PasswordCommandTests.protected + "\n" + PasswordCommandTests.hint), "\(without.stderr)")
        // Reading again needs the object to arrive again: the next scan reopens the reader.
        let with = try PCSCScanTests.nfcscan(["--json", "--password", "1a2b3c4d", "--timeout", "10"], socket: pcscd.socket)
        #expect(with.status == 0, "\(with.stderr)\n\(pcscd.log)")
        #expect(with.stdout.contains("https://example.com/poster"), "\(with.stdout)")
    }

    /// A reader that passes only READ BINARY and UPDATE BINARY says the chip refused the read
    /// (69 82, security status not satisfied): the object is protected, not gone (no exit 74),
    /// and since this reader cannot send a password, the person is told so instead of --password.
    @Test func aReadProtectedObjectThroughAStorageCardReaderSaysTheReaderCannotSendThePassword() throws {
        let pcscd = try PrivatePCSCD(nfcsim: ["--reader", "storage-card", "--uri", "https://example.com/poster", "--password", "1a2b3c4d",
                                              "--protect", "read", "--after", "0.5", "--for", "20"])
        defer { pcscd.stop() }
        let cannot = "The poster is protected by a password.\nThis reader can't send a password. Use another reader.\n"
        let without = try PCSCScanTests.nfcscan(["--object", "poster", "--timeout", "10"], socket: pcscd.socket)
        #expect(without.status == 83, "\(without.stderr)\n\(pcscd.log)")
        #expect(without.stderr.hasSuffix(cannot) && !without.stderr.contains("--password"), "\(without.stderr)")
        let with = try PCSCScanTests.nfcscan(["--object", "poster", "--password", "1a2b3c4d", "--timeout", "10", "--verbose"],
                                             socket: pcscd.socket)
        #expect(with.status == 83, "\(with.stderr)\n\(pcscd.log)")
        #expect(with.stderr.contains(cannot) && with.stderr.contains("which this reader cannot send"), "\(with.stderr)")
        let info = try PCSCScanTests.nfcscan(["info", "--object", "poster", "--timeout", "10"], socket: pcscd.socket)
        #expect(info.status == 83 && info.stderr.hasSuffix(cannot), "\(info.stderr)\n\(pcscd.log)")
    }
}
