// Fuzz target `passthrough`: what a PC/SC reader answers through its pass-through (ACR122U direct
// transmit, Part 3 transparent exchange), and the BER-TLV data objects inside. The answer the tag
// protocols get is never longer than the response, and data objects that parse re-encode to a
// canonical form that parses to the same objects.
import NDEF
import NFCTags

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    if let objects = BERDataObject.parse(input) {
        let canonical = objects.flatMap(\.encoded)
        if canonical.count > input.count { violated("canonical data objects longer than the input", input) }
        if BERDataObject.parse(canonical) != objects { violated("data objects do not survive re-encoding", input) }
    }
    _ = ReaderPassThrough.answersDirectTransmit(input)
    _ = ReaderPassThrough.sessionAccepted(input)
    for way in [ReaderPassThrough.directTransmit, .transparentExchange] {
        for platform in [TagPlatform.type1, .type2, .type3] {
            do {
                let answer = try way.answer(input, platform: platform)
                if answer.count > input.count { violated("\(way) answer longer than the response", input) }
                if way == .directTransmit, answer.count > input.count - 5, answer != [0x00] {
                    violated("direct transmit answer overlaps its D5 header or status word", input)
                }
            } catch {
                _ = error.description
            }
        }
    }
    return 0
}
