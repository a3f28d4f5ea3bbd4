import NDEF
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

/// The whole contents of the file at `path`.
func readBytes(_ path: String) throws(ContentFailure) -> [UInt8] {
    guard let file = fopen(path, "rb") else {
        throw ContentFailure(status: 66, message: "cannot open \(path): \(String(cString: strerror(errno)))")
    }
    defer { fclose(file) }
    var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&chunk, 1, chunk.count, file)
        if n == 0 { break }
        bytes += chunk[0..<n]
    }
    guard ferror(file) == 0 else { throw ContentFailure(status: 66, message: "cannot read \(path)") }
    return bytes
}

/// A Type 2 chip's raw memory from `--image FILE` (every page from page 0: UID, lock bytes, CC,
/// data area, configuration), taken as it is. A shorter file is padded with zeros (and `note`
/// says so); a longer one is refused.
func type2Image(_ path: String, product: Type2Product) throws(ContentFailure) -> (image: [UInt8], note: String?) {
    var image = try readBytes(path)
    let size = product.totalPages * Type2Product.pageSize
    guard image.count <= size else {
        throw ContentFailure(status: 65, message: "\(path) has \(image.count) bytes, more than the \(product.name)'s memory (\(size) bytes, \(product.totalPages) pages of 4); give an image of at most \(size) bytes or another --type")
    }
    var note: String?
    if image.count < size {
        note = "\(path) has \(image.count) bytes, the \(product.name)'s memory \(size); the other \(size - image.count) are zeros"
        image += [UInt8](repeating: 0, count: size - image.count)
    }
    return (image, note)
}
