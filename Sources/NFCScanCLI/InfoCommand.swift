import ArgumentParser
import CommandLineIO
import Authenticity
import NDEFReport
import NFCCopy
import NFCObjects
import NFCScanKit
import NFCTags

/// `nfcscan info`: how much an object holds and whether it can be changed.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Say how much an object held near a reader can hold, and whether it can be changed.",
        discussion: """
            Changes nothing. The capacity is the largest message `nfcscan write` can save on the \
            object now; a blank object needs `nfcscan write --format` first.

            --json prints: formatted, access (read-write, read-only), capacity and used (bytes), \
            product, password_protected when known, round_trips and the object \
            (Docs/schemas/info.schema.json; a failure prints an ending). The capacity is the one a \
            scan reports.

            While nfcscand runs, it lets go of the readers until nfcscan info ends (background \
            reading pauses: reader-in-use).

            Example:
              nfcscan info --object poster
              nfcscan info --object badge --password 1a2b3c4d

            Exit status: \(ExitStatus.scanSummary)
            """
    )

    @OptionGroup var options: ObjectCommandOptions

    @OptionGroup var password: PasswordOption

    func run() async throws {
        try await ObjectChange(options: options, job: .status(password: password.bytes)).run()
    }

    static func print(_ status: TagStatus, place: ObjectIdentity, options: ObjectCommandOptions) {
        if options.json {
            var fields: [ReportValue.Field] = [
                .init("formatted", .bool(status.formatted)), .init("access", .string(status.access.rawValue)),
                .init("capacity", .int(status.capacity)), .init("used", .int(status.used)),
            ]
            if let product = status.product { fields.append(.init("product", .string(product))) }
            if let protected = status.passwordProtected { fields.append(.init("password_protected", .bool(protected))) }
            fields += [.init("round_trips", .int(status.roundTrips)), .init("object", place.report)]
            writeLine(JSONWriter.string(.object(fields)))
            return
        }
        let copy = ScanCopy.writeCatalog(for: .preferred(), object: options.object)
        if !status.formatted {
            writeLine(copy.isBlank)
        } else {
            writeLine(copy.holds(used: status.used, capacity: status.capacity))
            writeLine(status.access != .readWrite ? copy.cannotBeChanged
                      : status.passwordProtected == true ? copy.changedWithPassword : copy.canBeChanged)
        }
        switch place.genuine {
        case .genuine?: writeLine(copy.isGenuine)
        case .notGenuine?: writeLine(copy.mayNotBeGenuine)
        case nil: break
        }
    }
}
