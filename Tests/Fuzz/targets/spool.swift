// Fuzz target `spool`: what nfcscand reads back from the broker's spool, which anyone able to
// write the person's files (or a crash, or a torn write) may have left there: the `counters` file
// (SpoolCounters.read) and a pending entry (SpoolDirectory.payload). The first 8 bytes are the
// entry's seq (little-endian), the rest the file's bytes.
//
// Beyond "no trap" (the crash loop of issue 20 was one arithmetic overflow): counters accepted
// hold a next seq in 1...2^53, a book made from them never hands out a seq beyond that nor one it
// handed out before, and the slot they came from reads back the same; an entry is accepted only
// as the event its name says, valid UTF-8 between braces.
@testable import NFCDaemon

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard input.count >= 8 else { return 0 }
    let seq = input.prefix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    let bytes = Array(input.dropFirst(8))

    var next: UInt64?
    switch SpoolCounters.read(bytes) {
    case .counters(let counters):
        next = counters.nextSeq
        if SpoolCounters.read(counters.slot + counters.slot) != .counters(counters) {
            violated("counters \(counters) do not read back from their own slot", input)
        }
    case .legacy(let nextSeq, _):
        next = nextSeq
    case .invalid(let reason):
        if reason.isEmpty { violated("a refusal without a reason", input) }
    }
    if let next {
        if !(1...SpoolCounters.maximumSeq).contains(next) { violated("accepted a next seq \(next)", input) }
        var book = SpoolBook(capacity: 4, pending: [seq % SpoolCounters.maximumSeq], nextSeq: next)
        var given: Set<UInt64> = Set(book.pending)
        for _ in 0..<6 {
            guard let (added, _) = book.add() else { break }
            if added >= SpoolCounters.maximumSeq || !given.insert(added).inserted { violated("handed out seq \(added) again or beyond the bound", input) }
        }
    }

    if let payload = SpoolDirectory.payload(bytes, seq: seq) {
        if payload.first != "{" || payload.last != "}" || !payload.contains("\"seq\":\(seq),") {
            violated("accepted an entry that is not event \(seq): \(payload.prefix(80).debugDescription)", input)
        }
    }
    return 0
}
