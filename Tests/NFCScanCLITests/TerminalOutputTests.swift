import Foundation
import NFCCopy
import NFCSim
import Testing
import TestSupport

/// What a person sees in a terminal (a pseudo-terminal of a given width): the live prompt line
/// and the links (issue 23).
@Suite(.serialized) struct TerminalOutputTests {
    static func environment(_ connstring: String, _ extra: [String: String]) -> [String: String] {
        var environment = ["PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "LIBNFC_DEVICE": connstring, "LIBNFC_AUTO_SCAN": "false",
                           "PCSCLITE_CSOCK_NAME": "/nonexistent/nfcscan-tests/pcscd.comm",
                           "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/nfcscan-tests/bus"]
        environment.merge(extra) { $1 }
        return environment
    }

    static func rows(_ output: String, columns: Int) -> Int {
        TerminalRun.rows(of: output, columns: columns) { CopyRules.displayWidth(String($0)) }
    }

    /// At 40 columns the spinner line is redrawn in place for the whole wait: it never wraps, so
    /// the wait leaves no trail of copies (it left one per redraw: 60 lines for 6 s).
    /// Chinese at 30 columns: its characters take two columns each, so it is cut by columns, not characters.
    @Test(arguments: [(["LANG": "C.UTF-8"], 40), (["LANG": "zh_CN.UTF-8", "LANGUAGE": "zh_CN"], 30)])
    func theLivePromptNeverWrapsAtFortyColumns(locale: [String: String], columns: Int) throws {
        let run = try ScanCommandTests.withEmulator(PN532Emulator(target: nil)) { connstring in
            try TerminalRun.run(Repository.nfcscan, ["--object", "badge", "--timeout", "2"],
                                environment: Self.environment(connstring, locale), columns: columns, timeout: 20)
        }
        #expect(run.status == 75, "\(run.output)")
        // About 20 redraws happened; what is left is the final sentence alone (it may wrap: it is
        // printed once, with a line feed).
        #expect(run.output.components(separatedBy: "\r\u{1B}[K").count > 10, "the line was redrawn: \(run.output.debugDescription)")
        let final = run.output.components(separatedBy: "\r\u{1B}[K").last ?? ""
        #expect(Self.rows(run.output, columns: columns) == Self.rows(final, columns: columns), "\(run.output.debugDescription)")
        #expect(Self.rows(run.output, columns: columns) <= 2, "\(run.output.suffix(300).debugDescription)")
    }

    @Test func aWebLinkIsClickableOnATerminalThatShowsLinksOnly() throws {
        let link = "\u{1B}]8;;https://example.com/poster\u{1B}\\https://example.com/poster\u{1B}]8;;\u{1B}\\"
        try ScanCommandTests.withEmulator(PN532Emulator(target: ScanCommandTests.poster().pn532Target)) { connstring in
            let kitty = try TerminalRun.run(Repository.nfcscan, ["--timeout", "10"], environment: Self.environment(connstring, ["TERM": "xterm-kitty"]),
                                            columns: 80, timeout: 20)
            #expect(kitty.status == 0, "\(kitty.output)")
            #expect(kitty.output.contains("Link: \(link)"), "\(kitty.output.debugDescription)")
            let plain = try TerminalRun.run(Repository.nfcscan, ["--timeout", "10"], environment: Self.environment(connstring, [:]),
                                            columns: 80, timeout: 20)
            #expect(plain.status == 0)
            #expect(plain.output.contains("Link: https://example.com/poster\r\n") && !plain.output.contains("\u{1B}]8"),
                    "an unknown terminal gets the plain link: \(plain.output.debugDescription)")
            let json = try TerminalRun.run(Repository.nfcscan, ["--json", "--timeout", "10"],
                                           environment: Self.environment(connstring, ["TERM": "xterm-kitty"]), columns: 80, timeout: 20)
            #expect(!json.output.contains("\u{1B}]8"), "never in --json")
        }
    }
}
