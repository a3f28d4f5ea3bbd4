// Fuzz target `tagread`: whatever an object answers. Each type's read (Types 1 to 5 and MIFARE
// Classic) runs over a transport whose every answer comes from the fuzzer's bytes. The read must
// end (no loop: it stops asking once the object is gone), must not crash, and a message (or an
// originality signature) it returns can only be made of bytes the object sent. The same for each platform's driver asked
// for its status, to write a message or to make the object read-only: it ends, never crashes,
// and stops once the object is gone.
//
// Input: byte 0 picks the platform (modulo 6: Type 1, 2, 3, 4, 5, Classic) and the operation
// (byte 0 / 6, modulo 5: 0 the read, 1 the driver's status, 2 a write of a short message, 3 a
// write of a 300-byte one, 4 make read-only), byte 1 the link (bit 0:
// Type 2 extensions pass; bit 1: extended-length APDUs; bits 2-4: the largest response, one of
// 16, 18, 64, 252, 258, 65 538 bytes; bit 5: Type 5 without GET SYSTEM INFORMATION; bits 6-7: the
// Classic's size). Then one answer per exchange: a control byte whose low 3 bits say what
// happens (0-3 an answer, 4 a timeout, 5 the object gone, 6 a protocol error, 7 "not
// supported"), and for an answer a length byte (bit 7 of the control byte: length × 16 plus bits
// 3-6, up to 4 095) and that many bytes. Once the input is used up the object is gone.
#if canImport(Glibc)
import Glibc
#endif
import NDEF
import NFCTags
import Synchronization

/// Answers from a script of bytes; counts what it was asked.
final class ScriptedTransport: TagTransport {
    struct State {
        var script: ArraySlice<UInt8>
        var exchanges = 0
        var answered = 0
        /// Exchanges asked after the object was gone.
        var afterGone = 0
    }

    let capabilities: LinkCapabilities
    let state: Mutex<State>

    init(capabilities: LinkCapabilities, script: ArraySlice<UInt8>) {
        self.capabilities = capabilities
        state = Mutex(State(script: script))
    }

    func transceive(_ command: [UInt8]) async throws(TransportError) -> [UInt8] {
        let outcome = state.withLock { state -> Result<[UInt8], TransportError> in
            state.exchanges += 1
            guard let control = state.script.popFirst() else {
                state.afterGone += 1
                return .failure(.objectRemoved)
            }
            switch control & 0x07 {
            case 4: return .failure(.timeout)
            case 5: return .failure(.objectRemoved)
            case 6: return .failure(.protocolError("fuzzed"))
            case 7: return .failure(.notSupported("fuzzed"))
            default:
                var length = Int(state.script.popFirst() ?? 0)
                if control & 0x80 != 0 { length = length << 4 | Int(control >> 3 & 0x0F) }
                let answer = Array(state.script.prefix(length))
                state.script = state.script.dropFirst(length)
                state.answered += answer.count
                return .success(answer)
            }
        }
        return try outcome.get()
    }

    func reactivate() async throws(TransportError) {
        let gone = state.withLock { state -> Bool in
            guard let control = state.script.popFirst() else { state.afterGone += 1; return true }
            return control & 1 == 1
        }
        if gone { throw .objectRemoved }
    }
}

