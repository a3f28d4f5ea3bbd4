// ndef-bench: decode throughput of the NDEF codec on a fixed corpus.
//
// Usage: ndef-bench CORPUS [SECONDS]
// CORPUS is a sequence of messages, each prefixed by its length as 4 bytes big-endian (what
// Benchmarks/make_corpus.py writes). Every message is decoded strictly and every record's
// payload is decoded into its typed value, the same work ndeflib's message_decoder does.
// Prints one line of figures; Benchmarks/run.sh puts it beside ndeflib's.
// NDEF_BENCH_STRUCTURE_ONLY=1 skips the typed payload decoding (to see where time goes).

import NDEF

#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String, status: Int32) -> Never {
    print("ndef-bench: \(message)")
    exit(status)
}

func readFile(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else { fail("cannot open \(path)", status: 66) }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        if n == 0 { break }
        bytes += buffer[0..<n]
    }
    return bytes
}

func split(_ corpus: [UInt8]) -> [[UInt8]] {
    var messages: [[UInt8]] = []
    var index = 0
    while index + 4 <= corpus.count {
        let length = corpus[index..<index + 4].reduce(0) { $0 << 8 | Int($1) }
        index += 4
        guard index + length <= corpus.count else { break }
        messages.append(Array(corpus[index..<index + length]))
        index += length
    }
    return messages
}

/// Decodes every message once; returns the number of records decoded (so the work cannot be optimised away).
@inline(never)
func decodeAll(_ messages: [[UInt8]], typed: Bool) -> Int {
    var records = 0
    for bytes in messages {
        guard let message = try? NDEFMessage(decoding: bytes) else { continue }
        for record in message.records {
            if !typed || (try? record.content()) != nil { records += 1 }
        }
    }
    return records
}

func format3(_ value: Double) -> String { "\((value * 1000).rounded() / 1000)" }

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: ndef-bench CORPUS [SECONDS]", status: 64) }
let typed = getenv("NDEF_BENCH_STRUCTURE_ONLY") == nil
let messages = split(readFile(arguments[1]))
let seconds = arguments.count > 2 ? Double(arguments[2]) ?? 3 : 3
let totalBytes = messages.reduce(0) { $0 + $1.count }
let recordsPerPass = decodeAll(messages, typed: typed) // warm-up, and the count per pass

let clock = ContinuousClock()
var passes = 0
var check = 0
let start = clock.now
var elapsed = Duration.zero
repeat {
    check &+= decodeAll(messages, typed: typed)
    passes += 1
    elapsed = clock.now - start
} while elapsed < .seconds(seconds)

let secondsTaken = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
let mbPerSecond = Double(totalBytes * passes) / secondsTaken / 1e6
let recordsPerSecond = Double(recordsPerPass * passes) / secondsTaken
print("swift\(typed ? "" : " (structure only)"): \(messages.count) messages, \(totalBytes) bytes, \(recordsPerPass) records per pass; "
      + "\(passes) passes in \(format3(secondsTaken)) s; \(format3(mbPerSecond)) MB/s; \(Int(recordsPerSecond)) records/s; check \(check % 1000)")
