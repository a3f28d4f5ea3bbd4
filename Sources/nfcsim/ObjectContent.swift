import NDEF
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
        guard let file = fopen(ndef, "rb") else {
            throw ContentFailure(status: 66, message: "cannot open \(ndef): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
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
