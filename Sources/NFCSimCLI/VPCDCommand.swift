import ArgumentParser
import CommandLineIO
import NDEF
import NFCSim
import NFCTags
#if canImport(Glibc)
import Glibc
#endif

/// `nfcsim vpcd`: a virtual card in a vpcd reader of pcscd.
struct VPCDCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vpcd",
        abstract: "Put a virtual NFC object into a pcscd reader through the vsmartcard vpcd driver.",
        discussion: """
            pcscd's vpcd driver (Debian package vsmartcard-vpcd) offers a reader that waits on a \
            TCP port; nfcsim connects to it and the reader then holds a card: an NTAG or Ultralight \
            as a PC/SC contactless storage card (the Part 3 ATR, FF CA for the UID, FF B0 for \
            pages), or an ISO-DEP object with the NFC Forum Type 4 application (ATR 3B 81 80 01 80 \
            80, plain APDUs). When nfcsim closes the connection the card leaves the reader. Every \
            PC/SC program (pcsc_scan, pyscard, nfcscan) sees it as a card on a real reader. pcscd \
            notices a card within about half a second.

            nfcsim only connects to --host (127.0.0.1 unless told otherwise); it listens on \
            nothing and changes no setting.

            A private pcscd (recommended): the vpcd driver listens on every network interface \
            (0.0.0.0), and Debian's /etc/reader.conf.d/vpcd makes the system pcscd do so on ports \
            35963 and 35964. To keep that off the network, scripts/private-pcscd.sh runs a pcscd \
            of your own with a vpcd reader inside a private network and mount namespace \
            (unshare -r -m -n: no root needed, a private /run, loopback only, the reader.conf in a \
            temporary directory). It prints the socket clients use and runs a command inside:

              $ scripts/private-pcscd.sh -- nfcsim vpcd --uri https://example.com/poster --for 30
              PCSCLITE_CSOCK_NAME=/tmp/nfcsim-pcscd.XXXXXX/run/pcscd/pcscd.comm
              $ PCSCLITE_CSOCK_NAME=/tmp/nfcsim-pcscd.XXXXXX/run/pcscd/pcscd.comm pcsc_scan

            With the system pcscd and its vpcd reader (port 35963, the default):

              $ nfcsim vpcd --text "Summer concert in the park" --type ntag215
              $ pcsc_scan

            An ISO-DEP (Type 4) object, arriving after 2 seconds and staying 5:

              $ nfcsim vpcd --type type4 --uri https://example.com --after 2 --for 5

            Content: --uri and --text make one record each (a link first, then the text); --ndef \
            reads a file holding an encoded NDEF message instead. With none of them the object is \
            formatted but empty; with --blank (an NTAG or Ultralight) it is as it leaves the \
            factory, not even formatted. --password HEX gives an NTAG21x or Ultralight EV1 its \
            password (the factory's is ffffffff) and --protect write|read puts its memory from \
            page 4 on behind it. An NTAG or Ultralight can instead take its whole memory from \
            --image FILE (raw pages from page 0, as nfc-mfultralight r writes them), as it is, \
            malformed or hostile: UID, lock bytes, CC and TLVs are the file's (--uid is ignored); a \
            shorter file is padded with zeros, a longer one refused. --dump FILE presents a Flipper \
            Zero .nfc file, a Proxmark3 or Metrodroid JSON dump, or a raw image with --type (an \
            ISO 15693 chip's user memory with --type icodeslix2, for example), the chip and UID \
            from the file. --save FILE keeps what a reader writes, in a format --dump reads \
            back (.nfc: a Flipper Zero file with the whole object; any other name: the raw \
            memory, read back with --type; a Topaz only this way), replaced atomically after \
            every change; Type 4 objects cannot be saved. nfcsim runs until --for has passed and stops cleanly on Ctrl-C or \
            SIGTERM; either way the card leaves the reader.
            """
    )

    enum ObjectType: String, ExpressibleByArgument, CaseIterable {
        case ntag203, ntag210, ntag212, ntag213, ntag215, ntag216, ultralight, ultralightc, mf0ul11, mf0ul21
        case type4, classic1k, classic4k, icodeslix, icodeslix2, st25dv04k, topaz96, topaz512, felica

        var product: Type2Product? { namedType2Product(rawValue) }

        var type5Product: Type5Product? {
            switch self {
            case .icodeslix: .icodeSLIX
            case .icodeslix2: .icodeSLIX2
            case .st25dv04k: .st25dv04k
            default: nil
            }
        }

        /// The bytes of the originality signature this object answers, nil for none.
        var signatureLength: Int? {
            switch self {
            case .type4: Type4Tag.signatureLength
            case .icodeslix2: 32
            default: ObjectOptions.signatureLength(product)
            }
        }

        /// What a raw `--dump` image of this type holds.
        var raw: RawChip? {
            if let product { return .type2(product) }
            if let type5Product { return .type5(type5Product) }
            switch self {
            case .classic1k, .classic4k: return .classic
            case .topaz96: return .type1(.topaz96)
            case .topaz512: return .type1(.topaz512)
            case .felica: return .felica
            default: return nil
            }
        }
    }

    @OptionGroup var object: ObjectOptions

    @Option(help: "The object: ntag213 (the default), ntag203, ntag210, ntag212, ntag215, ntag216, ultralight, ultralightc, mf0ul11 or mf0ul21 (Ultralight EV1) (Type 2), type4 (ISO-DEP), classic1k or classic4k (MIFARE Classic with MAD and NDEF sectors), icodeslix, icodeslix2 or st25dv04k (Type 5, ISO 15693), topaz96 or topaz512 (Type 1) or felica (a FeliCa Lite-S, Type 3): Types 1 and 3 only a reader's pass-through reads (--reader acr122u; part3 for FeliCa). With --dump, only for raw images: other dumps name their chip.")
    var type: ObjectType?

    @Option(help: "The reader it plays: storage-card (storage-card commands only, the default), acr122u (also direct transmit to its PN532) or part3 (also PC/SC Part 3 transparent exchange).")
    var reader: VPCDReaderPersonality = .storageCard

    @Option(help: "The vpcd reader's TCP port (the DEVICENAME /dev/null:PORT of its reader.conf entry).")
    var port: Int = 35963

    @Option(help: "Where pcscd runs. vpcd has no authentication: keep this on the local machine.")
    var host: String = "127.0.0.1"

    @Flag(help: "Print every message between pcscd and the card on standard error.")
    var trace = false

    func validate() throws {
        try object.validateImage(allowed: (type ?? .ntag213).product != nil)
        try object.validatePassword(product: (type ?? .ntag213).product)
        try object.validateSignature(length: (type ?? .ntag213).signatureLength)
        if !(1...65535).contains(port) { throw ValidationError("--port needs a TCP port, 1 to 65535") }
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
        let message = content.message, uidBytes = content.uid
        let card: any VPCDCard
        let summary: String
        do {
            if let dumped {
                (card, summary) = try Self.card(dumped, path: object.dump ?? "", reader: reader)
                if self.type != nil, dumped.format != .raw { writeLine("nfcsim: --type is ignored: the chip is the dump's") }
            } else if let product = type.product {
                let tag = try object.type2Tag(product, content: content)
                card = reader.present(VPCDType2Card(tag: tag))
                summary = "\(product.name) UID \(Hex.spaced(tag.uid)) \(reader.summary)"
            } else if type == .classic1k || type == .classic4k {
                let chip = try VirtualMifareClassic(size: type == .classic1k ? .classic1K : .classic4K,
                                                    uid: uidBytes.map { Array($0.suffix(4)) } ?? MifareClassicImage.defaultUID, message: message)
                card = reader.present(VPCDMifareClassicCard(chip: chip))
                summary = "\(chip.size.name) UID \(Hex.spaced(chip.uid)) \(reader.summary)"
            } else if type == .topaz96 || type == .topaz512 {
                let tag = try VirtualType1Tag(product: type == .topaz96 ? .topaz96 : .topaz512, uid: uidBytes ?? VirtualType1Tag.defaultUID, message: message)
                card = reader.present(tag.vpcdCard)
                summary = "\(tag.product.name) UID \(Hex.spaced(tag.uid)) \(reader.summary)"
            } else if type == .felica {
                let tag = try VirtualType3Tag(message: message)
                card = reader.present(tag.vpcdCard)
                summary = "FeliCa Lite-S IDm \(Hex.spaced(tag.idm)) \(reader.summary)"
            } else if let product = type.type5Product {
                var chip = try VirtualType5Tag(product: product, message: message)
                if let signature = content.signature { chip.signature = signature }
                card = VPCDType5Card(chip: chip)
                summary = "\(chip.product.name) (ISO 15693) UID \(Hex.spaced(chip.uid)) as a PC/SC contactless storage card"
            } else {
                var object = try VirtualType4Tag(message: message)
                object.signature = content.signature
                let type4 = VPCDType4Card(object: object, uid: uidBytes ?? VirtualType4Tag.pn532DefaultUID)
                card = type4
                summary = "Type 4 (ISO-DEP) object UID \(Hex.spaced(type4.uid))"
            }
        } catch let failure as ContentFailure {
            printError(failure.message); throw ExitCode(failure.status)
        } catch {
            printError("cannot build the \(type.rawValue): \(error)"); throw ExitCode(65)
        }
        let saver = try object.saver(for: card, kind: type.rawValue)
        let client: VPCDClient
        do { client = try VPCDClient(card: card, host: host, port: UInt16(port)) } catch {
            printError("\(error)"); throw ExitCode(71)
        }
        if trace { client.trace = { line in printError(line) } }
        client.onArrival = { writeLine("nfcsim: the card is in the reader") }
        if let saver {
            client.afterMessage = { card in saver.update(card) }
            writeLine("nfcsim: " + saver.summary)
        }
        client.stopOnSignals()
        writeLine("nfcsim: \(summary), ATR: \(Hex.spaced(card.atr, uppercase: true))")
        writeLine("nfcsim: vpcd reader at \(host) port \(port)\(object.after.map { ", arriving in \($0) s" } ?? "")")
        let start = ContinuousClock.now
        let (arrival, departure) = object.schedule(from: start)
        let stop: VPCDStop
        do { stop = try client.run(arrival: arrival, departure: departure) } catch {
            printError("\(error)"); client.shutdown(); throw ExitCode(69)
        }
        client.shutdown()
        let kept = saver?.finish() ?? true
        switch stop {
        case .departed, .objectLeft: writeLine("nfcsim: the card left the reader; stopping")
        case .signal, .stopped: writeLine("nfcsim: stopped")
        case .driverClosed:
            printError("pcscd closed the connection (it stopped, or dropped the reader)")
            throw ExitCode(69)
        }
        if !kept { throw ExitCode(74) }
    }

    /// The PC/SC card a dump describes, in `reader`: Type 2, MIFARE Classic and ISO 15693 as
    /// storage cards; a FeliCa only where the reader passes frames to it.
    static func card(_ dump: Dump, path: String, reader: VPCDReaderPersonality) throws -> (any VPCDCard, String) {
        let from = "from the \(dump.format.rawValue) dump, \(reader.summary)"
        switch dump.chip {
        case .type2(let chip):
            let tag = try chip.virtualTag()
            return (reader.present(VPCDType2Card(tag: tag)), "\(tag.product.name) UID \(Hex.spaced(tag.uid)) \(from)")
        case .classic(let chip):
            let tag = try chip.virtualChip()
            return (reader.present(VPCDMifareClassicCard(chip: tag)), "\(tag.size.name) UID \(Hex.spaced(tag.uid)) \(from)")
        case .type5(let chip):
            let tag = try chip.virtualTag()
            let summary = "\(tag.product.name) (ISO 15693) UID \(Hex.spaced(tag.uid)) from the \(dump.format.rawValue) dump, as a PC/SC contactless storage card"
            return (VPCDType5Card(chip: tag), summary)
        case .type1(let chip):
            guard reader != .storageCard else {
                throw ContentFailure(status: 65, message: "\(path) holds a Topaz, which a storage-card reader cannot read; use nfcsim vpcd --reader acr122u --dump \(path) --type \(chip.product.rawValue), or nfcsim pn532")
            }
            let tag = chip.virtualTag()
            return (reader.present(tag.vpcdCard), "\(tag.product.name) UID \(Hex.spaced(tag.uid)) \(from)")
        case .felica(let chip):
            guard reader != .storageCard else {
                throw ContentFailure(status: 65, message: "\(path) holds a FeliCa, which a storage-card reader cannot read; use nfcsim vpcd --reader acr122u (or part3) --dump \(path), or nfcsim pn532 --dump \(path)")
            }
            let tag = try chip.virtualTag()
            return (reader.present(tag.vpcdCard), "FeliCa IDm \(Hex.spaced(tag.idm)) \(from)")
        }
    }
}

extension VPCDReaderPersonality: ExpressibleByArgument {
    /// How the start line names the reader.
    var summary: String {
        switch self {
        case .storageCard: "as a PC/SC contactless storage card"
        case .acr122u: "in an ACR122U (storage card and direct transmit)"
        case .part3: "in a PC/SC Part 3 reader (storage card and transparent exchange)"
        }
    }
}
