import Foundation
import Testing

/// The PC/SC tools people use, run by the end-to-end tests against a private pcscd (TestSupport's
/// PrivatePCSCD): pcsc_scan and pyscard.
public enum PCSCTools {
    public static var apduScript: String { Repository.path("Tests/NFCSimVPCDTests/pcsc_apdu.py") }
    /// Debian's interpreter: python3-pyscard is installed for it, not for a pyenv python3 on PATH.
    public static let python = "/usr/bin/python3"

    /// Fails with a message naming what is missing, before a test talks to the card with pyscard.
    public static func requirePyscard() throws {
        let probe = try run(python, ["-c", "import smartcard.scard"], timeout: 10)
        guard probe.status == 0 else { throw Missing(what: "pyscard is not importable by \(python) (python3-pyscard): \(probe.output)") }
    }

    /// Runs a program to its end, bounded by `timeout` seconds (then killed by its PID), with
    /// `extra` added to the test's environment; output is stdout and stderr together.
    public static func run(_ path: String, _ arguments: [String], environment extra: [String: String] = [:], timeout: Double) throws -> RunResult {
        try BoundedProcess.run(path, arguments, environment: ProcessInfo.processInfo.environment.merging(extra) { $1 },
                               output: .together, timeout: timeout)
    }
}
