import Foundation
import TestSupport

/// The built pcsc-readers-probe these tests run against a private pcscd (TestSupport's
/// PrivatePCSCD): one PC/SC check per process, as the client library reads PCSCLITE_CSOCK_NAME
/// once per process.
enum PCSCRig {
    static var probe: String { Repository.built("pcsc-readers-probe") }

    /// The private pcscd's needs and the built probe, checked before a test starts anything.
    static func requireAll() throws {
        try PrivatePCSCD.requireAll()
        try Repository.requireBuilt(probe)
    }

    /// Runs the probe with `arguments` (its own bound last), killed by PID after `timeout`
    /// seconds; output is stdout and stderr together.
    static func probe(_ arguments: [String], socket: String, timeout: Double) throws -> RunResult {
        var environment = ProcessInfo.processInfo.environment
        environment["PCSCLITE_CSOCK_NAME"] = socket
        return try BoundedProcess.run(try Repository.requireBuilt(probe), arguments, environment: environment,
                                      output: .together, timeout: timeout)
    }
}
