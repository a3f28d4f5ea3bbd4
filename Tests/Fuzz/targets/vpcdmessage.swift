// Fuzz target `vpcdmessage`: the byte stream pcscd's vpcd driver sends to `nfcsim vpcd` (2-byte
// length, payload). The first byte sets how the rest is cut into reads; the messages decoded must
// re-encode to exactly the bytes consumed, and what is left pending must be an incomplete message.
import NDEF
import NFCSim

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let first = input.first else { return 0 }
    let bytes = Array(input.dropFirst())
    let chunk = Int(first) + 1
    var decoder = VPCDMessageDecoder()
    var messages: [VPCDMessage] = []
    var index = 0
    while index < bytes.count {
        let end = min(bytes.count, index + chunk)
        messages += decoder.feed(bytes[index..<end])
        index = end
    }
    let encoded = messages.flatMap(\.encoded)
    if encoded[...] != bytes.prefix(encoded.count) { violated("the messages do not re-encode to the bytes consumed", input) }
    if encoded.count + decoder.pendingByteCount != bytes.count { violated("bytes lost or doubled", input) }
    let rest = bytes.dropFirst(encoded.count)
    if rest.count >= 2, rest.count - 2 >= Int(rest[rest.startIndex]) << 8 | Int(rest[rest.startIndex + 1]) {
        violated("a complete message left pending", input)
    }
    for message in messages {
        if VPCDMessage(payload: message.payload) != message { violated("payload \(Hex.string(message.payload)) reads back differently", input) }
        if case .control = message, message.payload.count != 1 { violated("a control message of \(message.payload.count) bytes", input) }
    }
    return 0
}
