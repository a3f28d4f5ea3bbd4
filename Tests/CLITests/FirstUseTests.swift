import Foundation
import Testing
import TestSupport

/// Issue 23 (the first hour): what a new user types before any reader is involved.
@Suite struct FirstUseTests {
    /// `nfcscan --help` teaches: the scan options (the default command), the subcommands and examples.
    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func rootHelpShowsScanOptionsSubcommandsAndExamples(arguments: [String]) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 0)
        for expected in ["USAGE: nfcscan [scan]", "--object <name>", "--count <n>", "--timeout <seconds>", "--json", "--version",
                         "SUBCOMMANDS:", "write", "status", "Examples:", "nfcscan write --uri https://example.com/menu"] {
            #expect(r.stdout.contains(expected), "\(expected) missing from:\n\(r.stdout)")
        }
    }

    @Test(arguments: [("scna", "scan"), ("wirte", "write"), ("stats", "status"), ("readrs", "readers")])
    func aMistypedSubcommandGetsDidYouMean(typed: String, meant: String) throws {
        let r = try CLI.run([typed, "--json"])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("Error: Unknown subcommand '\(typed)'. Did you mean 'nfcscan \(meant)'?\n"), "\(r.stderr)")
        // Far from every name: no guess.
        #expect(try !CLI.run(["xyzzy"]).stderr.contains("Did you mean"))
        // Long options: argument-parser's own suggestion, kept.
        #expect(try CLI.run(["write", "--objet", "poster", "--uri", "https://example.com"]).stderr.contains("Did you mean '--object'?"))
    }

    /// A negative count or timeout is a value, refused for what it is, not a missing one.
    @Test(arguments: [["--count", "-1"], ["write", "--uri", "https://example.com", "--count", "-1"], ["--timeout", "-5"]])
    func aNegativeNumberIsRefusedAsSuch(arguments: [String]) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 64)
        #expect(!r.stderr.contains("Missing value"), "\(r.stderr)")
        #expect(r.stderr.contains("needs 1 or more") || r.stderr.contains("needs a positive number"), "\(r.stderr)")
    }

    /// The name goes into prompts after "the" and "another", and people read it.
    @Test(arguments: [("NFC tag", "technical word"), ("a poster", "without \"a\""), ("The badge", "without \"the\"")])
    func anObjectNameThatBreaksThePromptsIsRefused(name: String, why: String) throws {
        let r = try CLI.run(["--object", name])
        #expect(r.status == 64)
        #expect(r.stderr.contains(why), "\(r.stderr)")
        #expect(try CLI.run(["write", "--object", name, "--uri", "https://example.com"]).status == 64)
    }

    /// A link that phones won't open is refused before any reader opens, with the link meant.
    @Test func aLinkWithoutItsSchemeIsRefused() throws {
        let bare = try CLI.run(["write", "--uri", "example.com/menu"])
        #expect(bare.status == 64)
        #expect(bare.stderr == "nfcscan: --uri must be a whole link, with its scheme: https://example.com/menu\n")
        let words = try CLI.run(["write", "--uri", "not a url"])
        #expect(words.status == 64)
        #expect(words.stderr.contains("such as https://example.com/menu"))
    }

    /// Each command lists only the exit statuses it can return.
    @Test func eraseAndLockHelpListOnlyTheirExitStatuses() throws {
        let write = try CLI.run(["write", "--help"]).stdout.split(separator: "\n").joined(separator: " ")
        #expect(write.contains("80 the message does not fit") && write.contains("66 the --ndef file"))
        for command in ["erase", "lock"] {
            let help = try CLI.run([command, "--help"]).stdout.split(separator: "\n").joined(separator: " ")
            #expect(help.contains("81 the object is read-only"), "\(command)")
            for impossible in ["65 the message", "66 the --ndef", "80 the message", "(use --format)"] {
                #expect(!help.contains(impossible), "\(command) --help lists \(impossible)")
            }
        }
    }

    /// Without nfcscand, status (and apps) say how to start it.
    @Test func withoutTheServiceStatusSaysHowToStartIt() throws {
        let environment = ["PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/nfcscan-tests/bus"]
        let status = try BoundedProcess.run(Repository.nfcscan, ["status"], environment: environment, timeout: 20)
        #expect(status.status == 0)
        #expect(status.stdout == "Background scanning is off: its service isn't running.\nStart it with “systemctl --user start nfcscand”.\n")
        let apps = try BoundedProcess.run(Repository.nfcscan, ["apps"], environment: environment, timeout: 20)
        #expect(apps.status == 69)
        #expect(apps.stderr.contains("systemctl --user start nfcscand"))
        let appsJSON = try JSONSchemaCheck.checked(try BoundedProcess.run(Repository.nfcscan, ["apps", "--json"], environment: environment, timeout: 20),
                                                   arguments: ["apps", "--json"])
        #expect(appsJSON.status == 69)
        #expect(appsJSON.stdout.hasPrefix("{\"ending\":\"failed\""), "\(appsJSON.stdout)")
    }

    @Test func nfcsimHasAVersion() throws {
        let r = try BoundedProcess.run(Repository.nfcsim, ["--version"], timeout: 20)
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("nfcsim "), "\(r.stdout)\(r.stderr)")
    }
}
