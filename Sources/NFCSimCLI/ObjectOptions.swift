import ArgumentParser
import CommandLineIO
import NDEF
import NFCSim
import NFCTags

/// What a virtual object holds and when it is near the reader: the options every `nfcsim`
/// subcommand shares, checked and loaded in one place.
struct ObjectOptions: ParsableArguments {
    @Option(help: "Put a link record with this URI on the object.")
    var uri: String?

    @Option(help: "Put a text record (English) on the object.")
    var text: String?

    @Option(help: ArgumentHelp("Put the NDEF message in this file (raw bytes) on the object.", valueName: "file"))
    var ndef: String?

    @Option(help: ArgumentHelp("Use this file as the object's whole memory (Type 2 only: raw pages from page 0, with UID, lock bytes and CC, as nfc-mfultralight r writes it); a shorter file is padded with zeros. The UID is the image's: --uid is ignored.", valueName: "file"))
    var image: String?

    @Option(help: ArgumentHelp("Present the object a dump file describes: a Flipper Zero .nfc file (versions 2 to 4), a Proxmark3 JSON dump (hf mfu, hf mf, hf 15), a Metrodroid JSON dump, or a raw image (.bin, .mfd) with --type. The chip, UID and memory are the file's; what the dump could not read behaves as the chip would.", valueName: "file"))
    var dump: String?

    @Option(help: ArgumentHelp("Keep what readers write: after every change to the object's memory, write it to this file in a format --dump reads, replacing the file atomically. FILE.nfc: a Flipper Zero file, the whole object (NTAG and Ultralight, MIFARE Classic, ISO 15693, FeliCa Lite-S); any other name: the raw memory image, which --dump reads back with --type (a Topaz only this way). Not for Type 4 objects; a symbolic link is refused.", valueName: "file"))
    var save: String?

    @Option(help: ArgumentHelp("The object's 7-byte UID in hex.", valueName: "hex"))
    var uid: String?

    @Flag(help: "Present a blank object, as it leaves the factory: no capability container and no message, so readers find nothing to read and writers must format it first (Type 2 only).")
    var blank = false

    @Option(help: ArgumentHelp("The object's password (PWD, 8 hex digits; the factory's is ffffffff): PWD_AUTH takes this one alone (NTAG21x and Ultralight EV1 only).", valueName: "hex"))
    var password: String?

    @Option(help: ArgumentHelp("Protect the object's memory from page 4 on with its password (--password, else the factory's): write (AUTH0 4), or read (AUTH0 4 and PROT: reading needs the password too) (NTAG21x and Ultralight EV1 only).", valueName: "write|read"))
    var protect: Protection?

    @Option(help: ArgumentHelp("The object's originality signature in hex, what it answers the command that reads it: 32 bytes for an NTAG21x, Ultralight EV1 (mf0ul11, mf0ul21) or ICODE SLIX2, 56 for a type4 object (answering Read_Sig as an NTAG 424 DNA or DESFire does). Without it a made-up chip of those families answers 32 zero bytes, as clone chips typically do (no one but NXP can make a real one), a type4 object does not answer, and a dump answers with its own.", valueName: "hex"))
    var signature: String?

    /// What `--protect` puts behind the password.
    enum Protection: String, ExpressibleByArgument, CaseIterable {
        case write, read
    }

    @Option(name: .customLong("for"), help: ArgumentHelp("Keep the object near the reader this many seconds (default: until interrupted).", valueName: "seconds"))
    var duration: Double?

    @Option(help: ArgumentHelp("Bring the object near the reader only after this many seconds (default: at once).", valueName: "seconds"))
    var after: Double?

    func validate() throws {
        if let duration, !(duration > 0) { throw ValidationError("--for needs a positive number of seconds") }
        if let after, !(after >= 0) { throw ValidationError("--after needs a number of seconds, 0 or more") }
        if ndef != nil, uri != nil || text != nil { throw ValidationError("--ndef replaces --uri and --text; give one or the other") }
        if image != nil, ndef != nil || uri != nil || text != nil { throw ValidationError("--image is the whole memory, message included; give it without --uri, --text or --ndef") }
        if dump != nil, image != nil || ndef != nil || uri != nil || text != nil || uid != nil {
            throw ValidationError("--dump is the whole object, UID and message included; give it without --image, --uri, --text, --ndef or --uid")
        }
        if blank, image != nil || dump != nil || ndef != nil || uri != nil || text != nil {
            throw ValidationError("--blank holds no message; give it without --image, --dump, --uri, --text or --ndef")
        }
        if password != nil || protect != nil, image != nil || dump != nil {
            throw ValidationError("--image and --dump hold the object's password and protection (its PWD, AUTH0 and ACCESS pages); give them without --password or --protect")
        }
        if let password, Self.passwordBytes(password) == nil { throw ValidationError("--password needs 8 hex digits, such as 1a2b3c4d") }
        if let signature, Self.signatureBytes(signature) == nil { throw ValidationError("--signature needs 32 or 56 bytes in hex") }
    }

    /// The check of `--signature` against the object named by `--type`: `length` is the signature
    /// it answers (nil: it has none). A dump's chip is checked when it is loaded (``loadDump(raw:)``).
    func validateSignature(length: Int?) throws {
        guard dump == nil, let bytes = signature.flatMap(Self.signatureBytes) else { return }
        guard let length else {
            throw ValidationError("--signature is for objects with an originality signature: ntag210, ntag212, ntag213, ntag215, ntag216, mf0ul11, mf0ul21, icodeslix2 (32 bytes) or type4 (56)")
        }
        guard bytes.count == length else { throw ValidationError("--signature: this object's signature is \(length) bytes, not \(bytes.count)") }
    }

