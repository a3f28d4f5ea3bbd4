import ArgumentParser
import CommandLineIO

struct NFCSimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nfcsim",
        abstract: "Present virtual NFC objects to real reader software, with no hardware.",
        discussion: """
            Each subcommand plays one kind of reader with a virtual object in its field, so the \
            software under test runs exactly as it would with a physical reader. nfcsim never opens \
            a network port for this.
            """,
        version: "nfcsim \(NFCScanVersion.string)",
        subcommands: [PN532Command.self, VPCDCommand.self]
    )
}
