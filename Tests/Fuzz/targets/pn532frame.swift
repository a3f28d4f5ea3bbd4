// Fuzz target `pn532frame`: what a host (libnfc's pn532_uart, or anything on the pseudo-terminal)
// writes to the emulated PN532. The first byte sets how the rest is cut into reads (the decoder
// must give the same items however the bytes arrive); every decoded item is handed to a
// PN532Emulator with an object in its field, and every answer must decode back to an ACK and a
// chip-to-host frame or the error frame.
import NDEF
import NFCSim

/// An ISO-DEP object that answers every frame with the frame reversed, so InDataExchange,
/// InCommunicateThru and the block layer all have something to carry.
struct EchoTarget: PN532Target {
    var identity: PN532TargetIdentity {
        .iso14443A(sensRes: [0x03, 0x44], selRes: 0x20, nfcid1: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66], ats: [0x05, 0x75, 0x77, 0x81, 0x02])
    }
    var isPresent: Bool { true }
    mutating func activate() -> Bool { true }
    mutating func exchange(_ command: [UInt8]) -> PN532TargetReply {
        command.first == 0x00 ? .silence : command.count == 1 ? .nak(command[0]) : .data(command.reversed())
    }
}

func decodeAll(_ bytes: [UInt8], chunk: Int) -> (items: [PN532DecodedItem], pending: Int) {
    var decoder = PN532FrameDecoder()
    var items: [PN532DecodedItem] = []
    var index = 0
    while index < bytes.count {
        let end = min(bytes.count, index + chunk)
        items += decoder.feed(bytes[index..<end])
        index = end
    }
    return (items, decoder.pendingByteCount)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let first = input.first else { return 0 }
    let bytes = Array(input.dropFirst())
    let whole = decodeAll(bytes, chunk: max(bytes.count, 1))
    let cut = decodeAll(bytes, chunk: Int(first % 16) + 1)
    if whole.items != cut.items { violated("decoding in reads of \(Int(first % 16) + 1) bytes gives other items", input) }
    if whole.pending > bytes.count { violated("more bytes pending than fed", input) }

    var emulator = PN532Emulator(target: EchoTarget())
    for item in whole.items {
        // A decoded frame encodes to bytes that decode to it again; except TFI 7F with no data
        // (possible as an extended frame), whose normal form is the error frame's bytes by definition.
        if case .frame(.information(let tfi, let body)) = item, !(tfi == 0x7F && body.isEmpty) {
            let again = decodeAll(PN532Frame.information(tfi: tfi, data: body).encoded, chunk: 1)
            if again.items != [item] || again.pending != 0 { violated("frame \(Hex.string(body)) does not survive re-encoding", input) }
        }
        let answer = emulator.handle(item)
        _ = emulator.tick()
        guard !answer.immediate.isEmpty else { continue }
        let replies = decodeAll(answer.immediate, chunk: answer.immediate.count)
        // The decoder keeps a final 00 (it could start the next frame's start code): the postamble.
        if replies.pending > 1 || (replies.pending == 1 && answer.immediate.last != 0x00) {
            violated("the chip's answer leaves \(replies.pending) bytes undecoded", input)
        }
        for reply in replies.items {
            switch reply {
            case .frame(.ack), .frame(.error): continue
            case .frame(.information(let tfi, _)) where tfi == PN532Frame.chipToHost: continue
            default: violated("the chip answered \(reply)", input)
            }
        }
    }
    return 0
}