/// A driver's operation (`operation` 1-4), run to its end; any outcome is fine as long as it ends.
func drive(_ kind: UInt8, operation: UInt8, link: UInt8, over transport: ScriptedTransport) async -> String {
    let platforms: [TagPlatform] = [.type1, .type2, .type3, .type4, .type5, .mifareClassic]
    let uid: [UInt8] = kind == 2 ? [0x01, 0x2E, 0x3D, 0x4C, 0x5B, 0x6A, 0x79, 0x88]
        : kind == 5 ? [0x11, 0x22, 0x33, 0x44] : [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
    let context = DriverContext(uid: uid, classicSize: [MifareClassicSize.classic1K, .classic4K, .mini, nil][Int(link >> 6)],
                                type5SystemInformation: link & 0x20 == 0)
    let driver = platforms[Int(kind)].driver(over: transport, context: context)
    let message = NDEFMessage(URIRecord(uri: "https://example.com/" + String(repeating: "a", count: operation == 3 ? 280 : 4)).record())
    let options = WriteOptions(formatIfBlank: link & 0x10 != 0, password: link & 0x08 != 0 ? [1, 2, 3, 4] : nil)
    do throws(TagWriteError) {
        switch operation {
        case 1: return "\(try await driver.status())"
        case 2, 3: return "\(try await driver.write(message.encoded(), options: options))"
        default: return "\(try await driver.makeReadOnly(options: options))"
        }
    } catch {
        return error.description
    }
}

let responseLimits = [16, 18, 64, 252, 258, 65_538]

/// The read `kind` names (byte 0 of the input).
func read(_ kind: UInt8, link: UInt8, over transport: ScriptedTransport) async throws(TagReadError) -> TagReading {
    let uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
    switch kind {
    case 0: return try await Type1Tag.readNDEF(over: transport)
    case 1: return try await Type2Tag.readNDEF(over: transport, uid: uid)
    case 2: return try await Type3Tag.readNDEF(over: transport, idm: [0x01, 0x2E, 0x3D, 0x4C, 0x5B, 0x6A, 0x79, 0x88])
    case 3: return try await Type4Tag.readNDEF(over: transport, uid: uid)
    case 4: return try await Type5Tag.readNDEF(over: transport, systemInformation: link & 0x20 == 0)
    default:
        let size = [MifareClassicSize.classic1K, .classic4K, .mini, nil][Int(link >> 6)]
        return try await MifareClassicTag.readNDEF(over: transport, uid: Array(uid.prefix(4)), size: size)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard input.count >= 2 else { return 0 }
    let kind = input[0] % 6, operation = input[0] / 6 % 5, link = input[1]
    let capabilities = LinkCapabilities(maxResponseLength: responseLimits[Int(link >> 2 & 0x07) % responseLimits.count],
                                        passesType2Extensions: link & 1 != 0, extendedLengthAPDUs: link & 2 != 0)
    let transport = ScriptedTransport(capabilities: capabilities, script: input.dropFirst(2))

    if operation != 0 {
        let said = InlineExecutor.run { await drive(kind, operation: operation, link: link, over: transport) }
        if getenv("TAGREAD_SHOW") != nil { print("tagread: \(said)") }
        let state = transport.state.withLock { $0 }
        if state.afterGone > 2 { violated("the driver asked \(state.afterGone) times after the object left", input) }
        return 0
    }
    let result = InlineExecutor.run { () async -> Result<TagReading, TagReadError> in
        do throws(TagReadError) {
            return .success(try await read(kind, link: link, over: transport))
        } catch {
            return .failure(error)
        }
    }

    let state = transport.state.withLock { $0 }
    // TAGREAD_SHOW=1 .build/fuzz/tagread FILE: what the read made of it (to check seeds).
    if getenv("TAGREAD_SHOW") != nil { print("tagread: \(result)") }
    // Once the object is gone a read stops: one more question at most (a reactivation attempt).
    if state.afterGone > 2 { violated("the read asked \(state.afterGone) times after the object left", input) }
    switch result {
    case .success(let reading):
        if reading.ndefBytes.count > state.answered { violated("a message of \(reading.ndefBytes.count) bytes from \(state.answered) answered", input) }
        if reading.capacity < 0 { violated("negative capacity \(reading.capacity)", input) }
        if case .signature(_, let signature)? = reading.originality, signature.count > state.answered {
            violated("a signature of \(signature.count) bytes from \(state.answered) answered", input)
        }
        if reading.roundTrips > state.exchanges + 1 { violated("\(reading.roundTrips) round trips counted, \(state.exchanges) exchanges", input) }
        if case .message(let message) = reading.content, message.encoded().count > reading.ndefBytes.count {
            violated("the decoded message is longer than its bytes", input)
        }
    case .failure(let error):
        _ = error.description
    }
    return 0
}
