/// Why an object cannot be kept in the file `--save` names, and what the person can do instead.
public struct DumpSaveError: Error, Hashable, Sendable, CustomStringConvertible {
    public var problem: String
    public var remedy: String

    public init(problem: String, remedy: String) {
        self.problem = problem
        self.remedy = remedy
    }

    public var description: String { "\(problem); \(remedy)" }
}

/// The format `nfcsim --save FILE` writes, from FILE's extension: each is one `--dump` reads back.
public enum DumpSaveFormat: Hashable, Sendable {
    /// `.nfc`: a Flipper Zero file, version 4. Keeps the whole object: chip, UID, ATQA/SAK,
    /// GET_VERSION, signature, counters, unknown keys, pages the chip refuses to read. No Topaz.
    case flipper
    /// Any other extension (`.bin`, `.mfd`, …): the memory alone, as `nfc-mfultralight r` and
    /// `nfc-mfclassic r` write it; reading it back needs `--type`, and the identity the memory
    /// does not hold (a FeliCa's IDm, an ISO 15693 UID, a 7-byte Classic UID) is the type's
    /// default. A Topaz's whole memory holds all of it.
    case raw

    public init(path: String) throws(DumpSaveError) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let suffix = name.split(separator: ".").count > 1 ? name.split(separator: ".").last!.lowercased() : ""
        switch suffix {
        case "nfc": self = .flipper
        case "json":
            throw DumpSaveError(problem: "nfcsim does not write JSON dumps", remedy: "name the file .nfc (Flipper Zero, the whole object) or .bin (the memory alone)")
        default: self = .raw
        }
    }
}

extension DumpFile {
    /// The file `--save` writes for `chip`, in `format`; ``parse(_:raw:)`` reads it back to the
    /// same chip (for a raw image, given the chip's `--type`).
    public static func serialise(_ chip: DumpedChip, as format: DumpSaveFormat) throws(DumpSaveError) -> [UInt8] {
        switch format {
        case .flipper: Array(try FlipperDumpWriter.write(chip).utf8)
        case .raw: RawDumpWriter.write(chip)
        }
    }
}

/// Raw images: the memory and nothing else, as ``RawDump`` reads it.
enum RawDumpWriter {
    static func write(_ chip: DumpedChip) -> [UInt8] {
        switch chip {
        case .type2(let dump): dump.memory
        case .classic(let dump): dump.memory
        case .type5(let dump): dump.memory
        case .felica(let dump): dump.blocks
        case .type1(let dump): dump.memory
        }
    }
}

/// An object whose memory `nfcsim --save` can keep: the chip as a dump describes it, now.
public protocol DumpableObject {
    /// The object as a dump file holds it, with every change a reader made so far.
    var dumpedChip: DumpedChip { get }
}