    /// The signature a Type 2 chip answers: 32 bytes for a signing family, none otherwise.
    static func signatureLength(_ product: Type2Product?) -> Int? {
        product?.originality == nil ? nil : 32
    }

    static func signatureBytes(_ text: String) -> [UInt8]? {
        guard case .success(let bytes) = Hex.decode(text), bytes.count == 32 || bytes.count == 56 else { return nil }
        return bytes
    }

    /// The `--dump` file's object (`raw`: the `--type` of a raw image), with `--signature` in
    /// place of its own; nil without `--dump`.
    func loadDump(raw: RawChip?) throws(ContentFailure) -> Dump? {
        guard let dump else { return nil }
        var loaded = try NFCSimCLI.loadDump(dump, raw: raw)
        loaded.chip = try signed(loaded.chip)
        return loaded
    }

    /// The dumped chip with `--signature` in place of its own: a Type 2 or ISO 15693 chip's 32 bytes.
    func signed(_ chip: DumpedChip) throws(ContentFailure) -> DumpedChip {
        guard let bytes = signature.flatMap(Self.signatureBytes) else { return chip }
        switch chip {
        case .type2(var dump) where bytes.count == 32:
            dump.signature = bytes
            return .type2(dump)
        case .type5(var dump) where bytes.count == 32:
            dump.signature = bytes
            return .type5(dump)
        default:
            throw ContentFailure(status: 64, message: "--signature: the dump's \(chip.name) answers no \(bytes.count)-byte signature; give 32 bytes for an NTAG, Ultralight or ICODE dump")
        }
    }

    /// The check that needs the subcommand's object type.
    func validateImage(allowed: Bool) throws {
        if image != nil, !allowed { throw ValidationError("--image is for Type 2 objects: ntag203, ntag210, ntag212, ntag213, ntag215, ntag216, ultralight, ultralightc, mf0ul11 or mf0ul21") }
        if blank, !allowed { throw ValidationError("--blank is for Type 2 objects: ntag203, ntag210, ntag212, ntag213, ntag215, ntag216, ultralight, ultralightc, mf0ul11 or mf0ul21") }
    }

    /// The check of `--password` and `--protect` against the chip (`product`; nil: not Type 2).
    func validatePassword(product: Type2Product?) throws {
        guard password != nil || protect != nil, product?.configurationPages == nil else { return }
        throw ValidationError("--password and --protect are for chips with a password: ntag210, ntag212, ntag213, ntag215, ntag216, mf0ul11 or mf0ul21")
    }

    static func passwordBytes(_ text: String) -> [UInt8]? {
        guard case .success(let bytes) = Hex.decode(text), bytes.count == 4 else { return nil }
        return bytes
    }

    /// The Type 2 chip the options describe: the `--image` memory as it is, else a `--blank` chip
    /// or one holding the message, with `--password` and `--protect` applied; `--signature` on either.
    func type2Tag(_ product: Type2Product, content: Content) throws -> VirtualType2Tag {
        let uid = content.uid ?? VirtualType2Tag.defaultUID
        var tag = if let image = content.image { try VirtualType2Tag(product: product, image: image) } else if blank {
            try VirtualType2Tag(product: product, image: Type2MemoryImage.blank(product: product, uid: uid))
        } else { try VirtualType2Tag(product: product, uid: uid, message: content.message) }
        if let signature = content.signature { tag.signature = signature }
        guard content.image == nil else { return tag }
        if password != nil || protect != nil, product.configurationPages != nil {
            let chosen = password.flatMap(Self.passwordBytes) ?? [0xFF, 0xFF, 0xFF, 0xFF]
            // Without --protect, AUTH0 stays FF as from the factory: nothing is protected.
            tag.protect(from: protect == nil ? 0xFF : Type2Product.firstUserPage, password: chosen, readsToo: protect == .read)
        }
        return tag
    }

    /// The loaded content: the message (nil: formatted but empty), the `--uid` bytes, the
    /// `--image` memory for a Type 2 `product`, and the `--signature` bytes.
    struct Content {
        var message: NDEFMessage?
        var uid: [UInt8]?
        var image: [UInt8]?
        var signature: [UInt8]?
    }

    func load(product: Type2Product?) throws(ContentFailure) -> Content {
        var content = Content(message: try objectMessage(uri: uri, text: text, ndef: ndef), signature: signature.flatMap(Self.signatureBytes))
        if let uid {
            guard case .success(let bytes) = Hex.decode(uid), bytes.count == 7 else {
                throw ContentFailure(status: 64, message: "--uid needs 7 bytes in hex, such as 04a1b2c3d4e5f6")
            }
            content.uid = bytes
        }
        if let image, let product {
            let loaded = try type2Image(image, product: product)
            content.image = loaded.image
            if let note = loaded.note { writeLine("nfcsim: " + note) }
            if uid != nil { writeLine("nfcsim: --uid is ignored: the UID is the image's (pages 0 and 1)") }
        }
        return content
    }

    /// What keeps `object`'s memory in the `--save` file, when one is named: the file is checked and
    /// written once now, so a name nfcsim cannot use fails before any reader sees the object.
    func saver(for object: Any, kind: String) throws -> SavedObject? {
        guard let save else { return nil }
        do { return try SavedObject(path: save, object: object, kind: kind) } catch {
            printError(error.message); throw ExitCode(error.status)
        }
    }

    /// When the object arrives and leaves, counted from `start`.
    func schedule(from start: ContinuousClock.Instant) -> (arrival: ContinuousClock.Instant?, departure: ContinuousClock.Instant?) {
        let arrival = after.map { start + .milliseconds(Int64($0 * 1000)) }
        return (arrival, duration.map { (arrival ?? start) + .milliseconds(Int64($0 * 1000)) })
    }
}
