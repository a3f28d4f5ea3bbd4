import ArgumentParser
import CommandLineIO

struct NFCScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nfcscan",
        abstract: "See what the chip on a poster, badge, toy or label holds.",
        discussion: """
            With no subcommand, nfcscan waits for an object to be held near a reader, reads it \
            and shows what it holds (`nfcscan scan`). `nfcscan readers` lists the readers; `nfcscan status` says whether objects are noticed in the background; \
            `nfcscan decode` decodes message bytes you already have. Each subcommand's \
            options: `nfcscan help SUBCOMMAND`.

            Examples:
              nfcscan --object poster
              nfcscan --count 3 --json > objects.jsonl
              nfcscan write --uri https://example.com/menu --object poster
              nfcscan status
              nfcscan decode --hex dump.txt

            Exit status: \(ExitStatus.scanSummary) `nfcscan decode` exits 66 when its input \
            cannot be read.
            """,
        version: "nfcscan \(NFCScanVersion.string)",
        subcommands: [ScanCommand.self, WriteCommand.self, EraseCommand.self, LockCommand.self, InfoCommand.self,
                      ReadersCommand.self, StatusCommand.self, AppsCommand.self, DecodeCommand.self],
        defaultSubcommand: ScanCommand.self
    )
}
