import ArgumentParser

@main
struct NFCScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nfcscan",
        abstract: "See what the chip on a poster, badge, toy or label holds.",
        discussion: """
            Reading objects through a reader arrives in a later release; today nfcscan decodes \
            message bytes you already have (`nfcscan decode`).

            Exit status: \(ExitStatus.summary)
            """,
        version: "nfcscan 0.1.0",
        subcommands: [DecodeCommand.self]
    )
}
