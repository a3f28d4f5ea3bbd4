import NDEF
import NFCSim
import CommandLineIO
import NFCTags
#if canImport(Glibc)
import Glibc
#endif

/// A failure that ends the command with `status` after printing `message`.
struct ContentFailure: Error {
    var status: Int32
    var message: String
}

/// The NDEF message a virtual object holds, from `--ndef FILE` (encoded message bytes) or from
/// `--uri` and `--text` (one record each, the link first); nil when none is given.
func objectMessage(uri: String?, text: String?, ndef: String?) throws(ContentFailure) -> NDEFMessage? {
    if let ndef {
        let bytes = try readBytes(ndef)
        do { return try NDEFMessage(decoding: bytes) } catch {
            throw ContentFailure(status: 65, message: "\(ndef) is not an NDEF message: \(error)")
        }
    }
    var records: [NDEFRecord] = []
    if let uri { records.append(URIRecord(uri: uri).record()) }
    if let text {
        do { records.append(try TextRecord(text: text).record()) } catch {
            throw ContentFailure(status: 65, message: "cannot encode the text: \(error)")
        }
    }
    return records.isEmpty ? nil : NDEFMessage(records: records)
}

/// The whole contents of the file at `path`; a file longer than `limit` bytes is refused.
func readBytes(_ path: String, limit: Int = DumpLimits.fileBytes) throws(ContentFailure) -> [UInt8] {
    guard let file = fopen(path, "rb") else {
        throw ContentFailure(status: 66, message: "cannot open \(path): \(String(cString: strerror(errno)))")
    }
    defer { fclose(file) }
    var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&chunk, 1, chunk.count, file)
        if n == 0 { break }
        bytes += chunk[0..<n]
        guard bytes.count <= limit else {
            throw ContentFailure(status: 65, message: "\(path) is longer than \(limit) bytes, more than any object holds; give the file of one object")
        }
    }
    guard ferror(file) == 0 else { throw ContentFailure(status: 66, message: "cannot read \(path)") }
    return bytes
}

/// A Type 2 chip's raw memory from `--image FILE` (every page from page 0: UID, lock bytes, CC,
/// data area, configuration), taken as it is. A shorter file is padded with zeros (and `note`
/// says so); a longer one is refused.
func type2Image(_ path: String, product: Type2Product) throws(ContentFailure) -> (image: [UInt8], note: String?) {
    let bytes = try readBytes(path)
    let size = product.totalPages * Type2Product.pageSize
    guard let (image, padded) = Type2MemoryImage.padded(bytes, product: product) else {
        throw ContentFailure(status: 65, message: "\(path) has \(bytes.count) bytes, more than the \(product.name)'s memory (\(size) bytes, \(product.totalPages) pages of 4); give an image of at most \(size) bytes or another --type")
    }
    return (image, padded == 0 ? nil : "\(path) has \(bytes.count) bytes, the \(product.name)'s memory \(size); the other \(padded) are zeros")
}

/// The object a `--dump` file describes; `raw` is the chip `--type` names, for raw images. Notes
/// about what the dump could not read go to standard output.
func loadDump(_ path: String, raw: RawChip?) throws(ContentFailure) -> Dump {
    let bytes = try readBytes(path)
    let dump: Dump
    do { dump = try DumpFile.parse(bytes, raw: raw) } catch {
        throw ContentFailure(status: 65, message: "\(path), \(error)")
    }
    for note in dump.notes { writeLine("nfcsim: \(path): \(note)") }
    return dump
}

/// The Type 2 chip a `--type` value names, for both subcommands; nil for other objects.
func namedType2Product(_ name: String) -> Type2Product? {
    switch name {
    case "ntag203": Type2Dump.product(name: "NTAG203", version: nil, pageCount: 42)
    case "ntag210": .ntag210
    case "ntag212": .ntag212
    case "ntag213": .ntag213
    case "ntag215": .ntag215
    case "ntag216": .ntag216
    case "ultralight": .ultralight
    case "ultralightc": Type2Dump.product(name: "MIFARE Ultralight C", version: nil, pageCount: 48)
    case "mf0ul11": .ultralightEV1_48
    case "mf0ul21": .ultralightEV1_128
    default: nil
    }
}
