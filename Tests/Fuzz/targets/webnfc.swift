// Fuzz target `webnfc`: what nfcscan's web host reads from the browser (the native messaging
// framing, the extension's JSON messages, a page's records to write) and what it turns an
// object's message into for a page (WebNFC). The extension is ours, but a page may change the
// script that builds the messages, so every byte is untrusted; an object's message is too.
//
// The input is read three ways. Beyond "no crash":
// - as framed messages: none accepted over the bound; each is a request or refused as malformed,
//   and the host's machine takes any sequence of them;
// - a write's records, when accepted, make an NDEF message that decodes strictly and reads back
//   as records again;
// - as an NDEF message: its records for a page, as a reading, fit the browsers' 1 MiB bound for
//   a host's message (a larger one becomes a readingerror).
import NDEF
import AppIdentity
import WebNFC

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    var reader = NativeMessageReader()
    var machine = HostMachine()
    _ = machine.handle(.page(.hello(origin: WebOrigin("https://example.com")!, language: "en")))
    _ = machine.handle(.page(.focus(active: true, visible: true)))
    if let messages = try? reader.take(input) {
        for json in messages {
            if json.count > NativeMessageReader.maximumMessageLength { violated("a message over the bound", input) }
            // Each message also as a request alone, unframed.
            guard let request = try? PageRequest(json: json) else { continue }
            if case .write(_, let records, _) = request, let message = try? WebRecordMapping.message(records) {
                guard let decoded = try? NDEFMessage(decoding: message.encoded()) else {
                    violated("accepted records make a message that does not decode", input)
                    continue
                }
                _ = WebRecordMapping.records(decoded)
            }
            _ = machine.handle(.page(request))
        }
    }
    if let request = try? PageRequest(json: input) { _ = machine.handle(.page(request)) }
    if let message = try? NDEFMessage(decoding: input) {
        let json = PageEvent.reading(id: 1, serialNumber: "04:a1", records: WebRecordMapping.records(message)).json()
        if json.count > PageEvent.maximumLength { violated("a reading over the browsers' bound", input) }
    }
    return 0
}
