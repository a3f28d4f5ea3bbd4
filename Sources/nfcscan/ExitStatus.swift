import ArgumentParser

/// The documented exit statuses (sysexits.h values, so scripts can tell failures apart).
enum ExitStatus {
    /// The command line is wrong (argument-parser's own validation failures use it too).
    static let usage = ExitCode(64)
    /// The input is not a valid message.
    static let dataError = ExitCode(65)
    /// The input file cannot be opened or read.
    static let noInput = ExitCode(66)

    static let summary = "0 success, 64 usage error, 65 invalid data, 66 input not readable."
}

/// A failure reported as one line on standard error, then the given exit status.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var status: ExitCode

    var description: String { message }
}
