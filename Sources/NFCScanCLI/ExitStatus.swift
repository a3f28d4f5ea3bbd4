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
    /// The object moved away too soon, the link failed, or the reader stopped working: scanning
    /// again can mend it. What the object holds (a broken or newer layout) is `dataError`.
    static let readFailed = ExitCode(74)
    /// No object came near a reader before --timeout.
    static let timedOut = ExitCode(75)
    /// This user may not open the reader.
    static let noPermission = ExitCode(77)

    /// The message is larger than the object can hold (nothing was written).
    static let doesNotFit = ExitCode(80)
    /// The object is read-only (locked), or a lock was asked without --permanent's confirmation.
    static let readOnly = ExitCode(81)
    /// The object is blank: it needs --format (nothing was written).
    static let blank = ExitCode(82)
    /// A password protects the object (writing, or reading too), and none or a wrong one was given.
    static let password = ExitCode(83)
    /// What was read back differs from what was written.
    static let didNotVerify = ExitCode(84)
    /// Another object came near during the write: the last command was not sent.
    static let differentObject = ExitCode(85)
    /// This kind of object cannot be written (or formatted, or locked) here.
    static let cannotWrite = ExitCode(86)

    static let summary = "0 success, 64 usage error, 65 invalid data, 66 input not readable."
    static let scanSummary = """
        0 success, 64 usage error, 65 the object holds invalid data or is of a kind that can't be read (scanning again won't help), \
        69 no reader found, 73 reader busy (another program or a kernel driver holds it), 74 read \
        failed (the object moved away too soon, or the link or reader failed), 75 no object \
        before the timeout, 77 no permission to use the reader, 83 the object's password is needed \
        (--password), was refused, or can't be sent through this reader.
        """
    static let writeSummary = changeSummary([
        (0, "success"), (64, "usage error"), (65, "the message is not valid"), (66, "the --ndef file cannot be read"),
    ] + objectStatuses(blank: "the object is blank (use --format)") + [(80, "the message does not fit")])
    /// `erase` writes an empty message (it always fits, and there is no input to be invalid).
    static let eraseSummary = changeSummary([(0, "success"), (64, "usage error")] + objectStatuses(blank: "the object is blank (nothing to erase)"))
    /// `lock` writes no message: only what the object holds is locked.
    static let lockSummary = changeSummary([(64, "usage error")] + objectStatuses(blank: "the object is blank (nothing to lock)"))

    /// What every command that changes an object can end with, besides its input's own statuses.
    private static func objectStatuses(blank: String) -> [(Int32, String)] {
        [(69, "no reader found"), (73, "reader busy"),
         (74, "the object moved away too soon or the write failed (it holds the old message, an empty one or the new one, never a part)"),
         (75, "no object before the timeout"), (77, "no permission to use the reader"), (81, "the object is read-only"),
         (82, blank), (83, "password needed or refused"), (84, "the object did not read back as written"),
         (85, "another object came near mid-write"), (86, "this kind of object cannot be changed here")]
    }

    private static func changeSummary(_ statuses: [(Int32, String)]) -> String {
        statuses.sorted { $0.0 < $1.0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + "."
    }
}

/// A failure reported as one line on standard error, then the given exit status.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var status: ExitCode

    var description: String { message }
}
