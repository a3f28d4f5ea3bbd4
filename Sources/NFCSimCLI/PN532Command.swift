import ArgumentParser
import CommandLineIO
import NDEF
import NFCSim
import NFCTags
#if canImport(Glibc)
import Glibc
import Synchronization
#endif

/// `nfcsim pn532`: a PN532 on a pseudo-terminal, for libnfc's `pn532_uart` driver.
struct PN532Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pn532",
        abstract: "Emulate a PN532 reader on a pseudo-terminal with a tag (Type 1, 2 or 3) in its field.",
        discussion: """
            nfcsim creates a pseudo-terminal, answers on it as a PN532 chip on a serial line \
            does, and prints the connstring libnfc needs. Any libnfc program then finds the tag, \
            for example:

              $ nfcsim pn532 --uri https://example.com/poster --link /tmp/nfcsim-pn532 &
              LIBNFC_DEVICE=pn532_uart:/tmp/nfcsim-pn532
              $ LIBNFC_DEVICE=pn532_uart:/tmp/nfcsim-pn532 LIBNFC_AUTO_SCAN=false nfc-list
              $ LIBNFC_DEVICE=pn532_uart:/tmp/nfcsim-pn532 nfc-mfultralight r dump.bin

            Take the tag away after 10 seconds but keep the reader, to see removal:

              $ nfcsim pn532 --text "Summer concert" --for 10 --keep-reader

            Start with an empty field and bring the tag in after 3 seconds, for 5 seconds (--for \
            counts from the arrival):

              $ nfcsim pn532 --uri https://example.com --after 3 --for 5

            Content: --uri and --text make one record each (a link first, then the text); \
            --ndef reads a file holding an encoded NDEF message instead. With none of them the \
            tag is formatted but empty.

            --blank presents a Type 2 tag as it leaves the factory, with no capability \
            container: readers find nothing, writers must format it. --password HEX gives an \
            NTAG21x or Ultralight EV1 its password (PWD; the factory's is ffffffff) and \
            --protect write|read puts its memory from page 4 on behind it, for writing or for \
            reading too:

              $ nfcsim pn532 --uri https://example.com/poster --password 1a2b3c4d --protect read

            A Type 2 tag can instead take its whole memory from --image FILE (raw pages from \
            page 0, as nfc-mfultralight r writes them), as it is, malformed or hostile: UID, \
            lock bytes, CC and TLVs are the file's (--uid is ignored). A shorter file is padded \
            with zeros; a longer one is refused.

              $ nfcsim pn532 --type ntag213 --image dump.bin

            Or present a dump: a Flipper Zero .nfc file, a Proxmark3 or Metrodroid JSON dump, \
            or a raw image with --type. The chip, UID and memory are the file's; a MIFARE \
            Classic sector whose key the dump lacks refuses it, as the card would:

              $ nfcsim pn532 --dump Poster.nfc
              $ nfcsim pn532 --type classic1k --dump card.mfd

            --save FILE keeps what a reader writes: FILE is written at start and after every \
            change to the tag's memory, replaced atomically, in a format --dump reads back (.nfc: \
            a Flipper Zero file with the whole tag; any other name: the raw memory, read back \
            with --type; a Topaz only this way).

              $ nfcsim pn532 --dump Poster.nfc --save Written.nfc
              $ nfcsim pn532 --dump Written.nfc

            nfcsim runs until --for has passed (or, with --keep-reader, until interrupted) and \
            stops cleanly on Ctrl-C or SIGTERM.
            """
    )

    enum TagType: String, ExpressibleByArgument, CaseIterable {
        case ntag203, ntag210, ntag212, ntag213, ntag215, ntag216, ultralight, ultralightc, mf0ul11, mf0ul21
        case felica, topaz96, topaz512, classic1k, classic4k

        var product: Type2Product? { namedType2Product(rawValue) }

        /// What a raw `--dump` image of this type holds.
        var raw: RawChip? {
            if let product { return .type2(product) }
            switch self {
            case .felica: return .felica
            case .classic1k, .classic4k: return .classic
            case .topaz96: return .type1(.topaz96)
            case .topaz512: return .type1(.topaz512)
            default: return nil
            }
        }
    }

    @OptionGroup var object: ObjectOptions

    @Option(help: "The tag: ntag213 (the default), ntag203, ntag210, ntag212, ntag215, ntag216, ultralight, ultralightc, mf0ul11 or mf0ul21 (Ultralight EV1) (Type 2), felica (a FeliCa Lite-S, Type 3), topaz96 or topaz512 (Type 1), classic1k or classic4k (MIFARE Classic with MAD and NDEF sectors). With --dump, only for raw images: other dumps name their chip.")
    var type: TagType?

    @Flag(help: "After --for has passed, keep the reader running with an empty field until interrupted.")
    var keepReader = false

    @Option(help: ArgumentHelp("Also make this path a symbolic link to the pseudo-terminal.", valueName: "path"))
    var link: String?

    @Flag(help: "Print every frame on standard error.")
    var trace = false

    @Option(help: ArgumentHelp("Die by SIGKILL when the host's Nth data exchange with the tag (InDataExchange) arrives, before it is answered: a reader whose link is cut in the middle of a read, for fault tests.", valueName: "n"))
    var dieAtExchange: Int?

    func validate() throws {
        try object.validateImage(allowed: (type ?? .ntag213).product != nil)
        try object.validatePassword(product: (type ?? .ntag213).product)
        try object.validateSignature(length: ObjectOptions.signatureLength((type ?? .ntag213).product))
        if keepReader, object.duration == nil { throw ValidationError("--keep-reader only makes sense with --for") }
        if let n = dieAtExchange, n < 1 { throw ValidationError("--die-at-exchange counts from 1") }
    }

    func run() throws {
        let type = self.type ?? .ntag213
        let content: ObjectOptions.Content
        var dumped: Dump?
        do {
            content = try object.load(product: type.product)
            dumped = try object.loadDump(raw: self.type?.raw)
        } catch {
            printError(error.message); throw ExitCode(error.status)
        }
        let message = content.message
        let target: any PN532Target, summary: String
        do {
            if let dumped {
                (target, summary) = try Self.target(dumped, path: object.dump ?? "")
                if self.type != nil, dumped.format != .raw { writeLine("nfcsim: --type is ignored: the chip is the dump's") }
            } else {
            switch type {
            case .felica:
                let tag = try VirtualType3Tag(message: message)
                (target, summary) = (tag.pn532Target, "FeliCa Lite-S IDm \(Hex.spaced(tag.idm))")
            case .topaz96, .topaz512:
                let tag = try VirtualType1Tag(product: type == .topaz96 ? .topaz96 : .topaz512, uid: content.uid ?? VirtualType1Tag.defaultUID, message: message)
                (target, summary) = (tag.pn532Target, "\(tag.product.name) UID \(Hex.spaced(tag.uid))")
            case .classic1k, .classic4k:
                let tag = try VirtualMifareClassic(size: type == .classic1k ? .classic1K : .classic4K,
                                                   uid: content.uid.map { Array($0.suffix(4)) } ?? MifareClassicImage.defaultUID, message: message)
                (target, summary) = (tag.pn532Target, "\(tag.size.name) UID \(Hex.spaced(tag.uid))")
            default:
                let tag = try object.type2Tag(type.product!, content: content)
                (target, summary) = (tag.pn532Target, "\(tag.product.name) UID \(Hex.spaced(tag.uid))")
            }
            }
        } catch let failure as ContentFailure {
            printError(failure.message); throw ExitCode(failure.status)
        } catch {
            printError("cannot build the \(type.rawValue): \(error)"); throw ExitCode(65)
        }
        let saver = try object.saver(for: target, kind: type.rawValue)
        let start = ContinuousClock.now
        let (arrival, departure) = object.schedule(from: start)
        let host: PN532PTYHost
        do {
            host = try PN532PTYHost(emulator: PN532Emulator(target: target, arrival: arrival, departure: departure), link: link)
        } catch {
            printError("\(error)"); throw ExitCode(71)
        }
        if trace { host.trace = { line in printError(line) } }
        if let saver {
            host.afterFrame = { target in saver.update(target) }
            writeLine("nfcsim: " + saver.summary)
        }
        if let dieAtExchange {
            let exchanges = ExchangeCount()
            host.beforeCommand = { code in
                guard code == 0x40 else { return }   // InDataExchange
                if exchanges.next() == dieAtExchange {
                    printError("data exchange \(dieAtExchange) arrived: dying (SIGKILL) before answering it")
                    raise(SIGKILL)
                }
            }
        }
        host.stopOnSignals()
        writeLine("nfcsim: PN532 on \(host.slavePath)\(link.map { " (linked from \($0))" } ?? ""), \(summary)")
        writeLine("LIBNFC_DEVICE=\(host.connstring)")
        let stop: PN532HostStop
        do { stop = try host.run(until: keepReader ? nil : departure) } catch {
            printError("\(error)"); host.shutdown(); throw ExitCode(71)
        }
        host.shutdown()
        switch stop {
        case .deadline: writeLine("nfcsim: the tag left the field; stopping")
        case .signal, .stopped: writeLine("nfcsim: stopped")
        }
        if let saver, !saver.finish() { throw ExitCode(74) }
    }

    /// The PN532 target a dump describes: Type 2, MIFARE Classic and FeliCa; an ISO 15693 chip is
    /// out of a PN532's reach.
    static func target(_ dump: Dump, path: String) throws -> (any PN532Target, String) {
        let from = "from the \(dump.format.rawValue) dump"
        switch dump.chip {
        case .type2(let chip):
            let tag = try chip.virtualTag()
            return (tag.pn532Target, "\(tag.product.name) UID \(Hex.spaced(tag.uid)) \(from)")
        case .classic(let chip):
            let tag = try chip.virtualChip()
            return (tag.pn532Target, "\(tag.size.name) UID \(Hex.spaced(tag.uid)) \(from)")
        case .felica(let chip):
            let tag = try chip.virtualTag()
            return (tag.pn532Target, "FeliCa IDm \(Hex.spaced(tag.idm)) \(from)")
        case .type1(let chip):
            let tag = chip.virtualTag()
            return (tag.pn532Target, "\(tag.product.name) UID \(Hex.spaced(tag.uid)) \(from)")
        case .type5(let chip):
            throw ContentFailure(status: 65, message: "\(path) holds an ISO 15693 object (\(chip.product.name)), which a PN532 cannot read; present it through PC/SC with nfcsim vpcd --dump \(path)")
        }
    }
}

func printError(_ line: String) { writeLine("nfcsim: " + line, to: .error) }

/// Counts the host's data exchanges.
private final class ExchangeCount: Sendable {
    private let count = Atomic<Int>(0)
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
}
