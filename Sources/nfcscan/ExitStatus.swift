import ArgumentParser

/// The documented exit statuses (sysexits.h values, so scripts can tell failures apart).
enum ExitStatus {
    /// The command line is wrong (argument-parser's own validation failures use it too).
    static let usage = ExitCode(64)
    /// The input (or the object's content) is not a valid message.
    static let dataError = ExitCode(65)
    /// The input file cannot be opened or read.
    static let noInput = ExitCode(66)
    /// No reader was found, or none could be opened.
    static let noReader = ExitCode(69)
    /// Another program or a kernel driver holds the reader.
    static let readerBusy = ExitCode(73)
    /// The object moved away too soon, could not be read, or the reader stopped working.
    static let readFailed = ExitCode(74)
    /// No object came near a reader before --timeout.
    static let timedOut = ExitCode(75)
    /// This user may not open the reader.
    static let noPermission = ExitCode(77)

    static let summary = "0 success, 64 usage error, 65 invalid data, 66 input not readable."
    static let scanSummary = """
        0 success, 64 usage error, 65 the object holds invalid data, 69 no reader found, \
        73 reader busy (another program or a kernel driver holds it), 74 read failed (the object \
        moved away too soon, could not be read, or the reader stopped working), 75 no object \
        before the timeout, 77 no permission to use the reader.
        """
}

/// A failure reported as one line on standard error, then the given exit status.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var status: ExitCode

    var description: String { message }
}
